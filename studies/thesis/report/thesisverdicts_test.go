package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"arena/arena/record"
	arep "arena/arena/report"
	"arena/tracker"
)

// A setting of games between H (the heuristic) and O with the given results
// (from White's side; H is White in even games) and, per game, O's
// centipawn losses.
func verdictSetting(results []string, oppCPL [][]float64) *setting {
	r := &arep.Run{Summary: &record.Summary{}}
	wins := 0
	for i, res := range results {
		w, b := "H", "O"
		if i%2 == 1 {
			w, b = "O", "H"
		}
		if (res == "1-0" && w == "O") || (res == "0-1" && b == "O") {
			wins++
		}
		r.Summary.Games = append(r.Summary.Games, record.GameSummary{Game: i + 1, White: w, Black: b, Result: res})
	}
	for g, cpls := range oppCPL {
		for _, c := range cpls {
			r.Moves = append(r.Moves, arep.Move{Game: g + 1, Engine: "O", CPL: &c})
		}
	}
	s := &setting{runs: []*arep.Run{r}, heur: record.EngineSummary{Name: "H"}, opp: record.EngineSummary{Name: "O", Wins: wins, Games: len(results)},
		first: map[gameRef]bool{}}
	for _, g := range r.Summary.Games {
		s.first[gameRef{r, g.Game}] = true // every game distinct: see TestStatsOf
	}
	return s
}

func TestVerdict(t *testing.T) {
	nan := math.NaN()
	est := func(v, se float64) result {
		return result{est: tracker.Estimate{Value: v, SE: se, DF: 5, N: 6}}
	}
	for _, c := range []struct {
		r    result
		want int
		adjP float64
		out  string
	}{
		{est(10, 2), +1, 0.01, "holds"},
		{est(-10, 2), +1, 0.01, "contradicted"},
		{est(10, 2), +1, 0.2, "not shown"}, // significant alone, not after Holm
		{est(3, 5), 0, 0.6, "not shown"},   // no difference found is not shown
		{est(30, 5), 0, 0.01, "contradicted"},
		{est(-10, 2), -1, 0.01, "holds"},
		{result{est: tracker.Estimate{Value: 0, N: 6}, count: true}, -1, nan, "holds"}, // no wins in 6 games
		{result{est: tracker.Estimate{Value: 2, N: 6}, count: true}, -1, nan, "contradicted"},
		{est(5, nan), +1, nan, "too few games"},
		{est(nan, nan), +1, nan, "no runs"},
	} {
		if got := verdict(c.r, claim{want: c.want}, c.adjP); got != c.out {
			t.Errorf("verdict(%+v, %d, p %v) = %q, want %q", c.r.est, c.want, c.adjP, got, c.out)
		}
	}
}

// The heuristic's score over games it won as White, lost as Black, won as
// White and drew: per-game scores 100, 0, 100, 50.
func TestHeurScore(t *testing.T) {
	s := verdictSetting([]string{"1-0", "1-0", "1-0", "1/2-1/2"}, nil)
	r := heurScore([]*setting{s})
	if r.est.N != 4 || math.Abs(r.est.Value-62.5) > 1e-9 {
		t.Fatalf("score %+v, want 62.5%% over 4 games", r.est)
	}
	// Mean 62.5, sd 47.87, SE 23.94; 3 df: half 3.1824 * 23.94 = 76.2
	// (1.96 would say 46.9); p of t = 12.5/23.94 = 0.522 with 3 df: 0.64.
	if math.Abs(r.est.Half()-76.18) > 0.01 || math.Abs(r.p(claim{center: 50})-0.638) > 0.001 {
		t.Errorf("half-width %.3f (want 76.18), p %.4f (want 0.638)", r.est.Half(), r.p(claim{center: 50}))
	}
	if w := oppWins([]*setting{s}); w.est.Value != 1 || w.est.N != 4 || !math.IsNaN(w.p(claim{})) {
		t.Errorf("opponent wins %+v, want 1 in 4 and no test", w)
	}
}

// A full section: the kinds present become columns, a claim without runs
// is "–", and the plain-words summary lists what holds.
func TestWriteVerdicts(t *testing.T) {
	exp := func(id string) *ThesisExperiment {
		for i := range Thesis {
			if Thesis[i].ID == id {
				return &Thesis[i]
			}
		}
		t.Fatalf("no experiment %s", id)
		return nil
	}
	wins := []string{"1-0", "0-1", "1-0", "0-1", "1-0", "0-1"} // H wins all six
	ref := verdictSetting(wins, [][]float64{{200, 220}, {180, 200}, {210, 190}})
	mcts := verdictSetting(wins, [][]float64{{50, 70}, {60, 40}, {55, 65}})
	variants := []*variant{
		{exp: exp("exp1-reference"), kind: kindCompute, book: "balanced.epd", settings: []*setting{ref}},
		{exp: exp("exp2"), kind: kindCompute, book: "balanced.epd", settings: []*setting{mcts}},
	}
	var b bytes.Buffer
	writeVerdicts(&b, verdicts(variants))
	out := b.String()
	for _, want := range []string{
		"**Holm p** is the two-sided p-value adjusted",
		"| Compute-matched |",
		// 6 wins in 6 games: no spread, so the sign test's p 2/64 = 0.031;
		// Holm over the table's 3 tests (the ACPL difference's p is tiny)
		// doubles it: not shown.
		"| The heuristic engine beats MCTS-NN | heuristic's score in experiment 2 | – | not shown: 100% (n 6, no spread), Holm p 0.062, 0 ended on time |",
		"| MCTS-NN plays better than the 1-ply NN |",
		"holds: +143 ±",
		"| The 1-ply NN never wins against the heuristic engine | the NN's wins in experiment 1 and its reference match | – | holds: 0 in 6 games, 0 ended on time |",
		"| The heuristic engine beats the SL engine | heuristic's score in experiment 3 | – | – |",
		"- Compute-matched, by the games' own judge: holds: MCTS-NN plays better than the 1-ply NN; the 1-ply NN never wins against the heuristic engine; none is contradicted",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, modernClaim.text) {
		t.Errorf("section has the NNUE claim without its runs:\n%s", out)
	}
	// With experiment 1 against NNUE (the heuristic loses all six) the
	// NNUE claim is one more test of the family: Holm multiplies the
	// smallest-but-one of 4 p-values by 3, so the two scores' sign-test
	// p of 1/32 become 0.094 (0.062 with 3 tests).
	lost := verdictSetting([]string{"0-1", "1-0", "0-1", "1-0", "0-1", "1-0"}, nil)
	variants = append(variants, &variant{exp: &Modern[0], kind: kindCompute, book: "balanced.epd", settings: []*setting{lost}})
	b.Reset()
	writeVerdicts(&b, verdicts(variants))
	out = b.String()
	for _, want := range []string{
		"| The heuristic engine beats MCTS-NN | heuristic's score in experiment 2 | – | not shown: 100% (n 6, no spread), Holm p 0.094, 0 ended on time |",
		"| " + modernClaim.text + " | " + modernClaim.measure + " | – | not shown: 0% (n 6, no spread), Holm p 0.094, 0 ended on time |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
	// The control (preset strong wins all six too) is a line under the
	// table, not a test of the family: the Holm p-values stay 0.094.
	variants = append(variants, &variant{exp: &Modern[1], kind: kindCompute, book: "balanced.epd", settings: []*setting{lost}})
	b.Reset()
	writeVerdicts(&b, verdicts(variants))
	out = b.String()
	for _, want := range []string{
		"| " + modernClaim.text + " | " + modernClaim.measure + " | – | not shown: 0% (n 6, no spread), Holm p 0.094, 0 ended on time |",
		"- The NNUE row's control, not a conclusion of the thesis (so not in the table nor in its Holm family): preset strong, NNUE's search with its hand-written evaluation, against the heuristic engine in the same setting: Strong won 6, drew 0 and lost 0 of 6 games",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
}
