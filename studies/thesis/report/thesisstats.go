package report

import (
	arep "arena/arena/report"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
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
	var nodes []float64
	for _, r := range s.runs {
		for _, m := range r.Moves {
			if m.Engine == name {
				nodes = append(nodes, float64(m.Nodes))
			}
		}
	}
	_, half := arep.RatioInterval(judgedClusters(s, name))
	return moveStats{medianNodes: median(nodes), acplHalf: half}
}

// judgedClusters are the engine's games at the setting as the games' own
// judge scored them (moves.csv), one cluster per judged game.
func judgedClusters(s *setting, name string) []arep.Cluster {
	var games []arep.Cluster
	for _, r := range s.runs {
		byGame := map[int]*arep.Cluster{}
		for _, m := range r.Moves {
			if m.Engine != name || m.CPL == nil {
				continue
			}
			g := byGame[m.Game]
			if g == nil {
				g = &arep.Cluster{}
				byGame[m.Game] = g
			}
			g.Sum += *m.CPL
			g.N++
		}
		for _, g := range byGame {
			games = append(games, *g)
		}
	}
	return games
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

// colourRecord is how the heuristic engine fared with each colour over a
// variant's games, and how the games ended: the thesis's engine cannot
// mate as White (THESIS.md 1.2), which shows as wins only with Black.
type colourRecord struct {
	whiteWins, whiteGames, blackWins, blackGames int
	ends                                         map[string]int // reason ("checkmate", "max moves", ...) -> games
}

func colourRecordOf(v *variant) colourRecord {
	c := colourRecord{ends: map[string]int{}}
	for _, s := range v.settings {
		for _, r := range s.runs {
			for _, g := range r.Summary.Games {
				switch s.heur.Name {
				case g.White:
					c.whiteGames++
					if g.Result == "1-0" {
						c.whiteWins++
					}
				case g.Black:
					c.blackGames++
					if g.Result == "0-1" {
						c.blackWins++
					}
				}
				c.ends[orDefault(g.Reason, g.Termination)]++
			}
		}
	}
	return c
}

// note describes the record next to the thesis's pattern.
func (c colourRecord) note() string {
	reasons := slices.Sorted(maps.Keys(c.ends))
	var ends []string
	for _, r := range reasons {
		ends = append(ends, fmt.Sprintf("%d × %s", c.ends[r], r))
	}
	return fmt.Sprintf("Colours: the thesis's heuristic engine cannot mate as White (its evaluation scores a mate White-relative inside a side-to-move search, THESIS.md 1.2); in 12 of its 13 series it won exactly half its games and its opponent none. Ours won %d of %d games as White and %d of %d as Black. How the games ended: %s.",
		c.whiteWins, c.whiteGames, c.blackWins, c.blackGames, strings.Join(ends, "; "))
}
