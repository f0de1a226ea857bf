// Package optim holds the optimiser shared by the trainers of the ValueNet
// (arena/engines/nn/train) and of the dense nets (arena/engines/nn/mlp).
package optim

import "math"

// Adam is PyTorch's torch.optim.Adam (no amsgrad) over one parameter
// vector, or torch.optim.AdamW when WeightDecay is set (decoupled decay:
// p -= LR*WeightDecay*p before the Adam step). LR may be changed between
// steps (a schedule).
type Adam struct {
	LR                float64
	WeightDecay       float64
	beta1, beta2, eps float64
	step              int
	m, v              []float32
}

// NewAdam returns Adam for n parameters with PyTorch's default betas and
// epsilon.
func NewAdam(n int, lr float64) *Adam {
	return &Adam{LR: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, m: make([]float32, n), v: make([]float32, n)}
}

// Serial runs f over [0, n) in the calling goroutine, for Update's par.
func Serial(n int, f func(w, lo, hi int)) { f(0, 0, n) }

// Update applies one step of gradients g to params p, the elements split
// over par (each element's update is independent, so the split does not
// change the result).
func (a *Adam) Update(p, g []float32, par func(n int, f func(w, lo, hi int))) {
	if len(p) != len(a.m) || len(g) != len(a.m) {
		panic("optim: Adam.Update: parameter or gradient length differs from NewAdam's")
	}
	a.step++
	c1 := 1 - math.Pow(a.beta1, float64(a.step))
	c2 := 1 - math.Pow(a.beta2, float64(a.step))
	b1, b2 := float32(a.beta1), float32(a.beta2)
	stepSize := float32(a.LR / c1)
	sqrtC2 := float32(math.Sqrt(c2))
	eps := float32(a.eps)
	decay := float32(1 - a.LR*a.WeightDecay)
	par(len(g), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			gi := g[i]
			m := b1*a.m[i] + (1-b1)*gi
			v := b2*a.v[i] + (1-b2)*gi*gi
			a.m[i], a.v[i] = m, v
			if decay != 1 {
				p[i] *= decay
			}
			p[i] -= stepSize * m / (float32(math.Sqrt(float64(v)))/sqrtC2 + eps)
		}
	})
}

// State returns the optimiser's state (steps taken, first and second
// moments; the slices are the optimiser's own), for a checkpoint.
func (a *Adam) State() (step int, m, v []float32) { return a.step, a.m, a.v }

// Restore sets the state State returned, so that a resumed run takes the
// same steps as an uninterrupted one.
func (a *Adam) Restore(step int, m, v []float32) {
	if len(m) != len(a.m) || len(v) != len(a.v) {
		panic("optim: Adam.Restore: state length differs from NewAdam's")
	}
	a.step = step
	copy(a.m, m)
	copy(a.v, v)
}
