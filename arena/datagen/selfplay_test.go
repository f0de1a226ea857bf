package datagen

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/engines/board"
)

func selfPlayConfig(out string, positions int) SelfPlayConfig {
	return SelfPlayConfig{Out: out, Seed: 3, Nodes: 400, RandomPlies: 8, Positions: positions, Workers: 1}
}

func runSelfPlay(t *testing.T, cfg SelfPlayConfig) SelfPlayStats {
	t.Helper()
	st, err := SelfPlay(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSelfPlayDeterministicAndResumable: two workers write the file one
// worker writes; a run stopped early, damaged by a half-written game and
// resumed, writes it too.
func TestSelfPlayDeterministicAndResumable(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.txt")
	st := runSelfPlay(t, selfPlayConfig(one, 300))
	if !st.ReachedMax || st.State.Positions < 300 {
		t.Fatalf("stats %+v: expected at least 300 positions", st)
	}
	two := filepath.Join(dir, "two.txt")
	cfg := selfPlayConfig(two, 300)
	cfg.Workers = 2
	runSelfPlay(t, cfg)
	split := filepath.Join(dir, "split.txt")
	first := runSelfPlay(t, selfPlayConfig(split, 100))
	if first.State.Games >= st.State.Games {
		t.Fatalf("the short run played %d games, the whole one %d: expected fewer", first.State.Games, st.State.Games)
	}
	f, err := os.OpenFile(split, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 3") // a crash mid-line
	f.Close()
	cfg = selfPlayConfig(split, 300)
	cfg.Resume = true
	runSelfPlay(t, cfg)
	want, _ := os.ReadFile(one)
	for _, path := range []string{two, split} {
		if got, _ := os.ReadFile(path); string(got) != string(want) {
			t.Errorf("%s differs from %s", filepath.Base(path), filepath.Base(one))
		}
	}
	checkSelfPlayLines(t, string(want))

	// Resuming with other options is refused, naming both.
	cfg.Seed = 4
	if _, err := SelfPlay(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "seed 3") {
		t.Errorf("resume with another seed: error %v, expected one naming seed 3", err)
	}
	// A fresh run on an existing file is refused.
	cfg = selfPlayConfig(one, 400)
	if _, err := SelfPlay(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("existing file without --resume: error %v", err)
	}
	// One writer: a held lock is refused.
	unlock, err := lockFile(one + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	if _, err := SelfPlay(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "another") {
		t.Errorf("locked file: error %v", err)
	}
	unlock()
}

// TestSelfPlaySoftStop: a closed stop channel ends the run after the
// games in progress, with every committed game in the state.
func TestSelfPlaySoftStop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "d.txt")
	stop := make(chan struct{})
	close(stop)
	st, err := SelfPlay(context.Background(), selfPlayConfig(out, 1000), stop)
	if err != nil || !st.SoftStop || st.State.Games != 0 {
		t.Fatalf("stats %+v, error %v: expected a soft stop before any game", st, err)
	}
}

// checkSelfPlayLines checks every line's form and the filters: no
// position in check, no mate score, results of whole games.
func checkSelfPlayLines(t *testing.T, text string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		f := strings.Split(l, " | ")
		if len(f) != 3 {
			t.Fatalf("line %d %q: expected FEN | score | result", i+1, l)
		}
		p, err := board.ParseFEN(f[0])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if p.InCheck() {
			t.Errorf("line %d: side to move in check", i+1)
		}
		score, err := strconv.Atoi(f[1])
		if err != nil || score > 20000 || score < -20000 {
			t.Errorf("line %d: score %q, expected centipawns without mates", i+1, f[1])
		}
		if f[2] != "1.0" && f[2] != "0.5" && f[2] != "0.0" {
			t.Errorf("line %d: result %q", i+1, f[2])
		}
	}
}

// TestSelfPlayStockfishLabels: --label stockfish keeps the games (the
// same positions, bar any Stockfish calls mate) and replaces the scores
// with Stockfish's.
func TestSelfPlayStockfishLabels(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	runSelfPlay(t, selfPlayConfig(plain, 60))
	labelled := filepath.Join(dir, "sf.txt")
	cfg := selfPlayConfig(labelled, 60)
	cfg.Label = "stockfish"
	cfg.Judge.Depth = 6
	runSelfPlay(t, cfg)
	a, _ := os.ReadFile(plain)
	b, _ := os.ReadFile(labelled)
	checkSelfPlayLines(t, string(b))
	scores := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(a)), "\n") {
		f := strings.Split(l, " | ")
		scores[f[0]] = f[1]
	}
	differ := 0
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(l, " | ")
		s, ok := scores[f[0]]
		if !ok {
			t.Fatalf("labelled position %s is not among the unlabelled run's", f[0])
		}
		if s != f[1] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("every Stockfish score equals the search's: the labels were not replaced")
	}
}

// TestSelfPlayMakesTheNNUEData: the NNUE data are not committed but made
// again (make nnue-data), so the generator must still produce what
// data/nnue/selfplay.sums records for them; a change to the generator or to
// preset strong's search that changes the data fails here, and must come
// with new data, sums and net (docs/nnue.md, "Training").
func TestSelfPlayMakesTheNNUEData(t *testing.T) {
	sums, err := os.ReadFile("../../data/nnue/selfplay.sums")
	if err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(string(sums), "\n")
	out := filepath.Join(t.TempDir(), "selfplay.txt")
	cfg := SelfPlayConfig{Out: out, Seed: 1, RandomPlies: 8, Positions: 1000, Workers: 2}.Defaults()
	if want := "# arena datagen selfplay: " + cfg.fingerprint(); head != want {
		t.Fatalf("data/nnue/selfplay.sums was made by\n%s\nnot by the options of this test (those of make nnue-data):\n%s", head, want)
	}
	var want string
	for _, line := range strings.Split(rest, "\n") {
		if sum, ok := strings.CutSuffix(line, "  lines 1-1000"); ok {
			want = sum
		}
	}
	if want == "" {
		t.Fatal("data/nnue/selfplay.sums has no line for lines 1-1000")
	}
	runSelfPlay(t, cfg)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfterN(string(data), "\n", 1001)
	if len(lines) < 1001 {
		t.Fatalf("%d positions generated, want at least 1000", len(lines)-1)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(lines[:1000], "")))); got != want {
		t.Errorf("the first 1,000 positions hash to %s; data/nnue/selfplay.sums records %s", got, want)
	}
}
