package report

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	arep "arena/arena/report"
	"arena/tracker"
	"arena/tracker/pgn"
)

// The verdicts section tests each of the thesis's conclusions (THESIS.md
// 1.6: "heuristic > MCTS-NN > 1-ply NN; more time helps the heuristic
// engine, not the SL net; self-play net ACPL ~120 vs supervised ~160",
// and that the NN never won) on our runs, one column per kind of
// reproduction. A claim is a comparison of two measurements, each a
// tracker.Estimate over distinct games (a game replayed move for move
// counts once) with a t interval; the difference's p-value is adjusted by
// Holm over the whole table (every claim, kind and judge: one family).
// Three words: holds when the adjusted p is below 5% and the difference
// has the thesis's sign, contradicted when it is below 5% with the other
// sign, not shown otherwise; a claim of no difference cannot hold (not
// finding a difference does not show there is none), only be
// contradicted. The verdict is computed, not written: more games can
// change it.

// alpha is the family-wise error rate of the verdict table.
const alpha = 0.05

// result is a claim's measure in one kind and the settings it rests on
// (their games' time forfeits are printed beside the verdict).
type result struct {
	est      tracker.Estimate
	settings []*setting
	// count is an exact count (the opponent's wins), not an estimate: no
	// interval, no test.
	count bool
}

func (r result) ok() bool { return !math.IsNaN(r.est.Value) }

// claim is one conclusion of the thesis and how a kind of reproduction
// tests it.
type claim struct {
	text    string
	measure string
	// eval gives the claim's measure in one kind ("" judge label: the
	// games' own judge); want is the sign the thesis claims: +1, -1, or 0
	// ("makes no difference").
	eval func(k kindRuns, label string) result
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
		eval: func(k kindRuns, _ string) result {
			return heurScore(append(slices.Clone(k.settingsOf("exp1")), k.settingsOf("exp1-reference")...))
		}},
	{text: "The heuristic engine beats MCTS-NN", measure: "heuristic's score in experiment 2", unit: "%", center: 50, want: +1,
		eval: func(k kindRuns, _ string) result { return heurScore(k.settingsOf("exp2")) }},
	{text: "The heuristic engine beats the SL engine", measure: "heuristic's score in experiment 3", unit: "%", center: 50, want: +1,
		eval: func(k kindRuns, _ string) result { return heurScore(k.settingsOf("exp3")) }},
	{text: "MCTS-NN plays better than the 1-ply NN", measure: "1-ply NN's ACPL (reference match, 1 s) minus MCTS-NN's (experiment 2, 1 s)", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) result {
			return acplOf(first(k.settingsOf("exp1-reference")), false, label).minus(acplOf(first(k.settingsOf("exp2")), false, label))
		}},
	{text: "More time helps the heuristic engine", measure: "heuristic's ACPL in experiment 1 at the shortest setting minus at the longest", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) result {
			s := k.settingsOf("exp1")
			return acplOf(first(s), true, label).minus(acplOf(last(s), true, label))
		}},
	{text: "More time does not help the SL net", measure: "SL engine's ACPL in experiment 3 at the shortest setting minus at the longest", unit: "cp", want: 0,
		eval: func(k kindRuns, label string) result {
			s := k.settingsOf("exp3")
			return acplOf(first(s), false, label).minus(acplOf(last(s), false, label))
		}},
	{text: fmt.Sprintf("The self-play net plays better than the supervised net (the thesis's nets: ACPL %.0f vs %.0f)", firstOppACPL("exp1-reference"), firstOppACPL("exp3")),
		measure: "SL engine's ACPL (experiment 3, 1 s) minus the 1-ply NN's (reference match, 1 s): our supervised net against our self-play net", unit: "cp", want: +1,
		eval: func(k kindRuns, label string) result {
			return acplOf(first(k.settingsOf("exp3")), false, label).minus(acplOf(first(k.settingsOf("exp1-reference")), false, label))
		}},
	{text: "The 1-ply NN never wins against the heuristic engine", measure: "the NN's wins in experiment 1 and its reference match", unit: "wins", want: -1,
		eval: func(k kindRuns, _ string) result {
			return oppWins(append(slices.Clone(k.settingsOf("exp1")), k.settingsOf("exp1-reference")...))
		}},
}

// firstOppACPL is the thesis's ACPL of the opponent at the experiment's
// first setting.
func firstOppACPL(id string) float64 {
	for _, e := range Thesis {
		if e.ID == id && len(e.Rows) > 0 {
			return e.Rows[0].OppACPL
		}
	}
	return math.NaN()
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
// the settings' distinct games, games as independent units.
func heurScore(settings []*setting) result {
	var xs []float64
	for _, s := range settings {
		for _, r := range s.runs {
			for _, g := range r.Summary.Games {
				x, ok := scoreOf(g.Result, g.White == s.heur.Name)
				if ok && s.first[gameRef{r, g.Game}] {
					xs = append(xs, 100*x)
				}
			}
		}
	}
	return result{est: tracker.Mean(xs), settings: settings}
}

// scoreOf is White's (white) or Black's score of a result.
func scoreOf(result string, white bool) (float64, bool) {
	x, ok := pgn.WhiteScore(result)
	if !ok {
		return 0, false
	}
	if !white {
		x = 1 - x
	}
	return x, true
}

// oppWins counts the opponent's wins in all games (a repeated win is
// another win the thesis would count too); an exact count, not tested.
func oppWins(settings []*setting) result {
	if len(settings) == 0 {
		return result{est: tracker.Estimate{Value: math.NaN(), SE: math.NaN()}}
	}
	r := result{settings: settings, count: true}
	for _, s := range settings {
		r.est.Value += float64(s.opp.Wins)
		r.est.N += s.opp.Games
	}
	return r
}

// acplOf is one engine's ACPL at the setting, by the judge labelled label
// ("": the judge of the games), distinct games as clusters.
func acplOf(s *setting, heur bool, label string) result {
	if s == nil {
		return result{est: tracker.Estimate{Value: math.NaN(), SE: math.NaN()}}
	}
	name := s.opp.Name
	if heur {
		name = s.heur.Name
	}
	games, _ := judgedClusters(s, name, false)
	if label != "" {
		games = rejudgedClusters(s, name, label)
	}
	return result{est: tracker.Ratio(games), settings: []*setting{s}}
}

// minus is the difference of two results from disjoint sets of games.
func (r result) minus(o result) result {
	return result{est: r.est.Minus(o.est), settings: append(slices.Clone(r.settings), o.settings...)}
}

// p is the claim's two-sided p-value against its center: NaN for a count
// or without an interval.
func (r result) p(c claim) float64 {
	if r.count || !r.ok() || math.IsNaN(r.est.SE) {
		return math.NaN()
	}
	return r.est.P(c.center)
}

// verdict reads a result against the direction a claim wants from its
// center, with its Holm-adjusted p-value.
func verdict(r result, c claim, adjP float64) string {
	switch {
	case !r.ok():
		return "no runs"
	case r.count: // "never wins": any win contradicts it
		if r.est.Value == 0 {
			return "holds"
		}
		return "contradicted"
	case math.IsNaN(adjP):
		return "too few games"
	case adjP >= alpha:
		return "not shown"
	case c.want == 0:
		return "contradicted"
	case (r.est.Value-c.center > 0) == (c.want > 0):
		return "holds"
	}
	return "contradicted"
}

// fmtResult renders a verdict and its numbers: "holds: 71 ± 12% (n 48),
// Holm p 0.001, 0 on time".
func fmtResult(r result, c claim, adjP float64) string {
	if !r.ok() {
		return "–"
	}
	v := verdict(r, c, adjP)
	onClock := fmt.Sprintf("%d ended on time", onTime(r.settings))
	if r.count {
		return fmt.Sprintf("%s: %.0f in %d games, %s", v, r.est.Value, r.est.N, onClock)
	}
	num := fmtEstimate(r.est, 0)
	switch {
	case c.unit == "%":
		num = strings.Replace(num, " (", "% (", 1)
	case !math.IsNaN(r.est.Value):
		num = fmt.Sprintf("%+.0f", r.est.Value) + strings.TrimPrefix(num, fmt.Sprintf("%.0f", r.est.Value))
		num = strings.Replace(num, " (", " "+c.unit+" (", 1)
	}
	p := "Holm p –"
	if !math.IsNaN(adjP) {
		p = fmt.Sprintf("Holm p %s", fmtP(adjP))
	}
	return fmt.Sprintf("%s: %s, %s, %s", v, num, p, onClock)
}

// fmtP prints a p-value with two significant digits, "<0.001" below.
func fmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// verdictTable is the claims tested in each kind present, by the games'
// own judge and by every re-judging present, with the kinds present and,
// per kind, the claims that hold and those contradicted by the games' own
// judge.
type verdictTable struct {
	table         *arep.Table
	kinds         []string
	held, against map[string][]string
	// words is each claim's verdict by the games' own judge, by kind.
	words map[string]map[string]string
	// control is the line on the NNUE row's control (controlNote).
	control string
}

// verdicts computes the verdict table; nil without runs of any kind.
func verdicts(variants []*variant) *verdictTable {
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
	claims := slices.Clone(thesisClaims)
	if kinds[kindCompute] != nil && kinds[kindCompute][modernClaimExp] != nil {
		claims = append(claims, modernClaim)
	}
	vt := &verdictTable{held: map[string][]string{}, against: map[string][]string{}, words: map[string]map[string]string{}}
	if kinds[kindCompute] != nil {
		vt.control = controlNote(kinds[kindCompute])
	}
	for _, k := range kindOrder {
		if kinds[k] != nil {
			vt.kinds = append(vt.kinds, k)
		}
	}
	if len(vt.kinds) == 0 {
		return nil
	}
	judges := append([]string{""}, slices.Sorted(maps.Keys(labels))...)
	// Every result first: Holm adjusts the whole table's p-values at once.
	type cellOf struct {
		c     claim
		judge string
		rs    []result
	}
	var rows []cellOf
	var ps []float64
	for _, c := range claims {
		for i, l := range judges {
			if i > 0 && c.unit != "cp" {
				break // scores and wins do not depend on the judge
			}
			row := cellOf{c: c, judge: l}
			measured := false
			for _, k := range vt.kinds {
				r := c.eval(kinds[k], l)
				measured = measured || r.ok()
				row.rs = append(row.rs, r)
			}
			if measured || l == "" {
				rows = append(rows, row)
				for _, r := range row.rs {
					ps = append(ps, r.p(c))
				}
			}
		}
	}
	adj := tracker.Holm(ps)
	header := []string{"Thesis's conclusion", "Measure", "Judge"}
	for _, k := range vt.kinds {
		header = append(header, kindTitle(k))
	}
	vt.table = &arep.Table{Header: header}
	i := 0
	for _, row := range rows {
		judge := orDefault(row.judge, "the games' own")
		if row.c.unit != "cp" {
			judge = "–"
		}
		cells := []arep.Cell{{Text: row.c.text}, {Text: row.c.measure}, {Text: judge}}
		for j, r := range row.rs {
			p := adj[i]
			i++
			if row.judge == "" {
				if vt.words[row.c.text] == nil {
					vt.words[row.c.text] = map[string]string{}
				}
				vt.words[row.c.text][vt.kinds[j]] = verdict(r, row.c, p)
				switch verdict(r, row.c, p) {
				case "holds":
					vt.held[vt.kinds[j]] = append(vt.held[vt.kinds[j]], lowerFirst(row.c.text))
				case "contradicted":
					vt.against[vt.kinds[j]] = append(vt.against[vt.kinds[j]], lowerFirst(row.c.text))
				}
			}
			cells = append(cells, arep.Cell{Text: fmtResult(r, row.c, p)})
		}
		vt.table.Rows = append(vt.table.Rows, cells)
	}
	return vt
}

// verdictsHow says how to read the verdict table.
const verdictsHow = "Each conclusion of THESIS.md 1.6 as a difference of two of our measurements. Numbers: the value with its 95% t interval (Student's t with the degrees of freedom of its games: k-1 for k games, Welch-Satterthwaite for a difference) and n, the distinct games it rests on (a game repeated move for move counts once); scores have games as units, ACPL games as clusters of moves; the two sides of a difference come from different games. **Holm p** is the two-sided p-value adjusted by Holm's step-down procedure over every cell of the table (one family). **holds**: Holm p below 0.05 and the difference on the thesis's side (for a score, of 50%); **contradicted**: Holm p below 0.05 on the other side, or, for a claim of no difference, any difference with Holm p below 0.05; **not shown**: Holm p 0.05 or more, so these games cannot tell (a claim of no difference is never shown by not finding one). The interval is not adjusted, so an interval that excludes 0 can still be \"not shown\". \"no spread\": every game the same (all lost, say), so there is no t interval and the p-value is the sign test's (all n on one side: 2·0.5^n). \"never wins\" is an exact count, not a test. Each cell says how many of its games ended on time (a time forfeit). A judge's row is left out where no run has that judging. Computed by `thesis-report` (`make reproduce`) from the runs, so more games can change a verdict.\n\n"

// writeVerdicts writes the section testing each conclusion of the thesis.
func writeVerdicts(b *bytes.Buffer, vt *verdictTable) {
	if vt == nil {
		return
	}
	b.WriteString(verdictsHow)
	arep.WriteMarkdownTable(b, vt.table)
	b.WriteString("\n")
	for _, k := range vt.kinds {
		fmt.Fprintf(b, "- %s, by the games' own judge: %s; %s; the rest are not shown by these games.\n",
			kindTitle(k), listOr(vt.held[k], "holds", "no conclusion holds"), listOr(vt.against[k], "contradicted", "none is contradicted"))
	}
	if vt.control != "" {
		fmt.Fprintf(b, "- %s\n", vt.control)
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
