package tracker

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Small-sample statistics for reports that rest on a handful of games.
//
// An interval over k independent units (games, or game clusters of moves)
// uses Student's t with k-1 degrees of freedom, not the normal 1.96: at
// k = 2 the 95% multiplier is 12.7, at k = 6 2.57. Z95 is the limit as k
// grows; the Elo and rating intervals, over hundreds of games, use it as
// fastchess does. A family of tests reported together (a table of verdicts)
// is corrected for multiplicity with Holm's step-down procedure.

// Z95 is the two-sided 95% quantile of the normal distribution
// (fastchess's CI95ZSCORE).
const Z95 = 1.959964

// TQuantile is the p quantile of Student's t distribution with df degrees
// of freedom (NaN for df <= 0); +Inf df is the normal distribution.
func TQuantile(p, df float64) float64 {
	if !(df > 0) {
		return math.NaN()
	}
	if math.IsInf(df, 1) {
		return distuv.UnitNormal.Quantile(p)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// T95 is the two-sided 95% multiplier with df degrees of freedom:
// TQuantile(0.975, df).
func T95(df float64) float64 { return TQuantile(0.975, df) }

// TwoSidedP is the two-sided p-value of a t statistic with df degrees of
// freedom: the probability of |T| >= |t|. NaN for df <= 0 or a NaN t.
func TwoSidedP(t, df float64) float64 {
	if !(df > 0) || math.IsNaN(t) {
		return math.NaN()
	}
	if math.IsInf(df, 1) {
		return 2 * distuv.UnitNormal.Survival(math.Abs(t))
	}
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
}

// Estimate is a mean or ratio with its standard error and the degrees of
// freedom of its t interval: what a difference of two estimates needs,
// which a half-width alone does not carry.
type Estimate struct {
	Value, SE, DF float64
	// N is the units it rests on (games, game clusters).
	N int
}

// Half is the half-width of the two-sided 95% t interval; NaN with fewer
// than two units.
func (e Estimate) Half() float64 { return T95(e.DF) * e.SE }

// P is the two-sided p-value of Value against center. Without spread (every
// unit the same, SE 0) t is undefined; P is then the sign test's: all N
// units on one side of center, 2·0.5^N (1 at center).
func (e Estimate) P(center float64) float64 {
	if e.SE == 0 {
		if e.Value == center {
			return 1
		}
		return math.Min(1, 2*math.Pow(0.5, float64(e.N)))
	}
	return TwoSidedP((e.Value-center)/e.SE, e.DF)
}

// Minus is the difference of two estimates from disjoint units: standard
// errors add in quadrature, the degrees of freedom are Welch-Satterthwaite's.
func (e Estimate) Minus(o Estimate) Estimate {
	v1, v2 := e.SE*e.SE, o.SE*o.SE
	df := (v1 + v2) * (v1 + v2) / (v1*v1/e.DF + v2*v2/o.DF)
	if v1+v2 == 0 {
		df = e.DF + o.DF
	}
	return Estimate{Value: e.Value - o.Value, SE: math.Sqrt(v1 + v2), DF: df, N: e.N + o.N}
}

// Mean is the mean of xs with its standard error, k-1 degrees of freedom.
// NaN value without units, NaN SE and DF 0 with one.
func Mean(xs []float64) Estimate {
	k := float64(len(xs))
	if k == 0 {
		return Estimate{Value: math.NaN(), SE: math.NaN()}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / k
	if k < 2 {
		return Estimate{Value: mean, SE: math.NaN(), N: len(xs)}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return Estimate{Value: mean, SE: math.Sqrt(ss / (k - 1) / k), DF: k - 1, N: len(xs)}
}

// Cluster is one unit of a ratio estimate: one game's sum of a per-move
// quantity of an engine (its centipawn losses, its nodes) and the number of
// moves summed. The moves of one game are not independent, so a ratio over
// 2 games must not look like one over 100 moves.
type Cluster struct{ Sum, N float64 }

// Ratio is the pooled ratio ΣSum/ΣN over the clusters with its standard
// error by the delta method, clusters as the units (k-1 degrees of
// freedom): NaN value without moves, NaN SE with fewer than 2 clusters.
func Ratio(cs []Cluster) Estimate {
	var sum, n float64
	for _, c := range cs {
		sum += c.Sum
		n += c.N
	}
	if n == 0 {
		return Estimate{Value: math.NaN(), SE: math.NaN()}
	}
	ratio := sum / n
	k := float64(len(cs))
	if k < 2 {
		return Estimate{Value: ratio, SE: math.NaN(), N: len(cs)}
	}
	var ss float64
	for _, c := range cs {
		d := c.Sum - ratio*c.N
		ss += d * d
	}
	return Estimate{Value: ratio, SE: math.Sqrt(k/(k-1)*ss) / n, DF: k - 1, N: len(cs)}
}

// Holm adjusts a family of p-values for multiple comparisons by Holm's
// step-down procedure: sorted ascending, the i-th smallest (from 0) of m is
// multiplied by m-i, made non-decreasing and capped at 1. Rejecting where
// the adjusted p is below alpha controls the family-wise error at alpha.
// NaN p-values (no test) are left NaN and do not count in m.
func Holm(ps []float64) []float64 {
	idx := make([]int, 0, len(ps))
	for i, p := range ps {
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(ps))
	for i := range out {
		out[i] = math.NaN()
	}
	m, running := len(idx), 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-rank)*ps[i]))
		out[i] = running
	}
	return out
}
