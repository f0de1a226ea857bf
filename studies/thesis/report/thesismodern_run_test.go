package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	arep "arena/arena/report"
)

// The modern row is built from the committed run of experiment 1 against
// nnue (results/thesis/compute/exp1-nnue): its settings are the run's five
// node budgets, NNUE's wins and the heuristic's score are the games'
// results counted here from summary.json's game list, independently of the
// report's pooling, and docs/reproduction.md says those numbers.
func TestModernRowFromRun(t *testing.T) {
	t.Chdir("../../..")
	dir := filepath.Join(ResultsDir, "compute", "exp1-nnue")
	runs, err := arep.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	variants, unused := classify(runs)
	if len(unused) != 0 || len(variants) != 1 {
		t.Fatalf("%d variants, %d unused runs; want the run filed as one variant", len(variants), len(unused))
	}
	v := variants[0]
	if v.exp.ID != "exp1-nnue" || v.kind != kindCompute || v.book != "balanced.epd" || len(v.settings) != len(v.exp.Rows) {
		t.Fatalf("variant %s/%s/%s with %d settings, want exp1-nnue, compute, balanced.epd, %d", v.exp.ID, v.kind, v.book, len(v.settings), len(v.exp.Rows))
	}
	var games, nnueWins, draws int
	var heurPoints float64
	for i, s := range v.settings {
		if s.moveTime != v.exp.Rows[i].MoveTime || len(s.runs) != 1 {
			t.Fatalf("setting %d at %v with %d runs, want row %v's one run", i, s.moveTime, len(s.runs), v.exp.Rows[i].MoveTime)
		}
		sum := s.runs[0].Summary
		want := fmt.Sprintf("nodes %d", v.exp.Rows[i].Budget.HeurNodes)
		for _, e := range sum.Engines {
			if e.Limits != want {
				t.Errorf("%s: %s has limits %q, want %q (both engines at the heuristic's budget)", s.runs[0].Dir, e.Name, e.Limits, want)
			}
		}
		n, rowWins, d, hp := countAgainstHeuristic(s.runs[0], s.opp.Name)
		games, nnueWins, draws, heurPoints = games+n, nnueWins+rowWins, draws+d, heurPoints+hp
		if s.opp.Wins != rowWins || s.opp.Engine != NNUEEngine {
			t.Errorf("row %v: the report's NNUE wins %d (engine %q), the games' %d", s.moveTime, s.opp.Wins, s.opp.Engine, rowWins)
		}
		// The comparison table's wins cell, "thesis / ours".
		cell := comparisonTable(v).Rows[i][3].Text
		if !strings.HasSuffix(cell, fmt.Sprintf(" / %d", rowWins)) {
			t.Errorf("row %v: NN/NNUE wins cell %q, want ours %d", s.moveTime, cell, rowWins)
		}
	}
	if games != 80 {
		t.Errorf("%d games, want experiment 1's 16 per row", games)
	}
	score := heurScore(v.settings)
	if want := 100 * heurPoints / float64(games); math.Abs(score.est.Value-want) > 1e-9 || score.est.N != games {
		t.Errorf("heuristic's score %v%% over %d games, the games' %v%% over %d", score.est.Value, score.est.N, want, games)
	}
	doc, err := os.ReadFile(filepath.Join("docs", "reproduction.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("NNUE won %d, drew %d and lost %d of %d games", nnueWins, draws, games-nnueWins-draws, games)
	if !strings.Contains(string(doc), want) {
		t.Errorf("docs/reproduction.md lacks %q", want)
	}
}
