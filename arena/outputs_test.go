package arena

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/engines/board"
)

// games.epd and the rating interval through a real run at concurrency 2
// and its resumption after a kill (simulated: games.jsonl cut after three
// games and a torn fourth line, games.epd with a torn line): games.epd ends
// with one line per game, the game's final position, in game order; the
// interval prints the Elo and pentanomial lines every K games, with the
// numbers of the summary.
func TestEPDAndRatingInterval(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, `
games: 6
max_moves: 40
judge: off
concurrency: 2
rating_interval: 2
limits: {nodes: 300}
output: {epd: true, pgn_comments: [timeleft, seldepth, nodes]}
engines:
  - {name: H, engine: heuristic}
  - {name: R, engine: random, limits: {tc: "10+0.1"}}
`)
	dir := filepath.Join(t.TempDir(), "run")
	var first strings.Builder
	if _, err := Run(t.Context(), cfg, Options{Binary: arenaBin, OutDir: dir, Stdout: &first}); err != nil {
		t.Fatalf("run: %v\n%s", err, first.String())
	}
	for n := 1; n <= 6; n++ {
		if got := strings.Contains(first.String(), fmt.Sprintf("--- Ratings after %d of 6 games ---", n)); got != (n%2 == 0) {
			t.Errorf("rating interval 2: after game %d printed %v", n, got)
		}
	}
	if !strings.Contains(first.String(), "H vs R pairs: LL ") {
		t.Errorf("the intervals lack the pentanomial line:\n%s", first.String())
	}
	log := filepath.Join(dir, output.GamesFile)
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	kept := strings.SplitAfterN(string(data), "\n", 4)
	fourth, _, _ := strings.Cut(kept[3], "\n")
	torn := fourth[:len(fourth)/2]
	if err := os.WriteFile(log, []byte(strings.Join(kept[:3], "")+torn), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, output.EPDFile), []byte("8/8/8/8/8/8/8/8 w"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	sum, err := Resume(t.Context(), dir, Options{Binary: arenaBin, Stdout: &out, RatingInterval: 3})
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	// --rating-interval 3 overrides the config's 2 on resume.
	text := out.String()
	if !strings.Contains(text, "Resuming: 3 of 6") || !strings.Contains(text, "--- Ratings after 6 of 6 games ---") || strings.Contains(text, "Ratings after 4 of") {
		t.Errorf("resumed run's intervals (every 3 games):\n%s", text)
	}
	p := sum.Pairs[0]
	final := text[strings.Index(text, "--- Ratings after 6 of 6 games ---"):]
	wantElo := fmt.Sprintf("H vs R: +%d -%d =%d, %s", p.Elo.Wins, p.Elo.Losses, p.Elo.Draws, p.Elo)
	c := p.Penta.Counts
	wantPenta := fmt.Sprintf("H vs R pairs: LL %d, LD %d, DD+WL %d, WD %d, WW %d, %s", c.LL, c.LD, c.DD, c.WD, c.WW, p.Penta)
	if !strings.Contains(final, wantElo+"\n") || !strings.Contains(final, wantPenta+"\n") || p.Penta.Counts.Pairs() != 3 {
		t.Errorf("the last interval is not the summary's %q / %q:\n%s", wantElo, wantPenta, final)
	}

	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != 6 {
		t.Fatalf("games.jsonl: %d games, %v", len(games), err)
	}
	data, err = os.ReadFile(filepath.Join(dir, output.EPDFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("games.epd has %d lines, want 6:\n%s", len(lines), data)
	}
	for i, g := range games {
		moves := make([]string, len(g.Moves))
		for j, m := range g.Moves {
			moves[j] = m.UCI
		}
		pos, err := board.FromGame(board.StartFEN, moves)
		if err != nil {
			t.Fatal(err)
		}
		if want := strings.Join(strings.Fields(pos.FEN())[:4], " "); lines[i] != want {
			t.Errorf("games.epd line %d: %q, game %d ends in %q", i+1, lines[i], g.Game, want)
		}
	}
	// R plays on a clock, H does not: only R's moves carry the time left,
	// at most its 10 s plus the increments it has earned.
	for _, m := range games[0].Moves {
		if (m.TimeLeft != nil) != (m.Engine == "R") || m.TimeLeft != nil && (*m.TimeLeft <= 0 || *m.TimeLeft > 10+0.1*float64(m.Ply)) {
			t.Fatalf("%s's move %d: time left %v", m.Engine, m.Ply, m.TimeLeft)
		}
	}
	pgn, err := os.ReadFile(filepath.Join(dir, output.PGNFile))
	if err != nil || !strings.Contains(string(pgn), " sd=") || !strings.Contains(string(pgn), "s tl=") || strings.Contains(string(pgn), " mem=") {
		t.Errorf("games.pgn comments: want sd=, tl= and no mem=: %v", err)
	}
}
