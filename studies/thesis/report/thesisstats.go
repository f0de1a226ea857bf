package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"arena/arena/record"
	"arena/tracker"
)

// moveStats are our side's per-move numbers of one engine at one setting,
// from the runs' games logs: what summary.json's means do not give.
type moveStats struct {
	medianNodes float64
	// acpl is the pooled ACPL over the distinct games with the standard
	// error of a ratio of sums, games as clusters (the moves of one game
	// are not independent); uncapped leaves out the moves the judge capped
	// at its cap (900 cp), capped counts them.
	acpl, uncapped tracker.Estimate
	capped         int
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
	all, _ := judgedClusters(s, name, false)
	uncapped, capped := judgedClusters(s, name, true)
	return moveStats{medianNodes: median(nodes), acpl: tracker.Ratio(all), uncapped: tracker.Ratio(uncapped), capped: capped}
}

// nodeClusters are the engine's nodes per distinct game at the setting.
func nodeClusters(s *setting, name string) []tracker.Cluster {
	var games []tracker.Cluster
	for _, r := range s.runs {
		byGame := map[int]*tracker.Cluster{}
		var order []int
		for _, m := range r.Moves {
			if m.Engine != name || !s.first[gameRef{r, m.Game}] {
				continue
			}
			if byGame[m.Game] == nil {
				byGame[m.Game] = &tracker.Cluster{}
				order = append(order, m.Game)
			}
			byGame[m.Game].Sum += float64(m.Nodes)
			byGame[m.Game].N++
		}
		for _, n := range order {
			games = append(games, *byGame[n])
		}
	}
	return games
}

// judgedClusters are the engine's distinct games at the setting as the
// games' own judge scored them (moves.csv), one cluster per judged game;
// with dropCapped without the moves whose loss reached the judge's cap,
// which it counts.
func judgedClusters(s *setting, name string, dropCapped bool) (games []tracker.Cluster, capped int) {
	for _, r := range s.runs {
		limit := float64(r.Summary.Judge.Cap)
		if limit == 0 {
			limit = float64(tracker.DefaultScoring.Cap)
		}
		byGame := map[int]*tracker.Cluster{}
		var order []int
		for _, m := range r.Moves {
			if m.Engine != name || m.CPL == nil || !s.first[gameRef{r, m.Game}] {
				continue
			}
			g := byGame[m.Game]
			if g == nil {
				g = &tracker.Cluster{}
				byGame[m.Game] = g
				order = append(order, m.Game)
			}
			if *m.CPL >= limit {
				capped++
				if dropCapped {
					continue
				}
			}
			g.Sum += *m.CPL
			g.N++
		}
		for _, n := range order {
			games = append(games, *byGame[n])
		}
	}
	return games, capped
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

// fmtEstimate is a number with its 95% t interval and the units it rests
// on, "113 ± 21 (n 6)"; without an interval "113 (n 1)", or "0 (n 80, no
// spread)" when every unit has the same value.
func fmtEstimate(e tracker.Estimate, prec int) string {
	if math.IsNaN(e.Value) {
		return "–"
	}
	if e.SE == 0 && e.N >= 2 {
		// Every unit the same: a t interval would be 0 wide, which no
		// finite sample shows; the p-value is the sign test's
		// (tracker.Estimate.P).
		return fmt.Sprintf("%.*f (n %d, no spread)", prec, e.Value, e.N)
	}
	if h := e.Half(); !math.IsNaN(h) {
		return fmt.Sprintf("%.*f ± %.*f (n %d)", prec, e.Value, prec, h, e.N)
	}
	return fmt.Sprintf("%.*f (n %d)", prec, e.Value, e.N)
}

// fmtUncapped is the ACPL without capped moves and their count.
func fmtUncapped(st moveStats) string {
	if math.IsNaN(st.acpl.Value) {
		return "–"
	}
	return fmt.Sprintf("%s; %d capped", fmtEstimate(st.uncapped, 0), st.capped)
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
	half, series := halfWins()
	reasons := slices.Sorted(maps.Keys(c.ends))
	var ends []string
	for _, r := range reasons {
		ends = append(ends, fmt.Sprintf("%d × %s", c.ends[r], r))
	}
	return fmt.Sprintf("Colours: the thesis's heuristic engine cannot mate as White (its evaluation scores a mate White-relative inside a side-to-move search, THESIS.md 1.2); in %d of its %d series it won exactly half its games and its opponent none. Ours won %d of %d games as White and %d of %d as Black. How the games ended: %s.",
		half, series, c.whiteWins, c.whiteGames, c.blackWins, c.blackGames, strings.Join(ends, "; "))
}

// onTime counts the settings' games that ended on time (a time forfeit):
// verdicts say how many of their games the clock decided.
func onTime(settings []*setting) int {
	n := 0
	for _, s := range settings {
		for _, r := range s.runs {
			for _, g := range r.Summary.Games {
				if g.Termination == record.TermTimeForfeit {
					n++
				}
			}
		}
	}
	return n
}

// cappedStats is what drives an engine's ACPL over a variant's distinct
// games: the loss of all judged moves, that of the moves whose loss reached
// the judge's cap, and where the capped moves were played.
type cappedStats struct {
	loss, cappedLoss float64
	capped           int
	whiteCut         int // as White, in a game cut at the move limit
	shuffles         int // undoing the engine's previous move (a2b3 after b3a2)
	mateBefore       int // the judge's evaluation before the move was a mate
	drawAfter        int // the judge's evaluation after it 0: a repetition
}

// cappedOf computes cappedStats of the heuristic engine (heur) or its
// opponent over the variant's distinct games.
func cappedOf(v *variant, heur bool) cappedStats {
	var c cappedStats
	for _, s := range v.settings {
		name := s.opp.Name
		if heur {
			name = s.heur.Name
		}
		for _, r := range s.runs {
			limit, mate := float64(r.Summary.Judge.Cap), float64(r.Summary.Judge.MateScore)
			if limit == 0 {
				limit, mate = float64(tracker.DefaultScoring.Cap), float64(tracker.DefaultScoring.MateScore)
			}
			games := map[int]record.GameSummary{}
			for _, g := range r.Summary.Games {
				games[g.Game] = g
			}
			last := map[int]string{} // the engine's previous move per game
			var before *float64      // the judge's evaluation after the game's previous move
			beforeGame := 0
			for _, m := range r.Moves {
				prevEval := before
				if beforeGame != m.Game {
					prevEval = nil
				}
				before, beforeGame = m.Eval, m.Game
				if m.Engine != name || !s.first[gameRef{r, m.Game}] {
					continue
				}
				prev := last[m.Game]
				last[m.Game] = m.UCI
				if m.CPL == nil {
					continue
				}
				c.loss += *m.CPL
				if *m.CPL < limit {
					continue
				}
				c.capped++
				c.cappedLoss += *m.CPL
				if g := games[m.Game]; g.White == name && g.Termination == record.TermAdjudicated {
					c.whiteCut++
				}
				if len(prev) >= 4 && len(m.UCI) >= 4 && prev[:2] == m.UCI[2:4] && prev[2:4] == m.UCI[:2] {
					c.shuffles++
				}
				if prevEval != nil && math.Abs(*prevEval) >= mate-1000 {
					c.mateBefore++
				}
				if m.Eval != nil && *m.Eval == 0 {
					c.drawAfter++
				}
			}
		}
	}
	return c
}

// mateSign reports whether capped moves carry most of the loss and show the
// signature of the thesis engine's mate-sign bug: at least 90% of them as
// White in games cut at the move limit, 80% after a position the judge
// scored as a mate.
func (c cappedStats) mateSign() bool {
	return c.loss > 0 && 2*c.cappedLoss >= c.loss && 10*c.whiteCut >= 9*c.capped && 10*c.mateBefore >= 8*c.capped
}

// note says what drives the engine's ACPL when capped moves carry most of
// it, and names the thesis engine's mate-sign bug only where the data show
// its signature: capped moves as White in games cut at the move limit,
// where the judge saw a mate before the move.
func (c cappedStats) note(engine string) string {
	if c.loss == 0 || c.cappedLoss < c.loss/2 {
		return ""
	}
	s := fmt.Sprintf("What drives the %s engine's ACPL: %.0f%% of its centipawn loss comes from %d moves the judge capped (distinct games); %d of them it played as White in games cut at the move limit, %d undid its previous move, %d came where the judge's evaluation before the move was a mate, and after %d the judge scored the position 0 (a repetition).",
		engine, 100*c.cappedLoss/c.loss, c.capped, c.whiteCut, c.shuffles, c.mateBefore, c.drawAfter)
	if c.mateSign() {
		s += " That is the thesis engine's mate-sign bug (`preset: thesis` keeps it: it scores a mate White-relative inside a side-to-move search, THESIS.md 1.2): as White it shuffles in a won position instead of mating, the judge charges the missed mate at the cap, and the game ends as a draw at the move limit. The ACPL without capped moves (the table's next columns) is the engine's play apart from that."
	}
	return s
}
