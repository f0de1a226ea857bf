package report

import (
	"fmt"
	"math"
	"slices"
)

// moveStats are our side's per-move numbers of one engine at one setting,
// from the runs' moves.csv: what summary.json's means do not give.
type moveStats struct {
	medianNodes float64
	// acplHalf is the half-width of the 95% interval of the pooled ACPL,
	// games as clusters (the delta method for a ratio of sums: the moves of
	// one game are not independent); NaN with fewer than 2 judged games.
	acplHalf float64
}

// statsOf computes moveStats for the engine named name over the setting's
// runs.
func statsOf(s *setting, name string) moveStats {
	type game struct{ cpl, moves float64 }
	var nodes []float64
	var games []game
	for _, r := range s.runs {
		byGame := map[int]*game{}
		for _, m := range r.Moves {
			if m.Engine != name {
				continue
			}
			nodes = append(nodes, float64(m.Nodes))
			if m.CPL == nil {
				continue
			}
			g := byGame[m.Game]
			if g == nil {
				g = &game{}
				byGame[m.Game] = g
			}
			g.cpl += *m.CPL
			g.moves++
		}
		for _, g := range byGame {
			games = append(games, *g)
		}
	}
	st := moveStats{medianNodes: median(nodes), acplHalf: math.NaN()}
	n := float64(len(games))
	if n < 2 {
		return st
	}
	var sc, sm float64
	for _, g := range games {
		sc += g.cpl
		sm += g.moves
	}
	ratio := sc / sm
	var ss float64
	for _, g := range games {
		d := g.cpl - ratio*g.moves
		ss += d * d
	}
	st.acplHalf = 1.96 * math.Sqrt(n/(n-1)*ss) / sm
	return st
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	if n := len(xs); n%2 == 1 {
		return xs[n/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// fmtACPLInterval is our ACPL with its 95% interval, "113 ± 21".
func fmtACPLInterval(acpl *float64, st moveStats) string {
	if acpl == nil || math.IsNaN(st.acplHalf) {
		return fmtACPL(acpl)
	}
	return fmt.Sprintf("%.0f ± %.0f", *acpl, st.acplHalf)
}

// fmtNodes is our mean nodes per move with the median beside it: a few
// long searches (MCTS mate proofs, the heuristic's endgames) pull the mean.
func fmtNodes(mean float64, st moveStats) string {
	if math.IsNaN(st.medianNodes) || mean == 0 {
		return thousands(mean)
	}
	return fmt.Sprintf("%s (median %s)", thousands(mean), thousands(st.medianNodes))
}
