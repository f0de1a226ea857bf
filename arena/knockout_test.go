package arena

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	_ "arena/engines/random" // the random mover the knockouts seed last
)

// checkBracket checks a finished knockout against its games: each round's
// encounters are as drawn (want[r] lists round r+1's as "A-B", B "bye" or
// "?" for a previous round's winner), every game belongs to an encounter
// of the bracket in game order, each encounter's games and score are its
// games', and the engine that scored more (or, level, the higher seed)
// went through, up to the winner.
func checkBracket(t *testing.T, dir string, want []string) *record.KnockoutSummary {
	t.Helper()
	sum := readSummaryJSON(t, dir)
	k := sum.Knockout
	if k == nil || !sum.Complete || len(k.Rounds) != len(want) {
		t.Fatalf("complete %v, knockout %+v; want %d rounds", sum.Complete, k, len(want))
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != sum.GamesPlayed {
		t.Fatalf("games.jsonl: %d games, %v; summary %d", len(games), err, sum.GamesPlayed)
	}
	next := 0 // the next game, in game order
	var winners []string
	for r, round := range k.Rounds {
		var drawn []string
		for i, e := range round.Encounters {
			b := e.B
			if b == "" {
				b = "bye"
			}
			drawn = append(drawn, e.A+"-"+b)
			if r > 0 && (e.A != winners[2*i] && e.A != winners[2*i+1] || e.B != winners[2*i] && e.B != winners[2*i+1]) {
				t.Errorf("round %d encounter %s-%s: not the winners %v of the round before", r+1, e.A, e.B, winners[2*i:2*i+2])
			}
		}
		if got := strings.Join(drawn, " "); !matchDraw(got, want[r]) {
			t.Errorf("round %d: %s, want %s", r+1, got, want[r])
		}
		score, played := map[string]float64{}, map[string]int{}
		for ; next < len(games); next++ {
			g := games[next]
			e := findEncounter(round.Encounters, g.White, g.Black)
			if e == nil {
				break // the next round's
			}
			score[e.A+"/"+g.White] += g.Score(g.White)
			score[e.A+"/"+g.Black] += g.Score(g.Black)
			played[e.A]++
		}
		winners = winners[:0:0]
		for _, e := range round.Encounters {
			winners = append(winners, e.Winner)
			if e.B == "" {
				continue
			}
			a, b := score[e.A+"/"+e.A], score[e.A+"/"+e.B]
			if played[e.A] != e.Games || a != e.ScoreA || b != e.ScoreB || e.Games < 2 {
				t.Errorf("round %d %s-%s: %d games %v-%v in games.jsonl, summary %+v", r+1, e.A, e.B, played[e.A], a, b, e)
			}
			switch {
			case a > b && (e.Winner != e.A || e.Decided != record.DecidedScore),
				b > a && (e.Winner != e.B || e.Decided != record.DecidedScore),
				a == b && (e.Winner != e.A || e.Decided != record.DecidedSeed):
				t.Errorf("round %d %s-%s %v-%v: %s went through (%s)", r+1, e.A, e.B, a, b, e.Winner, e.Decided)
			}
		}
	}
	if next != len(games) {
		t.Errorf("game %d (%s vs %s) is in no encounter of its round", games[next].Game, games[next].White, games[next].Black)
	}
	if len(winners) != 1 || k.Winner != winners[0] {
		t.Errorf("winner %q, the final's %v", k.Winner, winners)
	}
	md, err := os.ReadFile(filepath.Join(dir, output.SummaryMD))
	if err != nil || !bytes.Contains(md, []byte("Knockout bracket")) || !bytes.Contains(md, []byte("Winner: "+k.Winner)) {
		t.Errorf("summary.md lacks the bracket or the winner (%v):\n%s", err, md)
	}
	return k
}

// matchDraw compares a round's encounters with a pattern where "?" stands
// for any engine.
func matchDraw(got, want string) bool {
	g, w := strings.FieldsFunc(got, splitDraw), strings.FieldsFunc(want, splitDraw)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if w[i] != "?" && w[i] != g[i] {
			return false
		}
	}
	return true
}

func splitDraw(r rune) bool { return r == ' ' || r == '-' }

func findEncounter(es []record.KnockoutEncounter, x, y string) *record.KnockoutEncounter {
	for i, e := range es {
		if e.A == x && e.B == y || e.A == y && e.B == x {
			return &es[i]
		}
	}
	return nil
}

// A real knockout of four built-in engines, two games at once: the seeds
// meet 1-4 and 2-3, the winners in the final, each encounter of two games
// (more on a tie), and the bracket and winner are printed and saved.
func TestKnockoutFourEngines(t *testing.T) {
	t.Parallel()
	sum, dir, out, err := playMatch(t, context.Background(), `
format: knockout
games: 2
concurrency: 2
max_moves: 60
judge: off
engines:
  - {name: D3, engine: heuristic, limits: {depth: 3}}
  - {name: D2, engine: heuristic, limits: {depth: 2}}
  - {name: D1, engine: heuristic, limits: {depth: 1}}
  - {name: Rnd, engine: random, limits: {depth: 1}}
`)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if sum.Format != config.FormatKnockout || !sum.Complete || sum.GamesPlayed < 6 || sum.GamesPlanned != sum.GamesPlayed {
		t.Fatalf("format %q, complete %v, %d of %d games; want a complete knockout of at least 6 games", sum.Format, sum.Complete, sum.GamesPlayed, sum.GamesPlanned)
	}
	k := checkBracket(t, dir, []string{"D3-Rnd D2-D1", "?-?"})
	for _, want := range []string{"Format: knockout: 4 engines seeded in config order, a bracket of 4 (0 bye(s)", "Knockout bracket", "Winner: " + k.Winner,
		"Knockout round 1: ", "Knockout round 2: " + k.Winner} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Only engines that met are in the crosstable.
	for _, row := range sum.Crosstable.Rows {
		for j, c := range row.Cells {
			met := findEncounter(k.Rounds[0].Encounters, row.Engine, sum.Crosstable.Engines[j]) != nil ||
				findEncounter(k.Rounds[1].Encounters, row.Engine, sum.Crosstable.Engines[j]) != nil
			if (c != nil) != met {
				t.Errorf("crosstable %s vs %s = %v, met %v", row.Engine, sum.Crosstable.Engines[j], c, met)
			}
		}
	}
	checkRunFiles(t, dir, sum.GamesPlayed)
}

// A knockout of three engines interrupted after its first game and
// resumed: the top seed has a bye, the bracket is rebuilt from games.jsonl
// and finished, and the games played before the interruption are kept.
func TestKnockoutResume(t *testing.T) {
	cfg := writeConfig(t, `
format: knockout
games: 2
max_moves: 24
judge: off
limits: {movetime: 40ms}
engines:
  - {name: Top, engine: heuristic}
  - {name: Mid, engine: heuristic, options: {max_depth: 2}}
  - {name: Low, engine: random}
`)
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Interrupt once the first game is on disk.
		for ctx.Err() == nil {
			if data, _ := os.ReadFile(filepath.Join(dir, output.GamesFile)); bytes.Count(data, []byte("\n")) >= 1 {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var out bytes.Buffer
	_, err := Run(ctx, cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: &out})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Done < 1 || ie.Done >= 4 {
		t.Fatalf("run: %v, want an interruption after 1 to 3 of 4 games\n%s", err, out.String())
	}
	before, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if _, err := Resume(context.Background(), dir, Options{Binary: arenaBin, Stdout: &out}); err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "Resuming: ") {
		t.Errorf("resume output:\n%s", out.String())
	}
	k := checkBracket(t, dir, []string{"Top-bye Mid-Low", "Top-?"})
	if e := k.Rounds[0].Encounters[0]; e.Decided != record.DecidedBye || e.Winner != "Top" || e.Games != 0 {
		t.Errorf("the top seed's bye: %+v", e)
	}
	after, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range before {
		a := after[g.Game-1]
		if a.Game != g.Game || a.White != g.White || a.Result != g.Result || a.Plies != g.Plies {
			t.Errorf("game %d changed on resume: %s vs %s %s %d plies, now %s vs %s %s %d plies", g.Game, g.White, g.Black, g.Result, g.Plies, a.White, a.Black, a.Result, a.Plies)
		}
	}
}

// A knockout cannot be split into shards: its later rounds depend on
// results every shard would need.
func TestKnockoutRefusesShards(t *testing.T) {
	cfg := writeConfig(t, `
format: knockout
judge: off
limits: {depth: 1}
engines:
  - {name: A, engine: heuristic}
  - {name: B, engine: heuristic}
  - {name: C, engine: random}
`)
	_, err := Run(context.Background(), cfg, Options{Binary: arenaBin, OutDir: filepath.Join(t.TempDir(), "run"), Shard: record.Shard{Index: 0, Count: 2}})
	if err == nil || !strings.Contains(err.Error(), "format: knockout cannot be split into shards") {
		t.Fatalf("knockout with --shard 0/2: %v", err)
	}
}
