package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"arena/arena/record"
	arep "arena/arena/report"
	"arena/tracker"
)

// A run of the heuristic engine against nnue is experiment 1 with NNUE
// only when both engines have the same node budget of one of experiment
// 1's rows: another opponent budget, a depth or a movetime is not it.
func TestModernRowOf(t *testing.T) {
	run := func(heur, opp string) *arep.Run {
		return &arep.Run{Summary: &record.Summary{MaxMoves: 180, Openings: "balanced.epd", Engines: []record.EngineSummary{
			{Name: "Heuristic", Engine: HeuristicEngine, Limits: heur}, {Name: "NNUE", Engine: NNUEEngine, Limits: opp}}}}
	}
	for _, c := range []struct {
		heur, opp string
		placed    bool
	}{
		{"nodes 45300", "nodes 45300", true},
		{"nodes 45300", "nodes 10000", false},
		{"nodes 45300", "depth 1", false},
		{"nodes 45301", "nodes 45301", false},
		{"movetime 3s", "movetime 3s", false},
	} {
		r := run(c.heur, c.opp)
		exp, heur, opp := experimentOf(r)
		if exp == nil || exp.ID != "exp1-nnue" || heur.Engine != HeuristicEngine || opp.Engine != NNUEEngine {
			t.Fatalf("%s / %s: experiment %v, want exp1-nnue", c.heur, c.opp, exp)
		}
		d, kind, ok := rowOf(exp, heur, opp, true)
		if ok != c.placed || (ok && (kind != kindCompute || d != exp.Rows[1].MoveTime)) {
			t.Errorf("%s / %s: row %v %q placed %v, want placed %v (at %v, compute)", c.heur, c.opp, d, kind, ok, c.placed, exp.Rows[1].MoveTime)
		}
	}
}

// With every game lost there is no t interval: the summary gives the exact
// bound instead, 1 - 0.025^(1/n) (4.5% at 80 games, -530 Elo), and with a
// spread the score's Elo and its interval's.
func TestModernRecord(t *testing.T) {
	if b := clopperPearsonZero(80); math.Abs(b-0.0451) > 5e-4 || math.Abs(eloOf(b)+530) > 1 {
		t.Errorf("bound %v (Elo %v), want 0.0451 (-530)", b, eloOf(b))
	}
	lost := modernAnswer{games: 80, distinct: 80, wins: 80, score: tracker.Mean(make([]float64, 80))}
	if got := lost.record(); !strings.Contains(got, "0% (n 80, no spread)") || !strings.Contains(got, "is 4.5%") || !strings.Contains(got, "at most -530 Elo for the heuristic") {
		t.Errorf("record %q", got)
	}
	spread := modernAnswer{games: 4, distinct: 4, wins: 2, draws: 2}
	spread.score.Value, spread.score.SE, spread.score.DF, spread.score.N = 25, 14.4, 3, 4
	want := fmt.Sprintf("Elo -191 [-∞, %+.0f]", eloOf((25+spread.score.Half())/100))
	if got := spread.record(); !strings.Contains(got, "25 ± 46% (n 4)") || !strings.Contains(got, want) {
		t.Errorf("record %q, want %q in it", got, want)
	}
	// One draw in 80 games (the control's record): one decimal, so the
	// interval shows.
	drawn := make([]float64, 80)
	drawn[0] = 50
	one := modernAnswer{label: "Strong", games: 80, distinct: 80, wins: 79, draws: 1, score: tracker.Mean(drawn)}
	if got := one.record(); !strings.Contains(got, "Strong won 79, drew 1 and lost 0 of 80 games") || !strings.Contains(got, "0.6 ± 1.2% (n 80)") {
		t.Errorf("record %q, want Strong's 79 wins and 0.6 ± 1.2%%", got)
	}
}
