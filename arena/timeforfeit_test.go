package arena

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/arena/record"
)

// time_forfeit through the real binary: a fake engine that takes 3 s over
// every bestmove (its warm-up search too) plays White at a thesis-style
// move time of 1 s against the thesis preset. With time_forfeit off its
// move is played and the overrun of at least 2 s recorded in games.jsonl,
// moves.csv and summary.json; with it on (the default) it loses on time.
// The two runs mostly sleep, so they run beside each other (7 s, not 14),
// but not beside the package's parallel tests: each run's warm-up search
// must end within 6.1 s of its go (SearchMargin and StopGrace past the
// 100 ms), and the busy games of those tests could starve the fake engine
// past that.
func TestTimeForfeitThroughBinary(t *testing.T) {
	for _, forfeit := range []string{"off", "on"} {
		t.Run(forfeit, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cfgPath := filepath.Join(dir, "late.yaml")
			cfg := fmt.Sprintf(`name: late
games: 1
pairs: false
max_moves: 2
game_end: fivefold
time_forfeit: %s
judge: off
limits: {movetime: 1s}
engines:
  - {name: Late, command: %q, args: [-mode, late, -late, 3s]}
  - {name: Heuristic, engine: heuristic, options: {preset: thesis, pst: thesis}}
`, forfeit, fakeBin)
			if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			run := filepath.Join(dir, "run")
			out, err := exec.Command(arenaBin, "run", cfgPath, "--out", run, "--quiet").CombinedOutput()
			if err != nil {
				t.Fatalf("arena run: %v\n%s", err, out)
			}
			games, err := output.ReadGames(filepath.Join(run, output.GamesFile))
			if err != nil || len(games) != 1 {
				t.Fatalf("games.jsonl: %d games, %v", len(games), err)
			}
			g := games[0]
			sum := readSummaryJSON(t, run)
			if forfeit == "on" {
				if g.Termination != record.TermTimeForfeit || g.Result != "0-1" || len(g.Moves) != 0 {
					t.Errorf("time_forfeit on: %s %s after %d moves (%s), want a loss on time before the first move", g.Result, g.Termination, len(g.Moves), g.Reason)
				}
				return
			}
			if g.Termination == record.TermTimeForfeit || len(g.Moves) != 2 {
				t.Fatalf("time_forfeit off: %s %s after %d moves (%s), want both moves played", g.Result, g.Termination, len(g.Moves), g.Reason)
			}
			if m := g.Moves[0]; m.Overrun < 2 {
				t.Errorf("the late move's overrun_s %.3f in games.jsonl, want >= 2 (3 s at a 1 s move time)", m.Overrun)
			}
			csv, err := os.ReadFile(filepath.Join(run, output.MovesFile))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
			head, row := strings.Split(lines[0], ","), strings.Split(lines[1], ",")
			if head[len(head)-1] != "overrun_s" || len(row) != len(head) || !strings.HasPrefix(row[len(row)-1], "2.") && !strings.HasPrefix(row[len(row)-1], "3.") {
				t.Errorf("moves.csv: header %v, first row %v: want its last column overrun_s >= 2", head, row)
			}
			if e := sum.Engines[0]; sum.TimeForfeit != "off" || e.Overruns < 1 || e.MaxOverrun < 2 {
				t.Errorf("summary.json: time_forfeit %q, Late's overruns %d, max %.3f s; want off, >= 1, >= 2", sum.TimeForfeit, e.Overruns, e.MaxOverrun)
			}
		})
	}
}

// An engine whose first search costs 3 s (its start-up) is warmed up
// before its first timed game, so that cost is not charged to its first
// move: at a 1 s move time with time_forfeit on it loses no game.
func TestWarmUpBeforeTimedGames(t *testing.T) {
	sum, dir, out, err := playMatch(t, t.Context(), fmt.Sprintf(`
games: 2
max_moves: 4
judge: off
limits: {movetime: 200ms}
engines:
  - {name: Slow, command: %q, args: [-mode, slowstart, -late, 3s]}
  - {name: Fake, command: %q}
`, fakeBin, fakeBin))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != 2 {
		t.Fatalf("games.jsonl: %d games, %v", len(games), err)
	}
	for _, g := range games {
		if g.Termination == record.TermTimeForfeit || len(g.Moves) != 4 {
			t.Errorf("game %d: %s %s after %d moves (%s), want 4 moves played", g.Game, g.Result, g.Termination, len(g.Moves), g.Reason)
		}
	}
	if e := sum.Engines[0]; e.Errors.TimeForfeits != 0 || e.MaxTime > 2 {
		t.Errorf("Slow: %d time forfeits, longest move %.2f s; want none, no move charged the start-up", e.Errors.TimeForfeits, e.MaxTime)
	}
}
