package mlp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"arena/engines/nn/optim"
)

// toyBatch draws inputs in [-1, 1]^3 and the target
// sin(2 x0) x1 + x2^2 - 0.3.
func toyBatch(rng *rand.Rand, n int) (in, target []float32) {
	in = randInputs(rng, n*3)
	target = make([]float32, n)
	for r := range n {
		x := in[r*3 : r*3+3]
		target[r] = float32(math.Sin(2*float64(x[0]))*float64(x[1]) + float64(x[2]*x[2]) - 0.3)
	}
	return in, target
}

// trainToy fits the toy function with Adam and returns the model and the
// MSE on fresh held-out data, before and after.
func trainToy(t *testing.T, seed uint64, workers, steps int) (*Model, float64, float64) {
	arch := Arch{Name: "toy", Inputs: 3, Layers: []Dense{{32, ReLU}, {32, Tanh}, {1, Identity}}}
	m, err := New(arch, seed)
	if err != nil {
		t.Fatal(err)
	}
	const batch = 64
	tape, err := m.NewTape(batch, workers)
	if err != nil {
		t.Fatal(err)
	}
	opt := optim.NewAdam(len(m.Params), 3e-3)
	grad := make([]float32, len(m.Params))
	dOut := make([]float32, batch)
	heldIn, heldTarget := toyBatch(rand.New(rand.NewPCG(99, 99)), 512)
	held := func() float64 {
		net, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float32, len(heldTarget))
		net.NewEvaluator(64).ForwardBatch(heldIn, len(heldTarget), out)
		return MSE(out, heldTarget, make([]float32, len(out)))
	}
	before := held()
	rng := rand.New(rand.NewPCG(seed, 1))
	for range steps {
		in, target := toyBatch(rng, batch)
		out := tape.Forward(in, batch)
		MSE(out, target, dOut)
		clear(grad)
		tape.Backward(dOut, grad, nil)
		opt.Update(m.Params, grad, tape.Parallel)
	}
	return m, before, held()
}

// TestTrainToy checks that training learns: the held-out error of a
// function the net can represent falls below a tenth of the target's
// variance (about 0.2, what predicting the mean scores) and of the
// untrained net's.
func TestTrainToy(t *testing.T) {
	_, before, after := trainToy(t, 1, 2, 1500)
	if after > 0.017 || after > before/10 {
		t.Fatalf("held-out MSE %.4f before training, %.4f after; want below 0.017 and a tenth of the start", before, after)
	}
	t.Logf("held-out MSE %.4f -> %.4f", before, after)
}

// TestTrainDeterministic checks that a seed and worker count fix the
// weights bit for bit, and that the seed matters.
func TestTrainDeterministic(t *testing.T) {
	a, _, _ := trainToy(t, 3, 2, 20)
	b, _, _ := trainToy(t, 3, 2, 20)
	c, _, _ := trainToy(t, 4, 2, 20)
	if !slices.Equal(a.Params, b.Params) {
		t.Fatal("two runs with the same seed and workers differ")
	}
	if slices.Equal(a.Params, c.Params) {
		t.Fatal("runs with different seeds gave the same weights")
	}
}

// TestTrainSiamese trains the Siamese composition to tell which of two
// positions has the larger feature sum (labels as DeepChess: class 0 when
// the first is better), through both copies of the shared sub-net.
func TestTrainSiamese(t *testing.T) {
	sub, err := New(Arch{Name: "sub", Inputs: 8, Layers: []Dense{{16, ReLU}, {8, ReLU}}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	head, err := New(Arch{Name: "head", Inputs: 16, Layers: []Dense{{16, ReLU}, {2, Identity}}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	const batch = 64
	s := newSiamese(t, sub, head, batch, 2)
	optSub, optHead := optim.NewAdam(len(sub.Params), 3e-3), optim.NewAdam(len(head.Params), 3e-3)
	gSub, gHead := make([]float32, len(sub.Params)), make([]float32, len(head.Params))
	rng := rand.New(rand.NewPCG(8, 9))
	pairs := func() ([]float32, []float32, []int) {
		a, b := randInputs(rng, batch*8), randInputs(rng, batch*8)
		labels := make([]int, batch)
		for r := range batch {
			var sa, sb float32
			for i := range 8 {
				sa, sb = sa+a[r*8+i], sb+b[r*8+i]
			}
			if sa < sb {
				labels[r] = 1
			}
		}
		return a, b, labels
	}
	for range 600 {
		a, b, labels := pairs()
		clear(gSub)
		clear(gHead)
		s.step(a, b, labels, gSub, gHead)
		optSub.Update(sub.Params, gSub, s.tapeA.Parallel)
		optHead.Update(head.Params, gHead, s.tapeH.Parallel)
	}
	right, total := 0, 0
	for range 8 {
		a, b, labels := pairs()
		s.step(a, b, labels, nil, nil)
		out := s.tapeH.out
		for r, l := range labels {
			pred := 0
			if out[2*r+1] > out[2*r] {
				pred = 1
			}
			if pred == l {
				right++
			}
			total++
		}
	}
	if acc := float64(right) / float64(total); acc < 0.93 {
		t.Fatalf("held-out comparison accuracy %.3f, want >= 0.93 (chance is 0.5)", acc)
	} else {
		t.Logf("held-out comparison accuracy %.3f", acc)
	}
}
