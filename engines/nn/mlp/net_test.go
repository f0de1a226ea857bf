package mlp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"arena/engines/nn/gemm"
)

// Architectures of the two engines' shapes, as the benchmarks and tests
// use them: Giraffe's 363 features in three groups (global, piece-centric,
// square-centric) into a fully connected top, DeepChess's Pos2Vec and its
// comparison head.
func giraffeArch() Arch {
	return Arch{Name: "giraffe-test", Inputs: 363,
		Groups: []Group{
			{From: 0, To: 23, Layers: []Dense{{32, ReLU}}},
			{From: 23, To: 235, Layers: []Dense{{256, ReLU}}},
			{From: 235, To: 363, Layers: []Dense{{128, ReLU}}},
		},
		Layers: []Dense{{64, ReLU}, {1, Tanh}}}
}

func pos2vecArch() Arch {
	return Arch{Name: "pos2vec-test", Inputs: 773, Layers: []Dense{{600, ReLU}, {400, ReLU}, {200, ReLU}, {100, ReLU}}}
}

func headArch() Arch {
	return Arch{Name: "deepchess-head-test", Inputs: 200, Layers: []Dense{{400, ReLU}, {200, ReLU}, {100, ReLU}, {2, Identity}}}
}

// mixedArch has every activation, two-layer groups, overlapping group
// ranges and odd widths, to exercise the packing.
func mixedArch() Arch {
	return Arch{Name: "mixed-test", Inputs: 13,
		Groups: []Group{
			{From: 0, To: 5, Layers: []Dense{{7, Tanh}, {3, ReLU}}},
			{From: 4, To: 13, Layers: []Dense{{5, Sigmoid}}},
		},
		Layers: []Dense{{9, ReLU}, {6, Identity}, {3, Sigmoid}, {2, Tanh}}}
}

func randInputs(rng *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = rng.Float32()*2 - 1
	}
	return x
}

// reference evaluates one position straight from the Model's PyTorch-layout
// parameters, in float64.
func reference(m *Model, in []float32) []float64 {
	run := func(ls []Layer, x []float64) []float64 {
		for _, l := range ls {
			y := make([]float64, l.Out)
			for o := range l.Out {
				z := float64(l.B[o])
				for i, v := range x {
					z += float64(l.W[o*l.In+i]) * v
				}
				y[o] = act64(l.Act, z)
			}
			x = y
		}
		return x
	}
	var trunkIn []float64
	if len(m.Arch.Groups) == 0 {
		for _, v := range in {
			trunkIn = append(trunkIn, float64(v))
		}
	}
	for g, gr := range m.Arch.Groups {
		var x []float64
		for _, v := range in[gr.From:gr.To] {
			x = append(x, float64(v))
		}
		trunkIn = append(trunkIn, run(m.stacks[g], x)...)
	}
	return run(m.stacks[len(m.stacks)-1], trunkIn)
}

func act64(a Act, z float64) float64 {
	switch a {
	case ReLU:
		return max(z, 0)
	case Tanh:
		return math.Tanh(z)
	case Sigmoid:
		return 1 / (1 + math.Exp(-z))
	}
	return z
}

// TestForwardMatchesReference checks every kernel path's packed net
// against the float64 reference, and that batches of every size give
// bit for bit the one-position results (37 positions through an evaluator
// of 16: whole tiles, row-kernel remainders and several passes).
func TestForwardMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, arch := range []Arch{mixedArch(), giraffeArch(), headArch()} {
		m, err := New(arch, 7)
		if err != nil {
			t.Fatal(err)
		}
		for i := range m.Params { // non-zero biases too
			m.Params[i] += float32(rng.NormFloat64() * 0.05)
		}
		const n = 37
		in := randInputs(rng, n*arch.Inputs)
		nout := arch.Outputs()
		for _, k := range gemm.Available() {
			net := m.compileWith(k)
			batch := make([]float32, n*nout)
			net.NewEvaluator(16).ForwardBatch(in, n, batch)
			one := net.NewEvaluator(1)
			for p := range n {
				got := make([]float32, nout)
				one.Forward(in[p*arch.Inputs:(p+1)*arch.Inputs], got)
				want := reference(m, in[p*arch.Inputs:(p+1)*arch.Inputs])
				for o, v := range got {
					if d := math.Abs(float64(v) - want[o]); d > 1e-4*(1+math.Abs(want[o])) {
						t.Fatalf("%s, kernel %s: position %d output %d = %v, reference %v", arch.Name, k.Name, p, o, v, want[o])
					}
					if batch[p*nout+o] != v {
						t.Fatalf("%s, kernel %s: position %d output %d: batch %v, one at a time %v", arch.Name, k.Name, p, o, batch[p*nout+o], v)
					}
				}
			}
		}
	}
}

// TestCompileCopies checks that a Net does not see later changes to its
// Model (a trainer keeps training while an engine plays with a snapshot).
func TestCompileCopies(t *testing.T) {
	m, err := New(mixedArch(), 1)
	if err != nil {
		t.Fatal(err)
	}
	net, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	in := randInputs(rand.New(rand.NewPCG(1, 1)), m.Arch.Inputs)
	var before, after [2]float32
	ev := net.NewEvaluator(1)
	ev.Forward(in, before[:])
	for i := range m.Params {
		m.Params[i] = 0
	}
	ev.Forward(in, after[:])
	if before == [2]float32{} || before != after {
		t.Fatalf("outputs changed from %v to %v after the model was zeroed", before, after)
	}
}

func TestArchValidate(t *testing.T) {
	bad := []struct {
		arch Arch
		want string
	}{
		{Arch{Inputs: 3, Layers: []Dense{{1, ReLU}}}, "no name"},
		{Arch{Name: "x", Inputs: 0, Layers: []Dense{{1, ReLU}}}, "0 inputs"},
		{Arch{Name: "x", Inputs: 3}, "no trunk layers"},
		{Arch{Name: "x", Inputs: 3, Layers: []Dense{{0, ReLU}}}, "layer 0 has 0 outputs"},
		{Arch{Name: "x", Inputs: 3, Layers: []Dense{{2, Act(9)}}}, "unknown activation"},
		{Arch{Name: "x", Inputs: 3, Groups: []Group{{From: 2, To: 4, Layers: []Dense{{1, ReLU}}}}, Layers: []Dense{{1, ReLU}}}, "group 0 covers inputs [2, 4)"},
		{Arch{Name: "x", Inputs: 3, Groups: []Group{{From: 0, To: 2}}, Layers: []Dense{{1, ReLU}}}, "group 0 has no layers"},
	}
	for _, b := range bad {
		if _, err := New(b.arch, 1); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("New(%+v): error %v, want one containing %q", b.arch, err, b.want)
		}
	}
	g := giraffeArch()
	if got := g.MultiplyAdds(); got != 23*32+212*256+128*128+416*64+64 {
		t.Errorf("giraffe MultiplyAdds = %d", got)
	}
}
