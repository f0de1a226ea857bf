package giraffe

import (
	"context"
	"math"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn/dataset"
	"arena/engines/nn/mlp"
	"arena/engines/nn/nets"
)

func shippedEvaluator(t *testing.T) *evaluator {
	t.Helper()
	net, err := LoadNet("")
	if err != nil {
		t.Fatal(err)
	}
	return newEvaluator(net)
}

// TestShippedNetKnowsMaterial: the shipped net, trained on Stockfish's
// scores, sees a queen more as a large advantage for either side, from the
// side to move's point of view.
func TestShippedNetKnowsMaterial(t *testing.T) {
	e := shippedEvaluator(t)
	for _, c := range []struct {
		fen  string
		sign int32 // of the side to move's score
	}{
		{"3qk3/8/8/8/8/8/8/4K3 w - - 0 1", -1},
		{"3qk3/8/8/8/8/8/8/4K3 b - - 0 1", 1},
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1},
		{"4k3/8/8/8/8/8/8/3QK3 b - - 0 1", -1},
	} {
		p, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if v := e.Evaluate(p); v*c.sign < 300 {
			t.Errorf("%s: %d cp for the side to move, expected at least 300 cp with sign %d", c.fen, v, c.sign)
		}
	}
}

// TestEvaluatorCache: a cached value is the net's value, and the side to
// move only flips the sign of White's value.
func TestEvaluatorCache(t *testing.T) {
	e := shippedEvaluator(t)
	fresh := shippedEvaluator(t)
	for _, fen := range []string{board.StartFEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"} {
		p, _ := board.ParseFEN(fen)
		first := e.Evaluate(p)
		if again := e.Evaluate(p); again != first || e.evals != 1 {
			t.Errorf("%s: %d then %d after %d net evaluations, expected one evaluation and the same value", fen, first, again, e.evals)
		}
		if v := fresh.Evaluate(p); v != first {
			t.Errorf("%s: cached %d, another evaluator %d", fen, first, v)
		}
		e.evals = 0
	}
	// The same placement with the other side to move: the net's input
	// differs in the side-to-move feature, so only the sign convention is
	// checked: White's value is what a White-to-move evaluation returns.
	p, _ := board.ParseFEN("4k3/8/8/8/8/8/8/3QK3 b - - 0 1")
	e.ev.Forward(e.x.Features(p, e.in), e.out[:])
	if white, v := e.out[0], e.Evaluate(p); (white > 0) == (v > 0) {
		t.Errorf("Black to move: net value %v for White, evaluation %d for Black, expected opposite signs", white, v)
	}
}

func TestLoadNetErrors(t *testing.T) {
	if _, err := LoadNet(nets.Prefix + "selfplay"); err == nil || !strings.Contains(err.Error(), "builtin:giraffe") {
		t.Errorf("a ValueNet name: error %v, expected one naming builtin:giraffe", err)
	}
	other := Arch
	other.Name = "giraffe-0"
	m, err := mlp.New(other, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "other.safetensors")
	if err := m.Save(path, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNet(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "giraffe-1") {
		t.Errorf("another architecture: error %v, expected one naming the path and giraffe-1", err)
	}
	if _, err := engines.New(Name, map[string]string{optModel: filepath.Join(t.TempDir(), "none.safetensors")}); err == nil {
		t.Error("a missing model file: no error")
	}
}

func heldout(t *testing.T) []dataset.Record {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	recs, err := dataset.ReadFile(filepath.Join(filepath.Dir(file), "..", "nn", "nets", "testdata", "heldout.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestTrainLearns trains a fresh net on Stockfish-labelled positions for a
// few epochs: the validation loss of the best epoch must fall well below
// the untrained net's and the training must be reproducible.
func TestTrainLearns(t *testing.T) {
	recs := heldout(t)
	cfg := TrainConfig{Records: recs, Epochs: 1, Batch: 32, LR: 1e-3, ValFraction: 0.2, Seed: 5, Workers: 2}
	// One epoch at a learning rate of ~0 measures the untrained net.
	cfg.LR = 1e-12
	start, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.LR, cfg.Epochs = 1e-3, 8
	a, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.ValLoss > start.ValLoss*0.8 {
		t.Errorf("validation MSE %.4f untrained, %.4f after training; expected a fifth less at least", start.ValLoss, a.ValLoss)
	}
	b, _ := Train(context.Background(), cfg)
	if b.ValLoss != a.ValLoss || b.BestEpoch != a.BestEpoch {
		t.Errorf("two runs: %v (epoch %d) and %v (epoch %d)", a.ValLoss, a.BestEpoch, b.ValLoss, b.BestEpoch)
	}
	t.Logf("validation MSE %.4f -> %.4f (epoch %d)", start.ValLoss, a.ValLoss, a.BestEpoch)
	if _, err := Train(context.Background(), TrainConfig{Records: recs[:10], Epochs: 1, Batch: 32, LR: 1e-3, ValFraction: 0.1}); err == nil {
		t.Error("10 positions for a batch of 32: no error")
	}
}

func TestTarget(t *testing.T) {
	for _, c := range []struct {
		r    dataset.Record
		want float32
	}{
		{dataset.Record{CP: 0}, 0},
		{dataset.Record{CP: 100000, Mate: 3, HasMate: true}, 1},
		{dataset.Record{CP: -99990, Mate: -2, HasMate: true}, -1},
		{dataset.Record{CP: 298}, 0.5},
	} {
		if got := Target(c.r); got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("%+v: target %v, expected %v", c.r, got, c.want)
		}
	}
}

// TestShippedNetRanksLikeStockfish: the shipped net's values on the
// held-out positions of engines/nn/nets/testdata (Stockfish depth 10, other
// games than the training data's; 13 of the 599 opening positions also
// occur in it) rank the positions as Stockfish's scores do.
func TestShippedNetRanksLikeStockfish(t *testing.T) {
	recs := heldout(t)
	e := shippedEvaluator(t)
	net, sf := make([]float64, len(recs)), make([]float64, len(recs))
	var mse float64
	for i, r := range recs {
		p, err := board.ParseFEN(r.FEN)
		if err != nil {
			t.Fatal(err)
		}
		e.ev.Forward(e.x.Features(p, e.in), e.out[:])
		net[i], sf[i] = float64(e.out[0]), float64(r.CP)
		d := float64(e.out[0] - Target(r))
		mse += d * d
	}
	rho := spearman(net, sf)
	t.Logf("%d held-out positions: Spearman %.3f, MSE %.4f", len(recs), rho, mse/float64(len(recs)))
	if rho < 0.8 {
		t.Errorf("Spearman rank correlation with Stockfish %.3f, expected at least 0.8", rho)
	}
}

// spearman is the rank correlation of a and b (ties get their mean rank).
func spearman(a, b []float64) float64 {
	ra, rb := ranks(a), ranks(b)
	var ma, mb float64
	for i := range ra {
		ma, mb = ma+ra[i], mb+rb[i]
	}
	ma, mb = ma/float64(len(ra)), mb/float64(len(rb))
	var cov, va, vb float64
	for i := range ra {
		cov += (ra[i] - ma) * (rb[i] - mb)
		va += (ra[i] - ma) * (ra[i] - ma)
		vb += (rb[i] - mb) * (rb[i] - mb)
	}
	return cov / math.Sqrt(va*vb)
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return v[idx[i]] < v[idx[j]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

// BenchmarkEvaluate is one uncached evaluation: features and the net.
func BenchmarkEvaluate(b *testing.B) {
	net, err := LoadNet("")
	if err != nil {
		b.Fatal(err)
	}
	e := newEvaluator(net)
	p, _ := board.ParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8")
	for b.Loop() {
		e.ev.Forward(e.x.Features(p, e.in), e.out[:])
	}
}

func TestMirrorFEN(t *testing.T) {
	for _, c := range [][2]string{
		{board.StartFEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"},
		{"r3k2r/8/8/3pP3/8/8/8/R3K3 w Qk d6 0 3", "r3k3/8/8/8/3Pp3/8/8/R3K2R b Kq d3 0 3"},
		{"4k3/8/8/8/8/8/8/4K3 b - - 5 9", "4k3/8/8/8/8/8/8/4K3 w - - 5 9"},
	} {
		if got := MirrorFEN(c[0]); got != c[1] {
			t.Errorf("MirrorFEN(%q) = %q, expected %q", c[0], got, c[1])
		}
		if _, err := board.ParseFEN(MirrorFEN(c[0])); err != nil {
			t.Error(err)
		}
	}
}

func shippedFile(t *testing.T) []byte {
	t.Helper()
	return nets.GiraffeFile()
}
