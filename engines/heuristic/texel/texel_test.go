package texel

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"arena/engines/heuristic"
)

// selfplay reads the first n positions of testdata/selfplay-3000.txt.gz,
// the first 3,000 lines of the self-play data (make nnue-data, docs/nnue.md:
// head -n 3000 data/nnue/selfplay.txt | gzip -9n), traced with weights w.
func selfplay(t *testing.T, n int, w *heuristic.Weights) *Data {
	t.Helper()
	f, err := os.Open("testdata/selfplay-3000.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Read(z, "selfplay-3000", n, w)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReadErrors(t *testing.T) {
	w := heuristic.PestoWeights()
	for _, c := range []struct{ data, want string }{
		{"8/8/8/8/8/8/8/K6k w - - 0 1 | 0\n", "x:1: 2 |-separated fields"},
		{"# comment\n8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.7\n", "x:2: result \"0.7\""},
		{"8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.5\nnot a fen | 0 | 1.0\n", "x:2:"},
		{"8/8/8/8/8/8/8/K6k w - - 0 1 | 0 | 0.5\n", "1 positions, expected at least 2"},
	} {
		if _, err := Read(strings.NewReader(c.data), "x", 2, &w); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.data, err, c.want)
		}
	}
}

// TestFit checks K is the minimum of the error, that the fit lowers the
// training error, and that the weights it writes out, read back through the
// engine's own evaluation, have the error the linear model said.
func TestFit(t *testing.T) {
	w := heuristic.PestoWeights()
	train, held := selfplay(t, 3000, &w).Split(0.2)
	if len(train.Pos) != 2400 || len(held.Pos) != 600 {
		t.Fatalf("split 3000 by 0.2: %d and %d", len(train.Pos), len(held.Pos))
	}
	theta := Theta(&w)
	k := train.FitK(theta)
	for _, dk := range []float64{-0.05, 0.05} {
		if train.MSE(k+dk, theta) < train.MSE(k, theta) {
			t.Errorf("K %.4f: MSE %.6f, at K%+.2f lower: %.6f", k, train.MSE(k, theta), dk, train.MSE(k+dk, theta))
		}
	}
	before := train.MSE(k, theta)
	one := slices.Clone(theta)
	var progress bytes.Buffer
	if err := Fit(context.Background(), Config{Epochs: 20, LR: 1, Threads: 2, Progress: &progress, ProgressEvery: 10}, k, train, held, theta); err != nil {
		t.Fatal(err)
	}
	if err := Fit(context.Background(), Config{Epochs: 20, LR: 1, Threads: 1}, k, train, held, one); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one, theta) {
		t.Error("the fit with 1 thread differs from the fit with 2")
	}
	// Frozen parameters (the tables, as --tables=false) keep their values.
	start, frozen := Theta(&w), make([]bool, len(theta))
	terms := slices.Clone(start)
	for i, p := range w.Params() {
		frozen[i] = strings.HasPrefix(p.Name, "pst.")
	}
	if err := Fit(context.Background(), Config{Epochs: 5, LR: 1, Threads: 2, Frozen: frozen}, k, train, held, terms); err != nil {
		t.Fatal(err)
	}
	for i := range terms {
		if moved := terms[i] != start[i]; moved == frozen[i] && (frozen[i] || i == len(terms)-1) {
			t.Errorf("parameter %s (frozen %t): %v before, %v after", w.Params()[i].Name, frozen[i], start[i], terms[i])
		}
	}
	after := train.MSE(k, theta)
	if after >= before {
		t.Errorf("training MSE %.6f before the fit, %.6f after", before, after)
	}
	if !strings.Contains(progress.String(), "epoch 20/20") {
		t.Errorf("progress %q, expected epoch 20/20", progress.String())
	}
	SetWeights(&w, theta)
	src, err := GoSource(&w, []string{"a test"})
	if err != nil || !strings.Contains(string(src), "var tunedWeights = Weights{") {
		t.Fatalf("GoSource: %v; wrote %q", err, src)
	}
	// The linear model at the rounded weights and the engine's evaluation
	// with them (the positions traced again) differ only by the taper's
	// rounding.
	linear := train.MSE(k, Theta(&w))
	byEngine, _ := selfplay(t, 3000, &w).Split(0.2)
	if e := byEngine.MSE(k, Theta(&w)); abs(linear-e) > 1e-3 {
		t.Errorf("training MSE at the rounded weights: linear model %.6f, engine's evaluation %.6f", linear, e)
	}
}

func abs(x float64) float64 { return max(x, -x) }

// TestTunedIsGenerated checks that engines/heuristic/tuned.go is what
// GoSource writes for the weights it holds: generated, not edited by hand.
func TestTunedIsGenerated(t *testing.T) {
	file, err := os.ReadFile("../tuned.go")
	if err != nil {
		t.Fatal(err)
	}
	w := heuristic.TunedWeights()
	src, err := GoSource(&w, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := func(b []byte) string {
		s := string(b)
		return s[strings.Index(s, "var tunedWeights"):]
	}
	if !strings.Contains(string(file), "var tunedWeights") || body(file) != body(src) {
		t.Error("engines/heuristic/tuned.go is not GoSource's output for its weights: rerun arena train texel (docs/ablation.md)")
	}
}
