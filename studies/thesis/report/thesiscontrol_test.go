package report

import (
	"fmt"
	"strings"
	"testing"

	"arena/arena/record"
	arep "arena/arena/report"
	"arena/tracker"
)

// A run of two heuristic engines is the control of experiment 1 with NNUE
// only when one has preset thesis and the other preset strong (in either
// order): the thesis's engine is the one with preset thesis. Two other
// presets are no experiment.
func TestControlRunOf(t *testing.T) {
	run := func(first, second string) *arep.Run {
		return &arep.Run{
			Config: fmt.Sprintf("engines:\n  - name: A\n    engine: heuristic\n    options: {preset: %s, pst: thesis}\n  - name: B\n    engine: heuristic\n    options: {preset: %s}\n", first, second),
			Summary: &record.Summary{MaxMoves: 180, Openings: "balanced.epd", Engines: []record.EngineSummary{
				{Name: "A", Engine: HeuristicEngine, Limits: "nodes 18300"}, {Name: "B", Engine: HeuristicEngine, Limits: "nodes 18300"}}},
		}
	}
	for _, c := range []struct {
		first, second string
		heur          string // "": no experiment
	}{
		{"thesis", "strong", "A"},
		{"strong", "thesis", "B"},
		{"thesis", "thesis", ""},
		{"thesis", "fast", ""},
		{"strong", "strong", ""},
	} {
		exp, heur, opp := experimentOf(run(c.first, c.second))
		switch {
		case c.heur == "" && exp != nil:
			t.Errorf("%s vs %s: filed as %s, want no experiment", c.first, c.second, exp.ID)
		case c.heur != "" && (exp == nil || exp.ID != controlExp || heur.Name != c.heur || opp.Name == c.heur):
			t.Errorf("%s vs %s: experiment %v, heuristic %q, want %s with %q the thesis's engine", c.first, c.second, exp, heur.Name, controlExp, c.heur)
		}
	}
}

// What the pair shows follows from which of them won: a score of 0 in 80
// games shows a win (sign test), 50 ± 10 does not.
func TestControlConclusion(t *testing.T) {
	won := modernAnswer{score: tracker.Mean(make([]float64, 80))}
	even := modernAnswer{score: tracker.Estimate{Value: 50, SE: 5, DF: 79, N: 80}}
	for _, c := range []struct {
		a, c modernAnswer
		want string
	}{
		{won, won, "the modern search wins with either evaluation"},
		{won, even, "the net adds to the search here"},
		{even, won, "the net costs the search here"},
		{even, even, "Neither shows a win"},
	} {
		if got := controlConclusion(c.a, c.c); !strings.Contains(got, c.want) || !strings.Contains(got, "nnue against preset strong") {
			t.Errorf("%v, %v: %q, want %q and the pointer to nnue against strong", c.a.score, c.c.score, got, c.want)
		}
	}
}
