package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
)

// A judge that never answers "go depth N" does not hang the run: after the
// timeout, a restart and one retry, the game is kept unjudged with the
// reason (and is judged again by --resume, as any game without a verdict).
func TestHangingJudgeLeavesGameUnjudged(t *testing.T) {
	t.Parallel() // waits on judge timeouts, not the CPU: main_test.go
	judge := filepath.Join(t.TempDir(), "hanging-judge")
	script := "#!/bin/sh\nwhile read -r line; do case \"$line\" in uci) echo uciok ;; isready) echo readyok ;; go*) sleep 3600 ;; esac; done\n"
	if err := os.WriteFile(judge, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	sum, dir, out, err := playMatch(t, context.Background(), fmt.Sprintf(`
games: 1
max_moves: 4
judge: {engine: %q, timeout: 100ms}
engines:
  - {name: A, command: %q, limits: {depth: 1}}
  - {name: B, command: %q, limits: {depth: 1}}
`, judge, fakeBin, fakeBin))
	if err != nil || sum.GamesPlayed != 1 {
		t.Fatalf("run: %v\n%s", err, out)
	}
	games, err := output.ReadGames(filepath.Join(dir, output.GamesFile))
	if err != nil || len(games) != 1 {
		t.Fatalf("games.jsonl: %d games, %v", len(games), err)
	}
	g := games[0]
	if g.Plies != 4 || g.WhiteStats != nil || g.Moves[0].CPL != nil || !strings.Contains(g.JudgeError, "judge timeout 100ms") {
		t.Errorf("game: %d plies, white stats %v, judge error %q; want 4 plies, unjudged for the timeout", g.Plies, g.WhiteStats, g.JudgeError)
	}
}
