package mlp

import (
	"math"
	"math/rand/v2"
	"testing"

	"arena/engines/nn/gemm"
)

// lossFunc computes a loss of a batch's outputs and its output gradient.
type lossFunc func(out, grad []float32) float64

func mseTo(target []float32) lossFunc {
	return func(out, grad []float32) float64 { return MSE(out, target, grad) }
}

// checkGrad compares analytic gradients with central finite differences of
// f, which evaluates the loss: every element of params (perturbed in place)
// against grads. It returns how many elements it compared.
func checkGrad(t *testing.T, what string, params, grads []float32, f func() float64) int {
	t.Helper()
	const eps = 1e-3
	for i := range params {
		old := params[i]
		params[i] = old + eps
		up := f()
		params[i] = old - eps
		down := f()
		params[i] = old
		num := (up - down) / (2 * eps)
		ana := float64(grads[i])
		if math.Abs(num-ana) > 1e-3+2e-2*math.Abs(num) {
			t.Fatalf("%s: element %d: analytic gradient %v, finite difference %v", what, i, ana, num)
		}
	}
	return len(params)
}

// gradOf runs one forward and backward pass of m on in and returns the
// parameter and input gradients.
func gradOf(t *testing.T, m *Model, in []float32, n int, loss lossFunc) (grad, dIn []float32) {
	tape, err := m.NewTape(n, 2)
	if err != nil {
		t.Fatal(err)
	}
	out := tape.Forward(in, n)
	dOut := make([]float32, len(out))
	loss(out, dOut)
	grad = make([]float32, len(m.Params))
	dIn = make([]float32, len(in))
	tape.Backward(dOut, grad, dIn)
	return grad, dIn
}

func lossOf(t *testing.T, m *Model, in []float32, n int, loss lossFunc) func() float64 {
	tape, err := m.NewTape(n, 2)
	if err != nil {
		t.Fatal(err)
	}
	return func() float64 {
		out := tape.Forward(in, n)
		return loss(out, make([]float32, len(out)))
	}
}

// TestGradActivations checks parameter and input gradients for each
// activation in the hidden layers, under MSE.
func TestGradActivations(t *testing.T) {
	for _, act := range []Act{ReLU, Tanh, Sigmoid, Identity} {
		arch := Arch{Name: "grad", Inputs: 6, Layers: []Dense{{5, act}, {4, act}, {3, act}}}
		m, err := New(arch, 11)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(act)))
		for i := range m.Params {
			m.Params[i] += float32(rng.NormFloat64() * 0.1)
		}
		const n = 5
		in := randInputs(rng, n*arch.Inputs)
		loss := mseTo(randInputs(rng, n*arch.Outputs()))
		grad, dIn := gradOf(t, m, in, n, loss)
		f := lossOf(t, m, in, n, loss)
		checkGrad(t, act.String()+" parameters", m.Params, grad, f)
		checkGrad(t, act.String()+" inputs", in, dIn, f)
	}
}

// TestGradLosses checks each loss's gradient through a net whose output
// layer suits it.
func TestGradLosses(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	const n = 6
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	probs := make([]float32, n*2)
	for i := range probs {
		probs[i] = rng.Float32()
	}
	for _, c := range []struct {
		name string
		out  Act
		loss lossFunc
	}{
		{"mse", Tanh, mseTo(randInputs(rng, n*2))},
		{"softmax-ce", Identity, func(out, grad []float32) float64 { return SoftmaxCE(out, labels, grad) }},
		{"sigmoid-bce", Identity, func(out, grad []float32) float64 { return SigmoidBCE(out, probs, grad) }},
	} {
		arch := Arch{Name: "grad", Inputs: 5, Layers: []Dense{{6, Tanh}, {2, c.out}}}
		m, err := New(arch, 4)
		if err != nil {
			t.Fatal(err)
		}
		in := randInputs(rng, n*arch.Inputs)
		grad, dIn := gradOf(t, m, in, n, c.loss)
		f := lossOf(t, m, in, n, c.loss)
		checkGrad(t, c.name+" parameters", m.Params, grad, f)
		checkGrad(t, c.name+" inputs", in, dIn, f)
	}
}

// TestGradGroups checks the grouped (block-diagonal) layers, with
// overlapping input ranges, every activation and two-layer groups.
func TestGradGroups(t *testing.T) {
	m, err := New(mixedArch(), 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	const n = 7
	in := randInputs(rng, n*m.Arch.Inputs)
	loss := mseTo(randInputs(rng, n*m.Arch.Outputs()))
	grad, dIn := gradOf(t, m, in, n, loss)
	f := lossOf(t, m, in, n, loss)
	checkGrad(t, "grouped parameters", m.Params, grad, f)
	checkGrad(t, "grouped inputs", in, dIn, f)
}

// siamese is DeepChess's composition in miniature: one sub-net applied to
// two batches of positions, a head on the two outputs side by side, trained
// with softmax cross-entropy.
type siamese struct {
	sub, head      *Model
	tapeA, tapeB   *Tape
	tapeH          *Tape
	cat, dOut, dIn []float32
}

func newSiamese(t testing.TB, sub, head *Model, batch, workers int) *siamese {
	s := &siamese{sub: sub, head: head}
	var err error
	for _, tp := range []**Tape{&s.tapeA, &s.tapeB} {
		if *tp, err = sub.NewTape(batch, workers); err != nil {
			t.Fatal(err)
		}
	}
	if s.tapeH, err = head.NewTape(batch, workers); err != nil {
		t.Fatal(err)
	}
	s.cat = make([]float32, batch*head.Arch.Inputs)
	s.dOut = make([]float32, batch*head.Arch.Outputs())
	s.dIn = make([]float32, batch*head.Arch.Inputs)
	return s
}

// step runs the pairs (a[i], b[i]) and, if gSub and gHead are not nil,
// adds the gradients; it returns the loss.
func (s *siamese) step(a, b []float32, labels []int, gSub, gHead []float32) float64 {
	n := len(labels)
	w := s.sub.Arch.Outputs()
	va, vb := s.tapeA.Forward(a, n), s.tapeB.Forward(b, n)
	for r := range n {
		copy(s.cat[2*w*r:], va[r*w:(r+1)*w])
		copy(s.cat[2*w*r+w:], vb[r*w:(r+1)*w])
	}
	out := s.tapeH.Forward(s.cat, n)
	loss := SoftmaxCE(out, labels, s.dOut)
	if gSub == nil {
		return loss
	}
	s.tapeH.Backward(s.dOut[:len(out)], gHead, s.dIn)
	dA, dB := make([]float32, n*w), make([]float32, n*w)
	for r := range n {
		copy(dA[r*w:(r+1)*w], s.dIn[2*w*r:])
		copy(dB[r*w:(r+1)*w], s.dIn[2*w*r+w:])
	}
	s.tapeA.Backward(dA, gSub, nil)
	s.tapeB.Backward(dB, gSub, nil)
	return loss
}

// TestGradSiamese checks that gradients flow back through both copies of
// the shared sub-net and add up.
func TestGradSiamese(t *testing.T) {
	sub, err := New(Arch{Name: "sub", Inputs: 7, Layers: []Dense{{6, ReLU}, {4, ReLU}}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	head, err := New(Arch{Name: "head", Inputs: 8, Layers: []Dense{{5, ReLU}, {2, Identity}}}, 6)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 7))
	const n = 6
	a, b := randInputs(rng, n*7), randInputs(rng, n*7)
	labels := []int{0, 1, 1, 0, 1, 0}
	s := newSiamese(t, sub, head, n, 2)
	gSub, gHead := make([]float32, len(sub.Params)), make([]float32, len(head.Params))
	s.step(a, b, labels, gSub, gHead)
	f := func() float64 { return s.step(a, b, labels, nil, nil) }
	checkGrad(t, "siamese head", head.Params, gHead, f)
	checkGrad(t, "siamese sub-net", sub.Params, gSub, f)
}

// TestGradKernelPaths checks that every kernel path's backward pass gives
// the portable path's gradients (to float32 rounding), with row counts
// that leave partial tiles, so the assembly training tiles are covered
// whatever path the machine defaults to.
func TestGradKernelPaths(t *testing.T) {
	m, err := New(mixedArch(), 8)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	const n = 11
	in := randInputs(rng, n*m.Arch.Inputs)
	target := randInputs(rng, n*m.Arch.Outputs())
	run := func(k *gemm.Kernels) (grad, dIn []float32) {
		tape := m.newTapeWith(k, n, 2)
		out := tape.Forward(in, n)
		dOut := make([]float32, len(out))
		MSE(out, target, dOut)
		grad, dIn = make([]float32, len(m.Params)), make([]float32, len(in))
		tape.Backward(dOut, grad, dIn)
		return grad, dIn
	}
	wantG, wantIn := run(gemm.Portable())
	for _, k := range gemm.Available() {
		g, di := run(k)
		for _, c := range []struct {
			what      string
			got, want []float32
		}{{"parameter", g, wantG}, {"input", di, wantIn}} {
			for i := range c.want {
				if d := math.Abs(float64(c.got[i] - c.want[i])); d > 1e-5*(1+math.Abs(float64(c.want[i]))) {
					t.Fatalf("kernel %s: %s gradient %d = %v, portable %v", k.Name, c.what, i, c.got[i], c.want[i])
				}
			}
		}
	}
}
