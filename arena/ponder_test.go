package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/arena/record"
	"arena/engines"
	"arena/engines/board"
)

// Stockfish and the built-in heuristic engine both ponder in real games
// at a short time control: every game is legal and complete, both engines
// had ponderhits (the moves recorded so are exactly the ponderhits of
// each engine's UCI log), and the missed ponder searches were stopped, their
// answer discarded and followed by a search of the real position.
func TestPonderStockfishVsBuiltin(t *testing.T) {
	needStockfish(t)
	logs := filepath.Join(t.TempDir(), "uci")
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 40
judge: off
log: %q
limits: {tc: "4+0.1"}
# A busy machine must not turn a slow move into a loss on time: the test
# is about pondering, not about the engines' time management.
time_margin: 10s
engines:
  - {name: SF, command: stockfish, options: {Threads: 1, Hash: 16}, ponder: true}
  - {name: H, engine: heuristic, options: {hash: 16}, ponder: true}
`, logs))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	if !strings.Contains(out, "Engine 2: H (built-in heuristic; hash=16; ponder)") {
		t.Errorf("the match configuration does not say H ponders:\n%s", out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	hits := map[string]int{}
	for _, g := range games {
		if g.Termination != record.TermNormal && g.Termination != record.TermAdjudicated {
			t.Errorf("game %d ended by %s: %s", g.Game, g.Termination, g.Reason)
		}
		var moves []string
		for _, m := range g.Moves {
			moves = append(moves, m.UCI)
			if m.Ponderhit {
				hits[m.Engine]++
			}
		}
		if _, err := board.FromGame(engines.StartFEN, moves); err != nil || len(moves) != g.Plies {
			t.Errorf("game %d: %d moves for %d plies, replay: %v", g.Game, len(moves), g.Plies, err)
		}
	}
	for i, name := range []string{"SF", "H"} {
		log, err := os.ReadFile(filepath.Join(logs, name+".1.log"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(log)
		n := strings.Count(text, "> ponderhit\n")
		if n == 0 || n != hits[name] || sum.Engines[i].Ponderhits != n {
			t.Errorf("%s: %d ponderhits in its log, %d moves recorded as ponderhits, summary %d", name, n, hits[name], sum.Engines[i].Ponderhits)
		}
		if !strings.Contains(text, "> setoption name Ponder value true\n") {
			t.Errorf("%s: Ponder never set", name)
		}
		// Every go ponder ends in a ponderhit or a stop; a stop in
		// mid-game is followed by a search of the real position.
		ponders, stops := strings.Count(text, "> go ponder "), strings.Count(text, "> stop\n")
		if ponders != n+stops {
			t.Errorf("%s: %d go ponder, %d ponderhit, %d stop", name, ponders, n, stops)
		}
		if misses := checkMisses(t, name, text); misses == 0 {
			t.Errorf("%s: no missed ponder search followed by a search", name)
		}
	}
}

// checkMisses walks a traffic log and counts the ponder searches that were
// stopped and followed by a new search; it fails the test when a stopped
// search's bestmove is not read before the next command goes out.
func checkMisses(t *testing.T, name, log string) int {
	misses, state := 0, ""
	for _, l := range strings.Split(log, "\n") {
		f := strings.SplitN(l, " ", 3)
		if len(f) < 3 {
			continue
		}
		dir, cmd := f[1], f[2]
		switch {
		case dir == ">" && cmd == "stop":
			state = "stopped"
		case dir == "<" && strings.HasPrefix(cmd, "bestmove") && state == "stopped":
			state = "discarded"
		case dir == ">" && strings.HasPrefix(cmd, "go ") && !strings.HasPrefix(cmd, "go ponder") && state == "discarded":
			misses++
			state = ""
		case dir == ">" && state == "stopped" && !strings.HasPrefix(cmd, "isready"):
			t.Errorf("%s: %q sent before the stopped search's bestmove", name, cmd)
			state = ""
		case dir == ">" && strings.HasPrefix(cmd, "go"):
			state = ""
		}
	}
	return misses
}

// An engine without the Ponder option plays without pondering, and the run
// says so once; so does an engine that never names a ponder move.
func TestPonderWithoutOption(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "uci")
	sum, _, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 2
max_moves: 12
judge: off
log: %q
limits: {depth: 1}
engines:
  - {name: Fake, command: %s, args: [-spread], ponder: true}
  - {name: R, engine: random, ponder: true}
`, logs, fakeBin))
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	want := `engine "Fake" has no UCI option Ponder, so it plays without pondering`
	if strings.Count(out, want) != 1 || len(sum.Warnings) == 0 || !strings.Contains(strings.Join(sum.Warnings, "\n"), want) {
		t.Errorf("want the warning %q once in the output and the summary:\n%s\n%q", want, out, sum.Warnings)
	}
	// The random mover announces Ponder (every built-in engine does) but
	// names no ponder move.
	if want := `warning: engine "R" named no ponder move in any of its`; strings.Count(out, want) != 1 {
		t.Errorf("want the warning %q once:\n%s", want, out)
	}
	log, err := os.ReadFile(filepath.Join(logs, "Fake.1.log"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "ponder") {
		t.Errorf("the engine without Ponder was asked to ponder:\n%s", log)
	}
	if sum.GamesPlayed != 2 {
		t.Errorf("%d games played", sum.GamesPlayed)
	}
}

// Pondering counts two busy engines per game in the core warning, and
// the judge, which judges beside play, one core per process.
func TestCoreWarningCountsPondering(t *testing.T) {
	for _, c := range []struct {
		n, perGame, judge, cores int
		want                     string
	}{
		{1, 1, 1, 2, ""},
		{1, 1, 0, 1, ""},
		{1, 1, 1, 1, "concurrency 1 plus 1 judge process(es) judging beside play need 2 cores, the machine has 1"},
		{1, 2, 1, 2, "concurrency 1 with pondering (2 engines thinking per game) plus 1 judge process(es) judging beside play need 3 cores"},
		{2, 1, 0, 2, ""},
		{2, 2, 0, 2, "concurrency 2 with pondering (2 engines thinking per game) plus 0 judge process(es) judging beside play need 4 cores, the machine has 2"},
		{2, 1, 2, 2, "concurrency 2 plus 2 judge process(es) judging beside play need 4 cores"},
	} {
		got := strings.Join(coreWarning(c.n, c.perGame, c.judge, c.cores), "")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("coreWarning(%d, %d, %d, %d) = %q, want %q", c.n, c.perGame, c.judge, c.cores, got, c.want)
		}
	}
}
