package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	arep "arena/arena/report"
	"arena/tracker"
)

// The thesis asked whether a neural evaluation can beat a hand-written
// one, and its nets could not. Modern asks it again of an engine the
// thesis did not have (issue 26): NNUE, a small network evaluated
// incrementally inside alpha-beta search, against the thesis's heuristic
// engine at experiment 1's compute-matched budgets, both engines the same
// nodes per move (studies/thesis/configs/compute/exp1-nnue.yaml says why).
// Its runs are filed like the thesis's (classify), shown beside experiment
// 1 with the thesis's own 1-ply NN numbers in the "thesis" half of each
// cell, and tested in the verdict table as one more claim.

// NNUEEngine is the built-in engine of the modern answer: preset strong's
// search with an NNUE evaluation (docs/nnue.md).
const NNUEEngine = "nnue"

// Modern are the experiments the thesis did not run.
var Modern = modernExperiments()

// modernExperiments builds experiment 1 with NNUE from the thesis's
// experiment 1: the same rows and budgets, the nnue engine given the
// heuristic's node budget at each row.
func modernExperiments() []ThesisExperiment {
	i := slices.IndexFunc(Thesis, func(e ThesisExperiment) bool { return e.ID == "exp1" })
	if i < 0 {
		return nil
	}
	m := Thesis[i]
	m.ID = "exp1-nnue"
	m.Of = "exp1"
	m.Title = "Experiment 1 with NNUE: the thesis's question at equal nodes (not in the thesis)"
	m.Opponent = NNUEEngine
	m.Label = "NNUE"
	m.Column = "NN/NNUE"
	m.Rows = slices.Clone(m.Rows)
	for j := range m.Rows {
		m.Rows[j].Budget.Opp.Depth = 0
		m.Rows[j].Budget.Opp.Nodes = m.Rows[j].Budget.HeurNodes
	}
	m.Remarks = []string{
		"The thesis asked whether a neural evaluation can beat a hand-written one; its nets could not (none of its network engines won a game against its heuristic engine). NNUE, which it did not have, is a small network evaluated incrementally inside an alpha-beta search. Here the `nnue` engine (preset strong's search with our NNUE net, docs/nnue.md) plays the thesis's heuristic engine (preset thesis, pst thesis) at experiment 1's compute-matched budgets, both engines the same nodes per move: the heuristic's budget of each row (Method). Everything else is experiment 1's compute-matched setting: the openings, the pairs, the move limit, fivefold, the judge (`studies/thesis/configs/compute/exp1-nnue.yaml`).",
		"Each cell reads **thesis / ours** as above; in the NN/NNUE columns the thesis's number is its 1-ply NN's (its match of that row) and ours is NNUE's.",
		"NNUE differs from the thesis's heuristic engine in its search as well as its evaluation (preset strong: every seed-002 technique, a table kept between moves; docs/nnue.md), so its result here is a neural evaluation inside a modern search against the thesis's engine, not the net against a hand-written evaluation in the same search. The control below separates the two: preset strong, the same search with its hand-written evaluation, in the same games. The net against the hand-written evaluation in the same search is nnue against preset strong: docs/nnue.md, \"Strength against strong\".",
	}
	// The control: the same games with the net taken out, preset strong's
	// search with its own hand-written evaluation in place of nnue
	// (studies/thesis/configs/compute/exp1-strong.yaml). Without it a win
	// of nnue could be credited to the net when the search wins it.
	c := m
	c.ID = controlExp
	c.ControlOf = m.ID
	c.Title = "Experiment 1 with preset strong: the control of experiment 1 with NNUE"
	c.Opponent = HeuristicEngine
	c.OppPreset = "strong"
	c.Label = "Strong"
	c.Column = "NN/Strong"
	c.Remarks = nil
	return []ThesisExperiment{m, c}
}

// controlExp is the control of experiment 1 with NNUE: preset strong, the
// nnue engine's search with its hand-written evaluation, in the same games.
const controlExp = "exp1-strong"

// experiments is every experiment a run can belong to: the thesis's, then
// the modern ones.
func experiments() []*ThesisExperiment {
	var out []*ThesisExperiment
	for i := range Thesis {
		out = append(out, &Thesis[i])
	}
	for i := range Modern {
		out = append(out, &Modern[i])
	}
	return out
}

// modernOf is the modern experiments asking the thesis experiment id
// again, without their controls (shown in the section of the experiment
// they control).
func modernOf(id string) []*ThesisExperiment {
	var out []*ThesisExperiment
	for i := range Modern {
		if Modern[i].Of == id && Modern[i].ControlOf == "" {
			out = append(out, &Modern[i])
		}
	}
	return out
}

// controlVariant is the variant of v's control of the same kind and book;
// nil without one.
func controlVariant(v *variant, variants []*variant) *variant {
	for _, c := range variants {
		if c.exp.ControlOf == v.exp.ID && c.kind == v.kind && c.book == v.book {
			return c
		}
	}
	return nil
}

// modernClaimExp is the experiment modernClaim rests on: the claim is in
// the verdict table when the compute-matched runs include it.
const modernClaimExp = "exp1-nnue"

// modernClaim tests the thesis's conclusion on the engine it did not have:
// one more row of the verdict table, Holm-adjusted with the rest. The
// engine is a net inside preset strong's search, so the row tests the two
// together, and its text says so: the control (controlExp, the same search
// with its hand-written evaluation) is not a conclusion of the thesis and
// stays out of the table and its Holm family; controlNote prints it under
// the table, computed like the row.
var modernClaim = claim{
	text:    "The heuristic engine beats a neural evaluation (asked of NNUE, which the thesis did not have: a net inside a modern search)",
	measure: "heuristic's score against NNUE (preset strong's search with our NNUE net) at experiment 1's node budgets, both engines the same nodes per move: the net and the search together, not the net alone (the control under the table; the net against the hand-written evaluation in the same search is nnue against strong, docs/nnue.md)",
	unit:    "%", center: 50, want: +1,
	eval: func(k kindRuns, _ string) result { return heurScore(k.settingsOf(modernClaimExp)) },
}

// writeModernSummary writes the summary's paragraph on the modern answer:
// the games, the score with its interval (or, when every game had the same
// result, the exact bound) and both engines' ACPL, then the control's and
// what the pair shows; nothing without its runs.
func writeModernSummary(b *bytes.Buffer, variants []*variant) {
	for _, v := range variants {
		if v.exp.Of == "" || v.exp.ControlOf != "" || v.kind != kindCompute {
			continue
		}
		a := modernAnswerOf(v)
		fmt.Fprintf(b, "**The thesis's question, asked of NNUE.** The thesis asked whether a neural evaluation can beat a hand-written one; its nets lost. NNUE (preset strong's search with our NNUE net, %s), which it did not have, against its heuristic engine at experiment 1's compute-matched budgets, both engines the same nodes per move (section \"%s\"): %s. ",
			a.models, v.exp.Title, a.record())
		fmt.Fprintf(b, "ACPL by the games' own judge (depth %d): NNUE %s, the heuristic %s; NNUE searched %.1f plies deep on average with the same nodes, the heuristic %.1f. ",
			v.exp.JudgeDepth, fmtEstimate(a.oppACPL, 0), fmtEstimate(a.heurACPL, 0), a.oppDepth, a.heurDepth)
		b.WriteString("The thesis's 1-ply NN, in the same setting, never won (experiment 1). ")
		cv := controlVariant(v, variants)
		if cv == nil {
			b.WriteString("The win is the search's as well as the net's: the net against a hand-written evaluation in the same search is nnue against preset strong (docs/nnue.md).\n\n")
			continue
		}
		c := modernAnswerOf(cv)
		fmt.Fprintf(b, "The control, preset strong (the same search with its hand-written evaluation, no net) against the same engine in the same setting: %s; ACPL %s, the heuristic %s; it searched %.1f plies deep on average. %s\n\n",
			c.record(), fmtEstimate(c.oppACPL, 0), fmtEstimate(c.heurACPL, 0), c.oppDepth, controlConclusion(a, c))
	}
}

// won is whether the opponent's win shows: the heuristic's score below
// 50% with a two-sided p below alpha (unadjusted; the sign test's when no
// game differs).
func (a modernAnswer) won() bool {
	return a.score.Value < 50 && a.score.P(50) < alpha
}

// controlConclusion says what the modern engine's result and its
// control's show together, from which of them won.
func controlConclusion(a, c modernAnswer) string {
	const share = "The evaluation's own contribution is nnue against preset strong, the same search with either evaluation (docs/nnue.md), not this comparison."
	switch {
	case a.won() && c.won():
		return "So against the thesis's engine at equal nodes the modern search wins with either evaluation: these games show the thesis's engine losing to a modern search, not a net beating a hand-written evaluation. " + share
	case a.won():
		return fmt.Sprintf("The same search without the net does not show a win (the heuristic's score against it %s, p %.2f against 50%%, unadjusted), so the net adds to the search here. %s", fmtEstimate(c.score, 0), c.score.P(50), share)
	case c.won():
		return "The same search without the net wins, NNUE does not show a win: the net costs the search here. " + share
	}
	return "Neither shows a win against the thesis's engine in these games. " + share
}

// modernAnswer is what the summary says of a modern variant: pooled over
// its settings' distinct games.
type modernAnswer struct {
	label                                string           // the opponent's, as the experiment names it
	games, distinct, wins, draws, losses int              // the opponent's
	score                                tracker.Estimate // the heuristic's score in percent
	heurACPL, oppACPL                    tracker.Estimate
	heurDepth, oppDepth                  float64
	models                               string
}

func modernAnswerOf(v *variant) modernAnswer {
	a := answerOf(v.settings, v.exp.Opponent)
	a.label = v.exp.Label
	return a
}

// answerOf pools the settings as modernAnswerOf does a variant's; the
// models are those of the opponent engine kind.
func answerOf(settings []*setting, opponent string) modernAnswer {
	var a modernAnswer
	var hMoves, oMoves float64
	models := map[string]bool{}
	for _, s := range settings {
		a.games += s.opp.Games
		a.distinct += s.distinct
		a.wins += s.opp.Wins
		a.draws += s.opp.Draws
		a.losses += s.opp.Losses
		a.heurDepth += s.heur.AvgDepth * float64(s.heur.Moves)
		a.oppDepth += s.opp.AvgDepth * float64(s.opp.Moves)
		hMoves += float64(s.heur.Moves)
		oMoves += float64(s.opp.Moves)
		for _, r := range s.runs {
			models[modelOf(r, opponent)] = true
		}
	}
	a.heurDepth /= hMoves
	a.oppDepth /= oMoves
	a.score = heurScore(settings).est
	a.heurACPL = pooledACPL(settings, true)
	a.oppACPL = pooledACPL(settings, false)
	a.models = strings.Join(slices.Sorted(func(yield func(string) bool) {
		for m := range models {
			if !yield(m) {
				return
			}
		}
	}), ", ")
	return a
}

// pooledACPL is one engine's ACPL over every setting's distinct games by
// the games' own judge, games as clusters.
func pooledACPL(settings []*setting, heur bool) tracker.Estimate {
	var games []tracker.Cluster
	for _, s := range settings {
		name := s.opp.Name
		if heur {
			name = s.heur.Name
		}
		g, _ := judgedClusters(s, name, false)
		games = append(games, g...)
	}
	return tracker.Ratio(games)
}

// record says how the games went and the heuristic's score: with its t
// interval, or, when every distinct game had the same result (no spread,
// no t interval), with the exact 95% Clopper-Pearson bound on the share of
// games going the other way and the Elo that bound allows.
func (a modernAnswer) record() string {
	// Near 0 or 100% with a spread (a draw among losses, say) whole
	// percent hide the interval: one decimal there.
	prec := 0
	if a.score.SE > 0 && math.Abs(a.score.Value-50) > 40 {
		prec = 1
	}
	s := fmt.Sprintf("%s won %d, drew %d and lost %d of %d games (%d distinct); the heuristic engine's score %s",
		a.label, a.wins, a.draws, a.losses, a.games, a.distinct, strings.Replace(fmtEstimate(a.score, prec), " (", "% (", 1))
	if a.score.SE == 0 && a.score.N >= 2 && (a.score.Value == 0 || a.score.Value == 100) {
		// Every game lost (or won): the heuristic's score is at most the
		// share of games it does not lose, whose exact bound with none in n
		// is clopperPearsonZero(n); a score's Elo is monotone, so the bound
		// carries over.
		bound := clopperPearsonZero(a.score.N)
		if a.score.Value == 0 {
			return s + fmt.Sprintf(", every distinct game the same result, so no t interval: the exact 95%% (Clopper-Pearson) upper bound on the share of games it would win or draw is %.1f%%, so its score is at most that: at most %+.0f Elo for the heuristic, at least %+.0f for %s", 100*bound, eloOf(bound), -eloOf(bound), a.label)
		}
		return s + fmt.Sprintf(", every distinct game the same result, so no t interval: the exact 95%% (Clopper-Pearson) upper bound on the share of games it would draw or lose is %.1f%%, so its score is at least %.1f%%: at least %+.0f Elo for the heuristic", 100*bound, 100-100*bound, eloOf(1-bound))
	}
	if h := a.score.Half(); !math.IsNaN(h) {
		s += fmt.Sprintf(" (Elo %s, from the score and its interval's ends)", eloRange(a.score.Value, a.score.Value-h, a.score.Value+h))
	}
	return s
}

// clopperPearsonZero is the exact two-sided 95% upper bound on a
// probability of which none of n trials showed: 1 - 0.025^(1/n).
func clopperPearsonZero(n int) float64 {
	return 1 - math.Pow(0.025, 1/float64(n))
}

// eloOf is the Elo difference of a score share in (0, 1).
func eloOf(share float64) float64 {
	return -400 * math.Log10(1/share-1)
}

// eloRange is "Elo [lo, hi]" of a score in percent and its interval's ends,
// an end at or past 0 or 100% unbounded.
func eloRange(v, lo, hi float64) string {
	f := func(p float64) string {
		switch {
		case p <= 0:
			return "-∞"
		case p >= 100:
			return "+∞"
		}
		return fmt.Sprintf("%+.0f", eloOf(p/100))
	}
	return fmt.Sprintf("%s [%s, %s]", f(v), f(lo), f(hi))
}

// writeControl writes, under a modern variant's table, its control beside
// it: per node budget and pooled, each opponent's record, the heuristic's
// score, both engines' ACPL and depth, with the conventions of the rest
// (distinct games as units, t intervals, the exact bound when no game
// differs), then what the pair shows.
func writeControl(b *bytes.Buffer, v, cv *variant) {
	b.WriteString("#### The control: preset strong, the same search without the net\n\n")
	fmt.Fprintf(b, "NNUE is preset strong's search with our net in place of its hand-written evaluation, so a win of NNUE may be the search's. The control (`studies/thesis/configs/compute/%s.yaml`) plays preset strong, that search with its hand-written evaluation (PeSTO and `eval_terms`), against the same heuristic engine in the same setting: both engines each row's node budget, the same openings in pairs, move limit and judge (Stockfish depth %d, the thesis's protocol), so the ACPL compares. Score: the heuristic's, with its 95%% t interval over distinct games (\"no spread\": every game the same result). ACPL by the games' own judge, distinct games as clusters. Depth: mean plies per move searched.\n\n",
		cv.exp.ID, cv.exp.JudgeDepth)
	t := &arep.Table{Header: []string{"Node budget", "Heuristic's opponent", "Games", "Opponent won", "Drew", "Opponent lost", "Heuristic's score (%)", "Opponent's ACPL", "Heuristic's ACPL", "Opponent's depth", "Heuristic's depth"}}
	t.Right = arep.RightFrom(2, len(t.Header))
	row := func(budget string, label string, settings []*setting, opponent string) {
		if len(settings) == 0 {
			return
		}
		a := answerOf(settings, opponent)
		t.Rows = append(t.Rows, []arep.Cell{{Text: budget}, {Text: label},
			{Text: fmt.Sprint(a.games)}, {Text: fmt.Sprint(a.wins)}, {Text: fmt.Sprint(a.draws)}, {Text: fmt.Sprint(a.losses)},
			{Text: fmtEstimate(a.score, 1)}, {Text: fmtEstimate(a.oppACPL, 0)}, {Text: fmtEstimate(a.heurACPL, 0)},
			{Text: fmt.Sprintf("%.1f", a.oppDepth)}, {Text: fmt.Sprintf("%.1f", a.heurDepth)}})
	}
	at := func(x *variant, d time.Duration) []*setting {
		for _, s := range x.settings {
			if s.moveTime == d {
				return []*setting{s}
			}
		}
		return nil
	}
	for _, r := range v.exp.Rows {
		budget := thousands(float64(r.Budget.HeurNodes))
		row(budget, v.exp.Label, at(v, r.MoveTime), v.exp.Opponent)
		row(budget, cv.exp.Label+" (control)", at(cv, r.MoveTime), cv.exp.Opponent)
	}
	row("all", v.exp.Label, v.settings, v.exp.Opponent)
	row("all", cv.exp.Label+" (control)", cv.settings, cv.exp.Opponent)
	arep.WriteMarkdownTable(b, t)
	a, c := modernAnswerOf(v), modernAnswerOf(cv)
	fmt.Fprintf(b, "\n- %s.\n- The control: %s.\n- %s\n\n", a.record(), c.record(), controlConclusion(a, c))
}

// controlNote is the line under the verdict table on the control of the
// NNUE row: its result, computed like the row's, and what the pair shows;
// "" without both runs.
func controlNote(k kindRuns) string {
	v, cv := k[modernClaimExp], k[controlExp]
	if v == nil || cv == nil {
		return ""
	}
	a, c := modernAnswerOf(v), modernAnswerOf(cv)
	return fmt.Sprintf("The NNUE row's control, not a conclusion of the thesis (so not in the table nor in its Holm family): preset strong, NNUE's search with its hand-written evaluation, against the heuristic engine in the same setting: %s. %s", c.record(), controlConclusion(a, c))
}

// writeModernMethod says how the modern experiment's budgets follow the
// compute-matched reproduction's; nothing without its runs.
func writeModernMethod(b *bytes.Buffer, variants []*variant) {
	for _, v := range variants {
		if v.exp.Of == "" {
			continue
		}
		b.WriteString("Experiment 1 with NNUE (`compute/exp1-nnue.yaml`, not in the thesis) and its control (`compute/exp1-strong.yaml`: preset strong, the same search without the net): the thesis had no NNUE engine whose nodes a budget could copy. Its measure of compute is nodes per move, and the nnue engine and preset strong count nodes as our heuristic engine does (the same search code, every node once), so at each row of experiment 1 both engines get the heuristic's budget above. Equal nodes are not equal CPU time; node limits make the games independent of the machine's load.\n\n")
		return
	}
}

// modernNotes are the notes under a modern variant's table in place of the
// thesis experiment's node-budget and network notes.
func modernNotes(v *variant, models []string) []string {
	a := modernAnswerOf(v)
	return []string{
		fmt.Sprintf("Node budgets: at each row both engines get the heuristic's budget (the thesis's heuristic nodes converted to nodes counted once; see Method). With the same nodes NNUE searched %.1f plies deep on average, the heuristic %.1f. The times per move are what those nodes cost here on a machine shared with other work at low priority: upper bounds, not speed measurements.", a.oppDepth, a.heurDepth),
		fmt.Sprintf("Network: NNUE's net is ours, %s (from each run's config.yaml; docs/nnue.md); the thesis's numbers in the NN/NNUE columns are its 1-ply NN's.", strings.Join(models, ", ")),
	}
}
