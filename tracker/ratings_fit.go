package tracker

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// The Newton fit of FitRatings and its sandwich covariance: the numerical
// half of the ratings, apart from the bookkeeping of players and results.

// The fit stops when no rating moves by more than this (natural units,
// about 1e-8 Elo) or after maxNewton steps.
const (
	newtonTolerance = 1e-10
	maxNewton       = 200
)

// logLikelihood of the ratings over the games among the players in set
// (the anchor and free).
func logLikelihood(set []int, beta []float64, games, points [][]float64) float64 {
	ll := 0.0
	for x, i := range set {
		for _, j := range set[x+1:] {
			if games[i][j] == 0 {
				continue
			}
			d := beta[i] - beta[j]
			// ln p = -ln(1+e^-d), ln(1-p) = -ln(1+e^d), computed stably.
			ll -= points[i][j]*softplus(-d) + points[j][i]*softplus(d)
		}
	}
	return ll
}

// softplus is ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// fitNewton maximizes the likelihood over the free players' ratings (in
// natural units; the anchor's is 0) and returns all ratings by player index.
func fitNewton(anchor int, free []int, games, points [][]float64) ([]float64, int, error) {
	beta := make([]float64, len(games))
	set := append([]int{anchor}, free...)
	ll := logLikelihood(set, beta, games, points)
	for iter := 1; iter <= maxNewton; iter++ {
		grad, info := gradientAndInformation(free, set, beta, games, points, nil)
		step, err := solve(info, grad)
		if err != nil {
			return nil, 0, fmt.Errorf("ratings: %w", err)
		}
		// Halve the step until the likelihood does not fall (Newton's
		// full step can overshoot far from the maximum).
		next := slices.Clone(beta)
		for h := 0; ; h++ {
			for k, i := range free {
				next[i] = beta[i] + step[k]
			}
			nll := logLikelihood(set, next, games, points)
			if nll >= ll-1e-12*math.Abs(ll) || h == 50 {
				ll = nll
				break
			}
			for k := range step {
				step[k] /= 2
			}
		}
		beta = next
		biggest := 0.0
		for _, s := range step {
			biggest = math.Max(biggest, math.Abs(s))
		}
		if biggest < newtonTolerance {
			return beta, iter, nil
		}
	}
	return nil, 0, errors.New("ratings: the maximum-likelihood fit did not converge")
}

// gradientAndInformation returns the log-likelihood's gradient over the free
// players and the information matrix -H. With squares non-nil it returns J,
// the sum of the games' squared score deviations in H's shape, instead of
// -H (see FitRatings).
func gradientAndInformation(free, set []int, beta []float64, games, points, squares [][]float64) ([]float64, [][]float64) {
	pos := map[int]int{}
	for k, i := range free {
		pos[i] = k
	}
	grad := make([]float64, len(free))
	info := newMatrix(len(free))
	for x, i := range set {
		for _, j := range set[x+1:] {
			n := games[i][j]
			if n == 0 {
				continue
			}
			p := logistic(beta[i] - beta[j])
			w := n * p * (1 - p)
			if squares != nil {
				// Σ over the games of (s - p)² from i's side.
				w = squares[i][j] - 2*p*points[i][j] + n*p*p
			}
			g := points[i][j] - n*p
			ki, iFree := pos[i]
			kj, jFree := pos[j]
			if iFree {
				grad[ki] += g
				info[ki][ki] += w
			}
			if jFree {
				grad[kj] -= g
				info[kj][kj] += w
			}
			if iFree && jFree {
				info[ki][kj] -= w
				info[kj][ki] -= w
			}
		}
	}
	return grad, info
}

// sandwich returns the covariance H⁻¹·J·H⁻¹ of the free ratings at beta.
func sandwich(anchor int, free []int, beta []float64, games, points, squares [][]float64) ([][]float64, error) {
	set := append([]int{anchor}, free...)
	_, info := gradientAndInformation(free, set, beta, games, points, nil)
	_, j := gradientAndInformation(free, set, beta, games, points, squares)
	inv, err := invert(info)
	if err != nil {
		return nil, fmt.Errorf("ratings: %w", err)
	}
	return mul(mul(inv, j), inv), nil
}
