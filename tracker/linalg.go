package tracker

import (
	"errors"
	"math"
	"slices"
)

// Dense linear algebra for the ratings fit. Tournaments have a handful of
// players, so plain Gauss-Jordan on [][]float64 is enough and keeps the
// tracker free of a BLAS dependency.

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// solve returns x with m·x = b (Gaussian elimination, partial pivoting).
func solve(m [][]float64, b []float64) ([]float64, error) {
	n := len(b)
	a := newMatrix(n)
	for i := range a {
		a[i] = append(slices.Clone(m[i]), b[i])
	}
	if err := eliminate(a); err != nil {
		return nil, err
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n]
	}
	return x, nil
}

// invert returns m⁻¹.
func invert(m [][]float64) ([][]float64, error) {
	n := len(m)
	a := newMatrix(n)
	for i := range a {
		a[i] = append(slices.Clone(m[i]), make([]float64, n)...)
		a[i][n+i] = 1
	}
	if err := eliminate(a); err != nil {
		return nil, err
	}
	inv := newMatrix(n)
	for i := range inv {
		copy(inv[i], a[i][n:])
	}
	return inv, nil
}

// eliminate reduces the augmented matrix a (n rows) to [I | m⁻¹·rest] by
// Gauss-Jordan elimination with partial pivoting.
func eliminate(a [][]float64) error {
	n := len(a)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-300 {
			return errors.New("singular information matrix (the games do not determine the ratings)")
		}
		a[c], a[p] = a[p], a[c]
		pivot := a[c][c]
		for k := range a[c] {
			a[c][k] /= pivot
		}
		for r := range n {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c]
			for k := range a[r] {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	return nil
}

func mul(x, y [][]float64) [][]float64 {
	n := len(x)
	out := newMatrix(n)
	for i := range n {
		for k := range n {
			if x[i][k] == 0 {
				continue
			}
			for j := range n {
				out[i][j] += x[i][k] * y[k][j]
			}
		}
	}
	return out
}
