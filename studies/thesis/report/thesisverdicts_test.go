package report

import (
	arep "arena/arena/report"
	"bytes"
	"math"
	"strings"
	"testing"

	"arena/arena/record"
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
	return &setting{runs: []*arep.Run{r}, heur: record.EngineSummary{Name: "H"}, opp: record.EngineSummary{Name: "O", Wins: wins, Games: len(results)}}
}

func TestVerdict(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		m    measure
		want int
		out  string
	}{
		{measure{10, 5, 4}, +1, "holds"},
		{measure{-10, 5, 4}, +1, "contradicted"},
		{measure{3, 5, 4}, +1, "not shown"},
		{measure{3, 5, 4}, 0, "consistent"},
		{measure{30, 5, 4}, 0, "contradicted"},
		{measure{0, 0, 6}, -1, "holds"}, // no wins in 6 games
		{measure{2, 0, 6}, -1, "contradicted"},
		{measure{5, nan, 1}, +1, "too few games"},
		{measure{nan, nan, 0}, +1, "no runs"},
	} {
		if got := verdict(c.m, 0, c.want); got != c.out {
			t.Errorf("verdict(%+v, %d) = %q, want %q", c.m, c.want, got, c.out)
		}
	}
}

// The heuristic's score over games it won as White, lost as Black, won as
// White and drew: per-game scores 100, 0, 100, 50.
func TestHeurScore(t *testing.T) {
	s := verdictSetting([]string{"1-0", "1-0", "1-0", "1/2-1/2"}, nil)
	m := heurScore([]*setting{s})
	if m.units != 4 || math.Abs(m.value-62.5) > 1e-9 {
		t.Fatalf("score %+v, want 62.5%% over 4 games", m)
	}
	// Mean 62.5, sd 47.87; half 1.96*47.87/2 = 46.9: not shown against 50%.
	if math.Abs(m.half-46.91) > 0.01 {
		t.Errorf("half-width %.3f, want 46.91", m.half)
	}
	if v := verdict(m, 50, +1); v != "not shown" {
		t.Errorf("verdict %q", v)
	}
	if w := oppWins([]*setting{s}); w.value != 1 || w.units != 4 {
		t.Errorf("opponent wins %+v, want 1 in 4", w)
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
	writeVerdicts(&b, variants)
	out := b.String()
	for _, want := range []string{
		"## Which of the thesis's conclusions hold",
		"| Compute-matched |",
		"| The heuristic engine beats MCTS-NN | heuristic's score in experiment 2 | – | holds: 100 ± 0% (6 games) |",
		"| MCTS-NN plays better than the 1-ply NN |",
		"holds: +143 ±",
		"| The 1-ply NN never wins against the heuristic engine | the NN's wins in experiment 1 and its reference match | – | holds: 0 in 6 games |",
		"| The heuristic engine beats the SL engine | heuristic's score in experiment 3 | – | – |",
		"- Compute-matched, by the games' own judge: holds: the heuristic engine beats the 1-ply NN; the heuristic engine beats MCTS-NN; MCTS-NN plays better",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("section lacks %q:\n%s", want, out)
		}
	}
}
