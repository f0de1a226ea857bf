package train

import (
	"math"
	"math/rand/v2"
	"testing"

	"arena/engines/board"
	"arena/engines/nn"
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

func TestKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const lda, k, ldb, ldc = 40, 37, 70, 50
	a := make([]float32, 2000)
	b := make([]float32, 3*k*ldb)
	for i := range a {
		a[i] = rng.Float32()*2 - 1
	}
	for i := range b {
		b[i] = rng.Float32()*2 - 1
	}
	aoff := []int{5, 300, 17}
	for _, acc := range []bool{false, true} {
		want := make([]float32, 8*ldc)
		got := make([]float32, 8*ldc)
		for i := range want {
			want[i] = float32(i)
			got[i] = float32(i)
		}
		gemmTileGo(a, aoff, lda, k, b[3:], ldb, want, ldc, acc)
		gemmTile(a, aoff, lda, k, b[3:], ldb, got, ldc, acc)
		// Direct float64 reference.
		for i := range 8 {
			for j := range 32 {
				ref := 0.0
				if acc {
					ref = float64(i*ldc + j)
				}
				for tp, o := range aoff {
					for kk := range k {
						ref += float64(a[o+i*lda+kk]) * float64(b[3+(tp*k+kk)*ldb+j])
					}
				}
				for name, v := range map[string]float32{"go": want[i*ldc+j], kernelName: got[i*ldc+j]} {
					if math.Abs(float64(v)-ref) > 1e-4*math.Max(1, math.Abs(ref)) {
						t.Fatalf("acc=%v %s kernel c[%d][%d] = %v, float64 reference %v", acc, name, i, j, v, ref)
					}
				}
			}
		}
		for j := 32; j < ldc; j++ { // columns beyond the tile untouched
			if got[j] != float32(j) {
				t.Fatalf("%s kernel wrote c[0][%d]", kernelName, j)
			}
		}
	}
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
	ws := newWorkspace(16, 2)
	ws.load(boards)
	ws.forward(m, false)
	net, err := nn.New(m.Weights())
	if err != nil {
		t.Fatal(err)
	}
	for i, pl := range boards {
		var in nn.Input
		in.SetPlacement(&pl)
		want := net.Evaluate(&in)
		if math.Abs(float64(ws.v[i]-want)) > 1e-4 {
			t.Fatalf("position %d: training forward %v, nn inference %v", i, ws.v[i], want)
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
	ws := newWorkspace(8, 1)
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

// TestGradients compares every parameter tensor's gradient (float32
// backward pass) with central finite differences of the float64 reference
// loss along a random direction: (L(p + eps d) - L(p - eps d)) / 2 eps
// against g . d.
func TestGradients(t *testing.T) {
	const batch = 8
	m := NewModel(11)
	boards := randomBoards(t, batch, 2)
	rng := rand.New(rand.NewPCG(12, 13))
	targets := make([]float32, batch)
	for i := range targets {
		targets[i] = rng.Float32()*1.6 - 0.8
	}
	ws := newWorkspace(batch, 2)
	ws.load(boards)
	ws.forward(m.Clone(), true)
	if got, want := ws.loss(targets), refLoss(m, boards, targets); math.Abs(got-want) > 1e-5 {
		t.Fatalf("training loss %v, float64 reference %v", got, want)
	}
	ws.backward(m)
	grads := append([]float32(nil), ws.grads...)

	type tensor struct {
		name string
		p, g []float32
	}
	gm := shape()
	gm.bind(grads)
	var tensors []tensor
	for i := range m.convs {
		c, gc := &m.convs[i], &gm.convs[i]
		tensors = append(tensors, tensor{c.name + ".weight", c.w, gc.w}, tensor{c.name + ".bias", c.b, gc.b})
		if c.bn != "" {
			tensors = append(tensors, tensor{c.bn + ".weight", c.gamma, gc.gamma}, tensor{c.bn + ".bias", c.beta, gc.beta})
		}
	}
	tensors = append(tensors, tensor{"head.1.weight", m.lin1W, gm.lin1W}, tensor{"head.1.bias", m.lin1B, gm.lin1B},
		tensor{"head.3.weight", m.lin2W, gm.lin2W}, tensor{"head.3.bias", m.lin2B, gm.lin2B})
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
		var scaledDot float64
		for i := range d {
			scaledDot += d[i] * math.Max(1e-2, math.Abs(float64(orig[i]))) * float64(tn.g[i])
		}
		shift(eps)
		up := refLoss(m, boards, targets)
		shift(-eps)
		down := refLoss(m, boards, targets)
		copy(tn.p, orig)
		numeric := (up - down) / (2 * eps)
		// 3%: a few ReLUs change sides; 1e-7: the biases before a
		// BatchNorm have no effect (their exact gradient is 0).
		tol := 0.03*math.Abs(scaledDot) + 1e-7
		if math.Abs(numeric-scaledDot) > tol {
			t.Errorf("%s: backward gives %.6g along the direction, finite differences %.6g", tn.name, scaledDot, numeric)
		} else {
			t.Logf("%s: backward %.6g, finite differences %.6g", tn.name, scaledDot, numeric)
		}
	}
}
