package report

import (
	"bytes"
	"fmt"
	"strings"
)

// mctsClaim is the verdict row the thesis's own finding on MCTS stands
// beside.
const mctsClaim = "MCTS-NN plays better than the 1-ply NN"

// writeSummary writes the one-page summary that opens docs/reproduction.md:
// what was reproduced and what not, and the verdict table.
func writeSummary(b *bytes.Buffer, variants []*variant) {
	b.WriteString("## Summary\n\n")
	games, distinct := 0, 0
	kinds := map[string]bool{}
	for _, v := range variants {
		if v.exp.Of != "" {
			continue // not the thesis's experiments: writeModernSummary
		}
		kinds[v.kind] = true
		for _, s := range v.settings {
			games += s.heur.Games
			distinct += s.distinct
		}
	}
	var present []string
	for _, k := range kindOrder {
		if kinds[k] {
			present = append(present, strings.ToLower(kindTitle(k)))
		}
	}
	fmt.Fprintf(b, "**Reproduced.** The thesis's three experiments (its heuristic alpha-beta engine against the 1-ply NN, MCTS-NN and the SL engine, THESIS.md 1.6) in %d games (%d distinct), as %s reproductions (see Method). Both engines play as the thesis's listing does, bugs included (`preset: thesis`), judged by Stockfish at the thesis's depths.\n\n",
		games, distinct, strings.Join(present, ", "))
	b.WriteString("**Not reproduced.** The thesis's networks: its weights are not available, so every network engine here plays with our nets (the 1-ply NN and MCTS-NN with our self-play net, the SL engine with our supervised net), and every claim about a net is tested on ours. Its machine: at the thesis's seconds per move our Go heuristic engine searches hundreds of times its nodes (the compute-matched reproduction gives each engine the thesis's nodes per move instead). Its RAM figures (one Python process for both engines) and its Stockfish version (not stated). ")
	fmt.Fprintf(b, "Its game counts are too small to test anything: %s games per setting, at most 2 distinct from the start position.\n\n", thesisGames())
	writeCappedSummary(b, variants)
	vt := verdicts(variants)
	if vt == nil {
		b.WriteString("No runs of a thesis experiment among the directories given.\n\n")
		return
	}
	b.WriteString("**The thesis's conclusions on our runs.** ")
	writeVerdicts(b, vt)
	if words := vt.words[mctsClaim]; words != nil {
		var ours []string
		for _, k := range vt.kinds {
			ours = append(ours, fmt.Sprintf("%s %s", strings.ToLower(kindTitle(k)), words[k]))
		}
		var nodes, acpl []string
		for _, e := range Thesis {
			if e.ID == "exp2" {
				for _, r := range e.Rows {
					nodes = append(nodes, fmt.Sprintf("%s at %s", thousands(r.OppNodes), fmtSeconds(r.MoveTime)))
					acpl = append(acpl, fmt.Sprintf("%.0f", r.OppACPL))
				}
			}
		}
		fmt.Fprintf(b, "On MCTS, the thesis itself found no real gain: in its chapter 3 (the text beside figures 3.4-3.6) MCTS-NN searched more nodes with more time (%s) without playing better (ACPL %s), which it put down to a weak value network trained on little data and the lack of a policy head. Beside that, our verdict on \"%s\" by the games' own judge: %s.\n\n",
			strings.Join(nodes, ", "), strings.Join(acpl, ", "), mctsClaim, strings.Join(ours, "; "))
	}
	writeModernSummary(b, variants)
}

// writeCappedSummary says in one sentence what drives the heuristic
// engine's ACPL in experiment 1, where the note under each variant shows
// the mate-sign bug's signature.
func writeCappedSummary(b *bytes.Buffer, variants []*variant) {
	var shares []string
	for _, v := range variants {
		if v.exp.ID != "exp1" {
			continue
		}
		c := cappedOf(v, true)
		if !c.mateSign() {
			return
		}
		shares = append(shares, fmt.Sprintf("%.0f%% (%s)", 100*c.cappedLoss/c.loss, strings.ToLower(kindTitle(v.kind))))
	}
	if len(shares) == 0 {
		return
	}
	fmt.Fprintf(b, "**Experiment 1's heuristic ACPL is an artefact.** Of the heuristic engine's centipawn loss in experiment 1 (by the games' own judge), %s comes from moves capped at the judge's cap: the thesis engine's mate-sign bug, which `preset: thesis` keeps. As White it shuffles in a won position instead of mating; the judge charges each missed mate at the cap and scores the repetition a draw. The tables give the ACPL without capped moves beside it (notes under experiment 1).\n\n", strings.Join(shares, ", "))
}
