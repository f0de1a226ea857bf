package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

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
		"NNUE differs from the thesis's heuristic engine in its search as well as its evaluation (preset strong: every seed-002 technique, a table kept between moves; docs/nnue.md), so its result here is a neural evaluation inside a modern search against the thesis's engine, not the net against a hand-written evaluation in the same search. That is nnue against preset strong, the same search with PeSTO and `eval_terms`: docs/nnue.md, \"Strength against strong\".",
	}
	return []ThesisExperiment{m}
}

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

// modernOf is the modern experiments asking the thesis experiment id again.
func modernOf(id string) []*ThesisExperiment {
	var out []*ThesisExperiment
	for i := range Modern {
		if Modern[i].Of == id {
			out = append(out, &Modern[i])
		}
	}
	return out
}

// modernClaimExp is the experiment modernClaim rests on: the claim is in
// the verdict table when the compute-matched runs include it.
const modernClaimExp = "exp1-nnue"

// modernClaim tests the thesis's conclusion on the engine it did not have:
// one more row of the verdict table, Holm-adjusted with the rest.
var modernClaim = claim{
	text:    "The heuristic engine beats a neural evaluation (asked of NNUE, which the thesis did not have)",
	measure: "heuristic's score against NNUE (preset strong's search, our NNUE net) at experiment 1's node budgets, both engines the same nodes per move",
	unit:    "%", center: 50, want: +1,
	eval: func(k kindRuns, _ string) result { return heurScore(k.settingsOf(modernClaimExp)) },
}

// writeModernSummary writes the summary's paragraph on the modern answer:
// the games, the score with its interval (or, when every game had the same
// result, the exact bound) and both engines' ACPL; nothing without its runs.
func writeModernSummary(b *bytes.Buffer, variants []*variant) {
	for _, v := range variants {
		if v.exp.Of == "" || v.kind != kindCompute {
			continue
		}
		a := modernAnswerOf(v)
		fmt.Fprintf(b, "**The thesis's question, asked of NNUE.** The thesis asked whether a neural evaluation can beat a hand-written one; its nets lost. NNUE (preset strong's search with our NNUE net, %s), which it did not have, against its heuristic engine at experiment 1's compute-matched budgets, both engines the same nodes per move (section \"%s\"): %s. ",
			a.models, v.exp.Title, a.record())
		fmt.Fprintf(b, "ACPL by the games' own judge (depth %d): NNUE %s, the heuristic %s; NNUE searched %.1f plies deep on average with the same nodes, the heuristic %.1f. ",
			v.exp.JudgeDepth, fmtEstimate(a.oppACPL, 0), fmtEstimate(a.heurACPL, 0), a.oppDepth, a.heurDepth)
		b.WriteString("The thesis's 1-ply NN, in the same setting, never won (experiment 1). The win is the search's as well as the net's: the net against a hand-written evaluation in the same search is nnue against preset strong (docs/nnue.md).\n\n")
	}
}

// modernAnswer is what the summary says of a modern variant: pooled over
// its settings' distinct games.
type modernAnswer struct {
	games, distinct, wins, draws, losses int              // the opponent's (NNUE's)
	score                                tracker.Estimate // the heuristic's score in percent
	heurACPL, oppACPL                    tracker.Estimate
	heurDepth, oppDepth                  float64
	models                               string
}

func modernAnswerOf(v *variant) modernAnswer {
	var a modernAnswer
	var heurAll, oppAll []*setting
	var hMoves, oMoves float64
	models := map[string]bool{}
	for _, s := range v.settings {
		a.games += s.opp.Games
		a.distinct += s.distinct
		a.wins += s.opp.Wins
		a.draws += s.opp.Draws
		a.losses += s.opp.Losses
		heurAll = append(heurAll, s)
		oppAll = append(oppAll, s)
		a.heurDepth += s.heur.AvgDepth * float64(s.heur.Moves)
		a.oppDepth += s.opp.AvgDepth * float64(s.opp.Moves)
		hMoves += float64(s.heur.Moves)
		oMoves += float64(s.opp.Moves)
		for _, r := range s.runs {
			models[modelOf(r, v.exp.Opponent)] = true
		}
	}
	a.heurDepth /= hMoves
	a.oppDepth /= oMoves
	a.score = heurScore(v.settings).est
	a.heurACPL = pooledACPL(heurAll, true)
	a.oppACPL = pooledACPL(oppAll, false)
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
	s := fmt.Sprintf("NNUE won %d, drew %d and lost %d of %d games (%d distinct); the heuristic engine's score %s",
		a.wins, a.draws, a.losses, a.games, a.distinct, strings.Replace(fmtEstimate(a.score, 0), " (", "% (", 1))
	if a.score.SE == 0 && a.score.N >= 2 && (a.score.Value == 0 || a.score.Value == 100) {
		// Every game lost (or won): the heuristic's score is at most the
		// share of games it does not lose, whose exact bound with none in n
		// is clopperPearsonZero(n); a score's Elo is monotone, so the bound
		// carries over.
		bound := clopperPearsonZero(a.score.N)
		if a.score.Value == 0 {
			return s + fmt.Sprintf(", every distinct game the same result, so no t interval: the exact 95%% (Clopper-Pearson) upper bound on the share of games it would win or draw is %.1f%%, so its score is at most that: at most %+.0f Elo for the heuristic, at least %+.0f for NNUE", 100*bound, eloOf(bound), -eloOf(bound))
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

// writeModernMethod says how the modern experiment's budgets follow the
// compute-matched reproduction's; nothing without its runs.
func writeModernMethod(b *bytes.Buffer, variants []*variant) {
	for _, v := range variants {
		if v.exp.Of == "" {
			continue
		}
		b.WriteString("Experiment 1 with NNUE (`compute/exp1-nnue.yaml`, not in the thesis): the thesis had no NNUE engine whose nodes a budget could copy. Its measure of compute is nodes per move, and the nnue engine counts nodes as our heuristic engine does (the same search code, every node once), so at each row of experiment 1 both engines get the heuristic's budget above. Equal nodes are not equal CPU time; node limits make the games independent of the machine's load.\n\n")
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
