package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
)

// adjudicatedMatch plays two games of the heuristic engine against itself
// (depth-limited, so the games replay identically) from start with the
// given adjudicate: block and returns the games.
func adjudicatedMatch(t *testing.T, start, adjudicate string) (*record.Summary, []*record.GameRecord, string) {
	t.Helper()
	book := filepath.Join(t.TempDir(), "start.epd")
	if err := os.WriteFile(book, []byte(start+" id \"test\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 120
adjudicate: %s
limits: {depth: 2}
engines:
  - {name: A, engine: heuristic}
  - {name: B, engine: heuristic}
openings: {file: %q}
judge: off
`, adjudicate, book))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	records, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(records) != 2 {
		t.Fatalf("games.jsonl: %d records, %v", len(records), err)
	}
	return sum, records, out
}

// White is a queen and a rook up: Black's engine sees a lost game at once.
const lostForBlack = "4k3/8/8/8/8/8/PPPP4/QR2K3 w - -"

func TestResignAdjudication(t *testing.T) {
	sum, games, out := adjudicatedMatch(t, lostForBlack, "{resign: {movecount: 2, score: 500}}")
	for _, g := range games {
		if g.Result != "1-0" || g.Termination != record.TermAdjudicated || g.Adjudication != config.AdjudicateResign ||
			!strings.Contains(g.Reason, "Black's score -500 cp or worse for 2 moves") {
			t.Fatalf("game %d: %s %s %q (%s), want a resign adjudication for White", g.Game, g.Result, g.Termination, g.Reason, g.Adjudication)
		}
		// The game ends on Black's second move in a row at -500 or worse.
		var black []record.MoveRecord
		for _, m := range g.Moves {
			if m.Side == "black" {
				black = append(black, m)
			}
		}
		last := black[len(black)-2:]
		for _, m := range last {
			if m.Mate == 0 && m.ScoreCP > -500 || m.Mate > 0 {
				t.Errorf("game %d ply %d: Black's score %d cp mate %d ended the game by resignation", g.Game, m.Ply, m.ScoreCP, m.Mate)
			}
		}
		if g.Moves[len(g.Moves)-1].Side != "black" {
			t.Errorf("game %d: adjudicated after a White move; the one-sided rule counts the loser's moves", g.Game)
		}
	}
	if sum.Adjudications[config.AdjudicateResign] != 2 || !strings.Contains(out, "Adjudicated: 2 of 2 games (2 resign)") {
		t.Errorf("summary adjudications %v; output:\n%s", sum.Adjudications, out)
	}
	if !strings.Contains(out, "Resign Adjudication: an engine's own score at -500 cp or worse for 2 moves") {
		t.Errorf("header lacks the resign rule:\n%s", out)
	}
}

func TestResignAdjudicationTwoSided(t *testing.T) {
	_, games, _ := adjudicatedMatch(t, lostForBlack, "{resign: {movecount: 2, score: 500, twosided: true}}")
	for _, g := range games {
		if g.Result != "1-0" || g.Adjudication != config.AdjudicateResign || !strings.Contains(g.Reason, "both engines' scores 500 cp or more for White for 2 moves each") {
			t.Fatalf("game %d: %s %q, want a two-sided resign adjudication for White", g.Game, g.Result, g.Reason)
		}
		// The last four plies all agree: White's scores >= 500, Black's <= -500.
		for _, m := range g.Moves[len(g.Moves)-4:] {
			own := m.ScoreCP
			if m.Mate != 0 {
				own = mateCP * m.Mate / abs(m.Mate)
			}
			if (m.Side == "white") != (own >= 500) || (m.Side == "black") != (own <= -500) {
				t.Errorf("game %d ply %d (%s): score %d does not agree with the adjudication", g.Game, m.Ply, m.Side, own)
			}
		}
	}
}

func TestDrawAdjudication(t *testing.T) {
	// From the start position both engines' scores stay small; captures and
	// pawn moves restart the count, so the game ends at the first 4 plies
	// without one after the 3rd move.
	sum, games, out := adjudicatedMatch(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
		"{draw: {movenumber: 3, movecount: 2, score: 300}}")
	for _, g := range games {
		if g.Result != "1/2-1/2" || g.Adjudication != config.AdjudicateDraw || !strings.Contains(g.Reason, "both scores within 300 cp for 2 moves each") {
			t.Fatalf("game %d: %s %q (%s), want a draw adjudication", g.Game, g.Result, g.Reason, g.Adjudication)
		}
		if g.Plies < 6 {
			t.Errorf("game %d: adjudicated after %d plies, before move 3", g.Game, g.Plies)
		}
		for _, m := range g.Moves[len(g.Moves)-4:] {
			if m.Mate != 0 || abs(m.ScoreCP) > 300 {
				t.Errorf("game %d ply %d: score %d mate %d counted towards a draw", g.Game, m.Ply, m.ScoreCP, m.Mate)
			}
		}
	}
	if sum.Adjudications[config.AdjudicateDraw] != 2 || !strings.Contains(out, "Draw Adjudication: both scores within 300 cp for 2 moves each, from move 3") {
		t.Errorf("summary adjudications %v; output:\n%s", sum.Adjudications, out)
	}
}

// The adjudicator's counting, move by move, as fastchess counts.
func TestAdjudicatorCounts(t *testing.T) {
	type ply struct {
		cp, mate int
		irrev    bool
	}
	for _, tc := range []struct {
		name  string
		rules config.Adjudicate
		plies []ply
		want  string // "" none, else rule and winner
	}{
		{"draw needs 2×movecount plies", config.Adjudicate{Draw: &config.DrawRule{MoveCount: 2, Score: 10}}, []ply{{5, 0, false}, {-5, 0, false}, {0, 0, false}}, ""},
		{"draw fires", config.Adjudicate{Draw: &config.DrawRule{MoveCount: 2, Score: 10}}, []ply{{5, 0, false}, {-5, 0, false}, {0, 0, false}, {10, 0, false}}, "draw -1"},
		{"capture restarts the draw count", config.Adjudicate{Draw: &config.DrawRule{MoveCount: 2, Score: 10}}, []ply{{5, 0, false}, {-5, 0, false}, {0, 0, true}, {10, 0, false}}, ""},
		{"mate breaks the draw count", config.Adjudicate{Draw: &config.DrawRule{MoveCount: 1, Score: 10}}, []ply{{0, 0, false}, {0, 3, false}}, ""},
		{"draw waits for the move number", config.Adjudicate{Draw: &config.DrawRule{MoveNumber: 3, MoveCount: 1, Score: 10}}, []ply{{0, 0, false}, {0, 0, false}, {0, 0, false}, {0, 0, false}}, ""},
		{"one-sided resign: Black's own moves", config.Adjudicate{Resign: &config.ResignRule{MoveCount: 2, Score: 500}}, []ply{{600, 0, false}, {-600, 0, false}, {0, 0, false}, {0, -5, false}}, "resign 0"},
		{"one-sided resign: a better move resets", config.Adjudicate{Resign: &config.ResignRule{MoveCount: 2, Score: 500}}, []ply{{0, 0, false}, {-600, 0, false}, {0, 0, false}, {-400, 0, false}}, ""},
		{"two-sided: the winner must agree", config.Adjudicate{Resign: &config.ResignRule{MoveCount: 1, Score: 500, TwoSided: true}}, []ply{{100, 0, false}, {-600, 0, false}}, ""},
		{"two-sided fires", config.Adjudicate{Resign: &config.ResignRule{MoveCount: 1, Score: 500, TwoSided: true}}, []ply{{-700, 0, false}, {600, 0, false}}, "resign 1"},
		{"two-sided: a change of winner restarts", config.Adjudicate{Resign: &config.ResignRule{MoveCount: 1, Score: 500, TwoSided: true}}, []ply{{700, 0, false}, {600, 0, false}}, ""},
	} {
		a := adjudicator{rules: tc.rules}
		got := ""
		for i, p := range tc.plies {
			a.add(i%2, p.cp, p.mate, p.irrev)
			if w, rule, _, ok := a.verdict(i + 1); ok {
				got = fmt.Sprintf("%s %d", rule, w)
				break
			}
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestAdjudicateConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"adjudicate: {draw: {movecount: 8}}", "adjudicate.draw.score: missing"},
		{"adjudicate: {resign: {score: 600}}", "adjudicate.resign.movecount: missing"},
		{"adjudicate: {resign: {movecount: 0, score: 600}}", "adjudicate.resign.movecount"},
		{"adjudicate: {draw: {movecount: 8, score: 10, moves: 3}}", "moves"},
		{"adjudicate: {tb: /syzygy}", "tb"},
	} {
		_, err := config.Parse("c.yaml", []byte(tc.yaml+"\nlimits: {depth: 1}\nengines: [{engine: heuristic}, {engine: heuristic, name: h2}]\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.yaml, err, tc.want)
		}
	}
	cfg, err := config.Parse("c.yaml", []byte("adjudicate: {draw: {movenumber: 40, movecount: 8, score: 10}, resign: {movecount: 3, score: 600, twosided: true}}\nlimits: {depth: 1}\nengines: [{engine: heuristic}, {engine: heuristic, name: h2}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The resolved config reads back unchanged (that is how --resume restores it).
	data, err := cfg.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := config.Parse("config.yaml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if *back.Adjudicate.Draw != (config.DrawRule{MoveNumber: 40, MoveCount: 8, Score: 10}) || *back.Adjudicate.Resign != (config.ResignRule{MoveCount: 3, Score: 600, TwoSided: true}) {
		t.Errorf("round trip: %+v %+v", back.Adjudicate.Draw, back.Adjudicate.Resign)
	}
}
