package record

import (
	"maps"
	"math"
	"slices"
)

// medianSketch finds the median of a stream of non-negative values in
// bounded memory: exactly while it has seen at most sketchExact values,
// then from a histogram of logarithmic bins 1% wide (at most a few
// thousand bins for any time or node count), so the median of a long run is
// within 0.5% of the exact one. Medians sit beside means in the tables
// because a few long moves (an MCTS mate proof reaching a million
// simulations) can dominate a mean.
type medianSketch struct {
	exact []float64
	bins  map[int32]int64 // nil while exact
	zeros int64
	n     int64
}

const (
	sketchExact  = 1024
	sketchGrowth = 0.01
)

func (m *medianSketch) add(v float64) {
	m.n++
	if m.bins == nil {
		m.exact = append(m.exact, v)
		if len(m.exact) <= sketchExact {
			return
		}
		m.bins = map[int32]int64{}
		for _, x := range m.exact {
			m.bin(x)
		}
		m.exact = nil
		return
	}
	m.bin(v)
}

func (m *medianSketch) bin(v float64) {
	if v <= 0 || math.IsNaN(v) {
		m.zeros++
		return
	}
	m.bins[int32(math.Floor(math.Log(v)/math.Log1p(sketchGrowth)))]++
}

// median is the median (the mean of the middle two of an even count while
// exact); 0 without values.
func (m *medianSketch) median() float64 {
	if m.n == 0 {
		return 0
	}
	if m.bins == nil {
		xs := slices.Sorted(slices.Values(m.exact))
		h := len(xs) / 2
		if len(xs)%2 == 1 {
			return xs[h]
		}
		return (xs[h-1] + xs[h]) / 2
	}
	rank := (m.n - 1) / 2
	if rank < m.zeros {
		return 0
	}
	rank -= m.zeros
	for _, k := range slices.Sorted(maps.Keys(m.bins)) {
		if rank < m.bins[k] {
			return math.Pow(1+sketchGrowth, float64(k)+0.5)
		}
		rank -= m.bins[k]
	}
	return 0
}
