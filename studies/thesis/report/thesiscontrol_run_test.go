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

// The control's numbers are its committed run's
// (results/thesis/compute/exp1-strong): filed as the control, one run per
// node budget with both engines at it, preset strong's wins and draws and
// the heuristic's score counted here from summary.json's games, and
// docs/reproduction.md printing those counts in the summary and the
// control's table.
func TestControlFromRun(t *testing.T) {
	t.Chdir("../../..")
	runs, err := arep.Load(filepath.Join(ResultsDir, "compute", controlExp))
	if err != nil {
		t.Fatal(err)
	}
	variants, unused := classify(runs)
	if len(unused) != 0 || len(variants) != 1 {
		t.Fatalf("%d variants, %d unused runs; want the run filed as one variant", len(variants), len(unused))
	}
	v := variants[0]
	if v.exp.ID != controlExp || v.exp.ControlOf != modernClaimExp || v.kind != kindCompute || v.book != "balanced.epd" || len(v.settings) != len(v.exp.Rows) {
		t.Fatalf("variant %s/%s/%s with %d settings, want %s, compute, balanced.epd, %d", v.exp.ID, v.kind, v.book, len(v.settings), controlExp, len(v.exp.Rows))
	}
	var games, wins, draws int
	var heurPoints float64
	for i, s := range v.settings {
		if s.moveTime != v.exp.Rows[i].MoveTime || len(s.runs) != 1 {
			t.Fatalf("setting %d at %v with %d runs, want row %v's one run", i, s.moveTime, len(s.runs), v.exp.Rows[i].MoveTime)
		}
		r := s.runs[0]
		want := fmt.Sprintf("nodes %d", v.exp.Rows[i].Budget.HeurNodes)
		for _, e := range r.Summary.Engines {
			if e.Limits != want {
				t.Errorf("%s: %s has limits %q, want %q (both engines at the heuristic's budget)", r.Dir, e.Name, e.Limits, want)
			}
		}
		if p := presetsOf(r); p[s.heur.Name] != "thesis" || p[s.opp.Name] != "strong" {
			t.Errorf("%s: presets %v, want the heuristic's thesis and its opponent's strong", r.Dir, p)
		}
		n, w, d, hp := countAgainstHeuristic(r, s.opp.Name)
		games, wins, draws, heurPoints = games+n, wins+w, draws+d, heurPoints+hp
	}
	if games != 80 {
		t.Errorf("%d games, want experiment 1's 16 per row", games)
	}
	a := modernAnswerOf(v)
	if a.wins != wins || a.draws != draws || a.games != games {
		t.Errorf("the report's record %d/%d/%d games, the games' %d wins, %d draws of %d", a.wins, a.draws, a.games, wins, draws, games)
	}
	if want := 100 * heurPoints / float64(games); math.Abs(a.score.Value-want) > 1e-9 || a.score.N != games {
		t.Errorf("heuristic's score %v%% over %d games, the games' %v%% over %d", a.score.Value, a.score.N, want, games)
	}
	doc, err := os.ReadFile(filepath.Join("docs", "reproduction.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("Strong won %d, drew %d and lost %d of %d games", wins, draws, games-wins-draws, games),
		fmt.Sprintf("| all | Strong (control) | %d | %d | %d | %d | %s |", games, wins, draws, games-wins-draws, fmtEstimate(a.score, 1)),
	} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/reproduction.md lacks %q", want)
		}
	}
}

// countAgainstHeuristic counts run r's games from its summary: how many,
// the opponent's wins, the draws, and the heuristic's points.
func countAgainstHeuristic(r *arep.Run, opp string) (games, oppWins, draws int, heurPoints float64) {
	for _, g := range r.Summary.Games {
		games++
		switch {
		case g.Result == "1/2-1/2":
			draws++
			heurPoints += 0.5
		case (g.Result == "1-0") == (g.White == opp):
			oppWins++
		default:
			heurPoints++
		}
	}
	return games, oppWins, draws, heurPoints
}
