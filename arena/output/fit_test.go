package output

import (
	"bytes"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/internal/termfit"
	"arena/tracker"
)

// A four-engine round robin's results fit 80 columns: names shortened,
// columns dropped in resultsDrop's order, crosstable cells shortened,
// the Elo lines wrapped. Without a width they are whole.
func TestWriteTableFit(t *testing.T) {
	names := []string{"Heuristic strong preset", "Heuristic thesis listing", "Stockfish Skill Level 0", "Supervised net engine"}
	s := &record.Summary{GamesPlayed: 12, GamesPlanned: 12, Crosstable: &record.Crosstable{Engines: names},
		Ratings: &tracker.Ratings{Anchor: names[0]}}
	for i, n := range names {
		s.Engines = append(s.Engines, record.EngineSummary{Name: n, Games: 6, Wins: i, Draws: 1, Losses: 5 - i, Points: float64(i) + 0.5,
			AvgTime: 0.123, MedianTime: 0.1, AvgNodes: 123456, MedianNodes: 100000, AvgDepth: 7.5, AvgRAMMB: 35.2})
		row := record.CrosstableRow{Engine: n, Games: 6, Points: float64(i) + 0.5}
		for j := range names {
			if j == i {
				row.Cells = append(row.Cells, nil)
				continue
			}
			row.Cells = append(row.Cells, &record.CrossCell{Wins: 1, Draws: 0, Losses: 1, Games: 2, Points: 1})
		}
		s.Crosstable.Rows = append(s.Crosstable.Rows, row)
		s.Ratings.Players = append(s.Ratings.Players, tracker.Rating{Name: n, Elo: -50 * float64(i), Low: -50*float64(i) - 100, High: -50*float64(i) + 100, Games: 6})
		for _, m := range names[i+1:] {
			s.Pairs = append(s.Pairs, record.PairSummary{A: n, B: m, Elo: tracker.EloResult{Wins: 1, Losses: 1, Games: 2, Elo: 0, EloLow: -400, EloHigh: 400}})
		}
	}
	var whole, fit bytes.Buffer
	if err := WriteTable(&whole, s); err != nil {
		t.Fatal(err)
	}
	if err := WriteTableFit(&fit, s, 80); err != nil {
		t.Fatal(err)
	}
	if w := termfit.Widest(whole.String()); w <= 80 || !strings.Contains(whole.String(), "Median Nodes") {
		t.Errorf("whole tables: widest line %d columns, want the full width:\n%s", w, whole.String())
	}
	for line := range strings.SplitSeq(fit.String(), "\n") {
		if termfit.Width(line) > 80 {
			t.Errorf("line of %d columns: %q", termfit.Width(line), line)
		}
	}
	out := fit.String()
	for _, want := range []string{"Score %", "Avg ACPL", "Heuristic ~reset", "1/2", "Heuristic strong preset vs Heuristic thesis listing:"} {
		if !strings.Contains(out, want) {
			t.Errorf("fitted output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Median Nodes") || strings.Contains(out, "(+1 =0 -1)") {
		t.Errorf("fitted output kept what it drops first:\n%s", out)
	}
}
