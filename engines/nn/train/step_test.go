package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nn/gemm"
)

// randomBoards plays random games and returns n of their positions.
func randomBoards(t testing.TB, n int, seed uint64) []nn.Placement {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []nn.Placement
	var ml board.MoveList
	for len(out) < n {
		p := board.NewPosition()
		for ply := 0; ply < 60 && len(out) < n; ply++ {
			p.GenerateLegal(&ml)
			if ml.Len == 0 {
				break
			}
			p.MakeMove(ml.Moves[rng.IntN(ml.Len)])
			if ply%3 == 2 {
				pl, err := nn.ParsePlacement(p.FEN())
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, pl)
			}
		}
	}
	return out
}

// TestEvalForwardMatchesInference checks the training layout (tap order,
// flatten permutation, BatchNorm) against the inference package: in eval
// mode the training forward pass must give nn's values for the exported
// weights.
func TestEvalForwardMatchesInference(t *testing.T) {
	m := NewModel(7)
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range m.convs[:3] {
		c := &m.convs[i]
		for o := range c.cout {
			c.runMean[o] = rng.Float32()*0.2 - 0.1
			c.runVar[o] = 0.5 + rng.Float32()
			c.gamma[o] = 0.5 + rng.Float32()
			c.beta[o] = rng.Float32()*0.2 - 0.1
		}
	}
	boards := randomBoards(t, 16, 1)
	net, err := nn.New(m.Weights())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range gemm.Available() {
		ws := newWorkspace(16, 2, k)
		ws.load(boards)
		ws.forward(m, false)
		for i, pl := range boards {
			var in nn.Input
			in.SetPlacement(&pl)
			want := net.Evaluate(&in)
			if math.Abs(float64(ws.v[i]-want)) > 1e-4 {
				t.Fatalf("%s: position %d: training forward %v, nn inference %v", k.Name, i, ws.v[i], want)
			}
		}
	}
	// Weights round trip.
	back, err := FromWeights(m.Weights())
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range m.params {
		if back.params[i] != v {
			t.Fatalf("param %d: %v after export and import, was %v", i, back.params[i], v)
		}
	}
}

// refLoss is the training-mode loss computed naively in float64 from m's
// parameters: the reference the float32 backward pass is checked against.
func refLoss(m *Model, boards []nn.Placement, targets []float32) float64 {
	nb := len(boards)
	// x[b][square][channel], square = y*8 + x.
	x := make([][]float64, nb)
	ws := newWorkspace(8, 1, gemm.Portable())
	for b := range boards {
		ws.load(boards[b : b+1])
		x[b] = make([]float64, 64*inPlanes)
		for s := range 64 {
			for c := range inPlanes {
				x[b][s*inPlanes+c] = float64(ws.x[0][paddedRow(0, s/8, s%8)*inPlanes+c])
			}
		}
	}
	for l := range m.convs {
		c := &m.convs[l]
		z := make([][]float64, nb)
		for b := range nb {
			z[b] = make([]float64, 64*c.cout)
			for s := range 64 {
				y0, x0 := s/8, s%8
				out := z[b][s*c.cout : (s+1)*c.cout]
				for o := range out {
					out[o] = float64(c.b[o])
				}
				for t := range c.taps {
					yy, xx := y0, x0
					if c.taps == 9 {
						yy, xx = y0+t/3-1, x0+t%3-1
					}
					if yy < 0 || yy > 7 || xx < 0 || xx > 7 {
						continue
					}
					for ci := range c.cin {
						v := x[b][(yy*8+xx)*c.cin+ci]
						if v == 0 {
							continue
						}
						w := c.w[(t*c.cin+ci)*c.cout:][:c.cout]
						for o := range out {
							out[o] += v * float64(w[o])
						}
					}
				}
			}
		}
		if c.bn != "" {
			n := float64(nb * 64)
			for o := range c.cout {
				var mean, sq float64
				for b := range nb {
					for s := range 64 {
						mean += z[b][s*c.cout+o]
					}
				}
				mean /= n
				for b := range nb {
					for s := range 64 {
						d := z[b][s*c.cout+o] - mean
						sq += d * d
					}
				}
				inv := 1 / math.Sqrt(sq/n+bnEps)
				for b := range nb {
					for s := range 64 {
						i := s*c.cout + o
						z[b][i] = (z[b][i]-mean)*inv*float64(c.gamma[o]) + float64(c.beta[o])
					}
				}
			}
		}
		for b := range nb {
			for i, v := range z[b] {
				z[b][i] = max(0, v)
			}
		}
		x = z
	}
	var loss float64
	for b := range nb {
		v := float64(m.lin2B[0])
		for j := range hidden {
			h := float64(m.lin1B[j])
			for k, f := range x[b] {
				h += f * float64(m.lin1W[k*hidden+j])
			}
			v += max(0, h) * float64(m.lin2W[j])
		}
		d := math.Tanh(v) - float64(targets[b])
		loss += d * d
	}
	return loss / float64(nb)
}

// gradients is the float32 backward pass of m on one batch with kernels k;
// the loss must be want, the float64 reference.
func gradients(t *testing.T, k *gemm.Kernels, m *Model, boards []nn.Placement, targets []float32, want float64) []float32 {
	ws := newWorkspace(len(boards), 2, k)
	ws.load(boards)
	ws.forward(m.Clone(), true)
	if got := ws.loss(targets); math.Abs(got-want) > 1e-5 {
		t.Fatalf("%s: training loss %v, float64 reference %v", k.Name, got, want)
	}
	ws.backward(m)
	return append([]float32(nil), ws.grads...)
}

// TestGradients compares every parameter tensor's gradient (float32
// backward pass, every kernel path) with central finite differences of the
// float64 reference loss along a random direction: (L(p + eps d) - L(p -
// eps d)) / 2 eps against g . d.
func TestGradients(t *testing.T) {
	const batch = 8
	m := NewModel(11)
	boards := randomBoards(t, batch, 2)
	rng := rand.New(rand.NewPCG(12, 13))
	targets := make([]float32, batch)
	for i := range targets {
		targets[i] = rng.Float32()*1.6 - 0.8
	}
	paths := gemm.Available()
	type tensor struct {
		name string
		p    []float32
		g    [][]float32 // per path
	}
	gms := make([]*Model, len(paths))
	loss := refLoss(m, boards, targets)
	for i, k := range paths {
		gms[i] = shape()
		gms[i].bind(gradients(t, k, m, boards, targets, loss))
	}
	grads := func(f func(gm *Model) []float32) [][]float32 {
		out := make([][]float32, len(gms))
		for i, gm := range gms {
			out[i] = f(gm)
		}
		return out
	}
	var tensors []tensor
	for i := range m.convs {
		c := &m.convs[i]
		tensors = append(tensors, tensor{c.name + ".weight", c.w, grads(func(gm *Model) []float32 { return gm.convs[i].w })},
			tensor{c.name + ".bias", c.b, grads(func(gm *Model) []float32 { return gm.convs[i].b })})
		if c.bn != "" {
			tensors = append(tensors, tensor{c.bn + ".weight", c.gamma, grads(func(gm *Model) []float32 { return gm.convs[i].gamma })},
				tensor{c.bn + ".bias", c.beta, grads(func(gm *Model) []float32 { return gm.convs[i].beta })})
		}
	}
	tensors = append(tensors,
		tensor{"head.1.weight", m.lin1W, grads(func(gm *Model) []float32 { return gm.lin1W })},
		tensor{"head.1.bias", m.lin1B, grads(func(gm *Model) []float32 { return gm.lin1B })},
		tensor{"head.3.weight", m.lin2W, grads(func(gm *Model) []float32 { return gm.lin2W })},
		tensor{"head.3.bias", m.lin2B, grads(func(gm *Model) []float32 { return gm.lin2B })})
	for _, tn := range tensors {
		d := make([]float64, len(tn.p))
		for i := range d {
			if tn.name == "body.0.weight" && (i/64)%inPlanes >= nn.Planes {
				continue // the padding input channels are always zero
			}
			d[i] = rng.Float64()*2 - 1
		}
		orig := append([]float32(nil), tn.p...)
		// The reference reads float32 parameters, so the step must move
		// them well beyond float32 rounding while staying small enough for
		// few ReLUs to change sides.
		const eps = 1e-4
		shift := func(s float64) {
			for i := range tn.p {
				tn.p[i] = float32(float64(orig[i]) + s*d[i]*math.Max(1e-2, math.Abs(float64(orig[i]))))
			}
		}
		shift(eps)
		up := refLoss(m, boards, targets)
		shift(-eps)
		down := refLoss(m, boards, targets)
		copy(tn.p, orig)
		numeric := (up - down) / (2 * eps)
		// 3%: a few ReLUs change sides; 1e-7: the biases before a
		// BatchNorm have no effect (their exact gradient is 0).
		for pi, g := range tn.g {
			var scaledDot float64
			for i := range d {
				scaledDot += d[i] * math.Max(1e-2, math.Abs(float64(orig[i]))) * float64(g[i])
			}
			tol := 0.03*math.Abs(scaledDot) + 1e-7
			if math.Abs(numeric-scaledDot) > tol {
				t.Errorf("%s, kernel %s: backward gives %.6g along the direction, finite differences %.6g", tn.name, paths[pi].Name, scaledDot, numeric)
			} else {
				t.Logf("%s, kernel %s: backward %.6g, finite differences %.6g", tn.name, paths[pi].Name, scaledDot, numeric)
			}
		}
	}
}
