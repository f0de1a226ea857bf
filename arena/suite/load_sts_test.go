package suite

import (
	"path/filepath"
	"testing"
)

func TestShippedSTS(t *testing.T) {
	files, err := filepath.Glob("../../configs/suites/sts/*.epd")
	if err != nil || len(files) != 15 {
		t.Fatalf("STS files: %v, %v", files, err)
	}
	ps, err := LoadFiles(files...)
	if err != nil {
		t.Fatal(err)
	}
	themes, total := Tallies(ps, [][]Result{make([]Result, len(ps))})
	if len(ps) != 1500 || total[0].Max != 15000 || len(themes) != 15 {
		t.Fatalf("%d positions, %d points, %d themes; want 1500, 15000, 15", len(ps), total[0].Max, len(themes))
	}
	for _, th := range themes {
		if th.Tallies[0].Positions != 100 || th.Tallies[0].Max != 1000 {
			t.Errorf("theme %s: %d positions, %d points; want 100, 1000", th.Name, th.Tallies[0].Positions, th.Tallies[0].Max)
		}
	}
}
