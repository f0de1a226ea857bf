package tracker

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readThesisFixture reads a fixture of testdata/thesis_judge.py: per ply the
// move, the listing's best_eval and actual_eval.
func readThesisFixture(t *testing.T, path string) (moves []string, best, actual []int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		x := strings.Fields(sc.Text())
		if len(x) == 0 || strings.HasPrefix(x[0], "#") {
			continue
		}
		ply, err1 := strconv.Atoi(x[0])
		b, err2 := strconv.Atoi(x[2])
		a, err3 := strconv.Atoi(x[3])
		if len(x) != 4 || err1 != nil || err2 != nil || err3 != nil || ply != len(moves) {
			t.Fatalf("%s:%d: %q, expected \"ply move best_eval actual_eval\"", path, line, sc.Text())
		}
		moves, best, actual = append(moves, x[1]), append(best, b), append(actual, a)
	}
	return moves, best, actual
}

// The thesis protocol reproduces, ply by ply, the evaluations of the
// listing's calculate_acpl, made by testdata/thesis_judge.py speaking UCI to
// Stockfish as python-chess does; the position protocol's differ (a warm
// hash and the history change the scores) but judge the same moves. The
// game's first 24 plies here (the judge evaluates the plies in order, so a
// prefix's evaluations are the whole game's); judge_thesis_long_test.go
// checks every ply under make test-long.
func TestThesisProtocolReproducesListing(t *testing.T) {
	checkThesisProtocol(t, 24)
}

// checkThesisProtocol checks the first plies of the fixture game (0: all).
func checkThesisProtocol(t *testing.T, plies int) {
	moves, best, actual := readThesisFixture(t, "testdata/thesis_judge_d12.txt")
	uciMoves, err := os.ReadFile("testdata/thesis_game.uci")
	if err != nil || strings.Join(strings.Fields(string(uciMoves)), " ") != strings.Join(moves, " ") {
		t.Fatalf("fixture moves differ from testdata/thesis_game.uci (%v)", err)
	}
	if plies > 0 {
		moves, best, actual = moves[:plies], best[:plies], actual[:plies]
	}
	const depth = 12
	mate := DefaultScoring.MateScore
	j := newTestJudge(t, JudgeConfig{Depth: depth, Protocol: ProtocolThesis})
	before, after, err := j.EvaluateMoves(context.Background(), "", moves)
	if err != nil {
		t.Fatal(err)
	}
	var thesisLoss, fixtureLoss int
	for i := range moves {
		gotBest, gotActual := before[i].Score(mate), -after[i].Score(mate)
		if gotBest != best[i] || gotActual != actual[i] {
			t.Errorf("ply %d %s: best %d actual %d, the listing's %d %d", i, moves[i], gotBest, gotActual, best[i], actual[i])
		}
		thesisLoss += DefaultScoring.CentipawnLoss(before[i], after[i])
		fixtureLoss += min(max(0, best[i]-actual[i]), DefaultScoring.Cap)
	}
	if thesisLoss != fixtureLoss {
		t.Errorf("total loss %d, the listing's %d", thesisLoss, fixtureLoss)
	}
	if got, want := j.Evaluations(), int64(2*len(moves)); got != want {
		t.Errorf("%d Stockfish searches, want two per ply (%d)", got, want)
	}

	p := newTestJudge(t, JudgeConfig{Depth: depth})
	pb, pa, err := p.EvaluateMoves(context.Background(), "", moves)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := range moves {
		if i > 0 && pb[i] != pa[i-1] {
			t.Errorf("position protocol: ply %d's before %v is not ply %d's after %v", i, pb[i], i-1, pa[i-1])
		}
		if pb[i].Score(mate) != best[i] || -pa[i].Score(mate) != actual[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("the position protocol agrees with the listing on every ply: the test cannot tell the protocols apart")
	}
	t.Logf("%d plies: %d differ between the protocols", len(moves), differ)
}

// hangingJudge writes a UCI engine that answers the handshake but never
// "go" (it ignores "stop" too, busy in a child process of its group).
func hangingJudge(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hanging-judge")
	script := `#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name never answers go"; echo uciok ;;
    isready) echo readyok ;;
    go*) sleep 3600 ;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A judge that never answers "go depth N" costs two timeouts (the search,
// then the retry on a restarted process) and fails the game, by either
// protocol; it never hangs.
func TestJudgeTimeoutRestartsThenFails(t *testing.T) {
	for _, protocol := range []string{ProtocolPosition, ProtocolThesis} {
		j, err := NewJudge(context.Background(), JudgeConfig{Command: hangingJudge(t), Protocol: protocol, Timeout: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = j.EvaluateMoves(context.Background(), "", []string{"e2e4"})
		j.Close()
		if err == nil || !strings.Contains(err.Error(), `no answer to "go depth 12" within the judge timeout 100ms`) {
			t.Errorf("%s: %v, want the timeout", protocol, err)
		}
		if !strings.Contains(fmt.Sprint(err), "after a restart") || j.Restarts() != 1 {
			t.Errorf("%s: %d restarts (%v), want one restart and a retry", protocol, j.Restarts(), err)
		}
	}
}
