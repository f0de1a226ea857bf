//go:build long

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
// answer discarded and followed by a search of the real position. Under make
// test-long: its two games at 4+0.1 cost their clocks (7 s of CPU, and on a
// busy machine every move's time margin); make test keeps the ponder tests
// of engines/uci and the arena's without ponderhits.
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
