package train

import "math"

// adam is PyTorch's torch.optim.Adam (no weight decay, no amsgrad) over one
// parameter vector.
type adam struct {
	lr, beta1, beta2, eps float64
	step                  int
	m, v                  []float32
}

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8, m: make([]float32, n), v: make([]float32, n)}
}

// update applies one step of gradients g to params p, the elements split
// over par (each element's update is independent, so the split does not
// change the result).
func (a *adam) update(p, g []float32, par func(n int, f func(w, lo, hi int))) {
	a.step++
	c1 := 1 - math.Pow(a.beta1, float64(a.step))
	c2 := 1 - math.Pow(a.beta2, float64(a.step))
	b1, b2 := float32(a.beta1), float32(a.beta2)
	stepSize := float32(a.lr / c1)
	sqrtC2 := float32(math.Sqrt(c2))
	eps := float32(a.eps)
	par(len(g), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			gi := g[i]
			m := b1*a.m[i] + (1-b1)*gi
			v := b2*a.v[i] + (1-b2)*gi*gi
			a.m[i], a.v[i] = m, v
			p[i] -= stepSize * m / (float32(math.Sqrt(float64(v)))/sqrtC2 + eps)
		}
	})
}
