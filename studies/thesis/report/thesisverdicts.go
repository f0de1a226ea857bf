package report

import (
	arep "arena/arena/report"
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// The verdicts section tests each of the thesis's conclusions (THESIS.md
// 1.6: "heuristic > MCTS-NN > 1-ply NN; more time helps the heuristic
// engine, not the SL net; self-play net ACPL ~120 vs supervised ~160",
// and that the NN never won) on our runs, one column per kind of
// reproduction. A claim is a comparison of two measurements, each with a
// 95% interval; it holds when the interval of the difference excludes
// zero in the thesis's direction, is contradicted when it excludes zero
// the other way, and is not shown otherwise. The verdict is computed, not
// written: rerunning the report on more games can change it.

// measure is a number with the half-width of its 95% interval (NaN when
// it has fewer than two units) and the units it rests on.
type measure struct {
	value, half float64
	units       int
}

func (m measure) ok() bool { return !math.IsNaN(m.value) }

// minus is the difference of two measures from disjoint sets of games.
func (m measure) minus(o measure) measure {
	return measure{m.value - o.value, math.Hypot(m.half, o.half), m.units + o.units}
}

// claim is one conclusion of the thesis and how a kind of reproduction
// tests it.
type claim struct {
	text    string
	measure string
	// eval gives the claim's measure in one kind ("" judge label: the
	// games' own judge) and whether its sign must be positive (want +1),
	// negative (-1), or zero (0: "makes no difference").
	eval func(k kindRuns, label string) measure
	want int
	unit string
	// center is the value of "no difference": 50 for a score in percent.
	center float64
}

// kindRuns are one kind's variants by experiment ID.
type kindRuns map[string]*variant

// settingsOf is the experiment's settings in this kind, shortest first;
// nil when the kind has no runs of it.
func (k kindRuns) settingsOf(id string) []*setting {
	if v := k[id]; v != nil {
		return v.settings
	}
	return nil
}

var thesisClaims = []claim{
	{text: "The heuristic engine beats the 1-ply NN", measure: "heuristic's score in experiment 1 and its reference match", unit: "%", center: 50, want: +1,
		eval: func(k kindRuns, _ string) measure {
			return heurScore(append(slices.Clone(k.settingsOf("exp1")), k.settingsOf("exp1-reference")...))
		}},
	{text: "The heuristic engine beats MCTS-NN", measure: "heuristic's score in experiment 2", unit: "%", center: 50, want: +1,
		eval: func(k kindRuns, _ string) measure { return heurScore(k.settingsOf("exp2")) }},
	{text: "The heuristic engine beats the SL engine", measure: "heuristic's score in experiment 3", unit: "%", center: 50, want: +1,
		eval: func(k kindRuns, _ string) measure { return heurScore(k.settingsOf("exp3")) }},
	{text: "MCTS-NN plays better than the 1-ply NN", measure: "1-ply NN's ACPL (reference match, 1 s) minus MCTS-NN's (experiment 2, 1 s)", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) measure {
			return acplOf(first(k.settingsOf("exp1-reference")), false, label).minus(acplOf(first(k.settingsOf("exp2")), false, label))
		}},
	{text: "More time helps the heuristic engine", measure: "heuristic's ACPL in experiment 1 at the shortest setting minus at the longest", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) measure {
			s := k.settingsOf("exp1")
			return acplOf(first(s), true, label).minus(acplOf(last(s), true, label))
		}},
	{text: "More time does not help the SL net", measure: "SL engine's ACPL in experiment 3 at the shortest setting minus at the longest", unit: "cp", want: 0,
		eval: func(k kindRuns, label string) measure {
			s := k.settingsOf("exp3")
			return acplOf(first(s), false, label).minus(acplOf(last(s), false, label))
		}},
	{text: "The self-play net plays better than the supervised net (ACPL ~120 vs ~160)", measure: "SL engine's ACPL (experiment 3, 1 s) minus the 1-ply NN's (reference match, 1 s)", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) measure {
			return acplOf(first(k.settingsOf("exp3")), false, label).minus(acplOf(first(k.settingsOf("exp1-reference")), false, label))
		}},
	{text: "The 1-ply NN never wins against the heuristic engine", measure: "the NN's wins in experiment 1 and its reference match", unit: "wins", want: -1,
		eval: func(k kindRuns, _ string) measure {
			return oppWins(append(slices.Clone(k.settingsOf("exp1")), k.settingsOf("exp1-reference")...))
		}},
}

func first(s []*setting) *setting {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}

func last(s []*setting) *setting {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// heurScore is the heuristic engine's mean score per game in percent over
// the settings' games, games as independent units.
func heurScore(settings []*setting) measure {
	var xs []float64
	for _, s := range settings {
		for _, r := range s.runs {
			for _, g := range r.Summary.Games {
				x, ok := scoreOf(g.Result, g.White == s.heur.Name)
				if ok {
					xs = append(xs, 100*x)
				}
			}
		}
	}
	return meanInterval(xs)
}

// scoreOf is White's (white) or Black's score of a result.
func scoreOf(result string, white bool) (float64, bool) {
	var x float64
	switch result {
	case "1-0":
		x = 1
	case "0-1":
		x = 0
	case "1/2-1/2":
		x = 0.5
	default:
		return 0, false
	}
	if !white {
		x = 1 - x
	}
	return x, true
}

func meanInterval(xs []float64) measure {
	n := float64(len(xs))
	if n == 0 {
		return measure{math.NaN(), math.NaN(), 0}
	}
	var sum, ss float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	if n < 2 {
		return measure{mean, math.NaN(), len(xs)}
	}
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return measure{mean, 1.96 * math.Sqrt(ss/(n-1)/n), len(xs)}
}

// oppWins counts the opponent's wins; an exact count has no interval.
func oppWins(settings []*setting) measure {
	if len(settings) == 0 {
		return measure{math.NaN(), math.NaN(), 0}
	}
	var m measure
	for _, s := range settings {
		m.value += float64(s.opp.Wins)
		m.units += s.opp.Games
	}
	return m
}

// acplOf is one engine's ACPL at the setting, by the judge labelled label
// ("": the judge of the games), games as clusters.
func acplOf(s *setting, heur bool, label string) measure {
	if s == nil {
		return measure{math.NaN(), math.NaN(), 0}
	}
	name := s.opp.Name
	if heur {
		name = s.heur.Name
	}
	games := judgedClusters(s, name)
	if label != "" {
		games = rejudgedClusters(s, name, label)
	}
	v, half := arep.RatioInterval(games)
	return measure{v, half, len(games)}
}

// verdict reads a measure against the direction a claim wants from its
// center.
func verdict(m measure, center float64, want int) string {
	if !m.ok() {
		return "no runs"
	}
	lo, hi := m.value-center-m.half, m.value-center+m.half
	if math.IsNaN(m.half) {
		return "too few games"
	}
	switch want {
	case +1:
		if lo > 0 {
			return "holds"
		}
		if hi < 0 {
			return "contradicted"
		}
	case -1:
		if hi < 0 || (m.half == 0 && m.value == center) {
			return "holds"
		}
		if lo > 0 {
			return "contradicted"
		}
	case 0:
		if lo <= 0 && hi >= 0 {
			return "consistent"
		}
		return "contradicted"
	}
	return "not shown"
}

// fmtMeasure renders a verdict and its number: "holds: 71 ± 12 % (48)".
func fmtMeasure(m measure, c claim) string {
	v, unit := verdict(m, c.center, c.want), c.unit
	if !m.ok() {
		return "–"
	}
	switch {
	case unit == "wins":
		return fmt.Sprintf("%s: %.0f in %d games", v, m.value, m.units)
	case math.IsNaN(m.half):
		return fmt.Sprintf("%s: %+.0f %s", v, m.value, unit)
	case unit == "%":
		return fmt.Sprintf("%s: %.0f ± %.0f%% (%d games)", v, m.value, m.half, m.units)
	}
	return fmt.Sprintf("%s: %+.0f ± %.0f %s", v, m.value, m.half, unit)
}

// writeVerdicts writes the section testing each conclusion of the thesis
// in each kind of reproduction present, by the games' own judge and by
// every re-judging present.
func writeVerdicts(b *bytes.Buffer, variants []*variant) {
	kinds := map[string]kindRuns{}
	labels := map[string]bool{}
	for _, v := range variants {
		k := kinds[v.kind]
		if k == nil {
			k = kindRuns{}
			kinds[v.kind] = k
		}
		if k[v.exp.ID] == nil { // one book per kind in the config sets: the first
			k[v.exp.ID] = v
		}
		for _, l := range rejudgeLabels(v) {
			labels[l] = true
		}
	}
	var present []string
	for _, k := range kindOrder {
		if kinds[k] != nil {
			present = append(present, k)
		}
	}
	if len(present) == 0 {
		return
	}
	b.WriteString("## Which of the thesis's conclusions hold\n\n")
	b.WriteString("Each conclusion of THESIS.md 1.6 as a difference of two of our measurements with its 95% interval (scores: games as units; ACPL: games as clusters; the two sides of a difference come from different games). **holds**: the interval of the difference excludes 0 (for a score, 50%) on the thesis's side; **contradicted**: it excludes it on the other side; **not shown**: it includes 0 (for a score, 50%), so these games cannot tell; **consistent** (a claim of no difference): it includes 0. A judge's row is left out where no run has that judging. Computed by `thesis-report` (`make reproduce`) from the runs, so more games can change a verdict.\n\n")
	judges := append([]string{""}, slices.Sorted(maps.Keys(labels))...)
	header := []string{"Thesis's conclusion", "Measure", "Judge"}
	for _, k := range present {
		header = append(header, kindTitle(k))
	}
	t := &arep.Table{Header: header}
	held, against := map[string][]string{}, map[string][]string{} // by kind, the games' own judge
	for _, c := range thesisClaims {
		for i, l := range judges {
			if i > 0 && c.unit != "cp" {
				break // scores and wins do not depend on the judge
			}
			judge := orDefault(l, "the games' own")
			if c.unit != "cp" {
				judge = "–"
			}
			row := []arep.Cell{{Text: c.text}, {Text: c.measure}, {Text: judge}}
			measured := false
			for _, k := range present {
				m := c.eval(kinds[k], l)
				measured = measured || m.ok()
				if l == "" {
					switch verdict(m, c.center, c.want) {
					case "holds", "consistent":
						held[k] = append(held[k], lowerFirst(c.text))
					case "contradicted":
						against[k] = append(against[k], lowerFirst(c.text))
					}
				}
				row = append(row, arep.Cell{Text: fmtMeasure(m, c)})
			}
			if measured || l == "" {
				t.Rows = append(t.Rows, row)
			}
		}
	}
	arep.WriteMarkdownTable(b, t)
	b.WriteString("\n")
	for _, k := range present {
		fmt.Fprintf(b, "- %s, by the games' own judge: %s; %s; the rest are not shown by these games.\n",
			kindTitle(k), listOr(held[k], "holds", "no conclusion holds"), listOr(against[k], "contradicted", "none is contradicted"))
	}
	b.WriteString("\n")
}

func kindTitle(kind string) string {
	switch kind {
	case kindFaithful:
		return "Faithful"
	case kindCompute:
		return "Compute-matched"
	}
	return "Time-matched"
}

// lowerFirst starts a sentence's text mid-sentence; an acronym ("MCTS")
// keeps its case.
func lowerFirst(s string) string {
	if len(s) < 2 || strings.ToUpper(s[1:2]) == s[1:2] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// listOr joins items as "a; b (verb)" or says none.
func listOr(items []string, verb, none string) string {
	if len(items) == 0 {
		return none
	}
	return verb + ": " + strings.Join(items, "; ")
}
