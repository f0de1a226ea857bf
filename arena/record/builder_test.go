package record

import (
	"math"
	"testing"

	"arena/arena/config"
	_ "arena/engines/heuristic" // the engine the config names
)

func TestMedianSketch(t *testing.T) {
	var m medianSketch
	if m.median() != 0 {
		t.Errorf("median of nothing: %v", m.median())
	}
	for _, v := range []float64{5, 1, 1000, 2} {
		m.add(v)
	}
	if got := m.median(); got != 3.5 {
		t.Errorf("median of 1, 2, 5, 1000: %v, want 3.5", got)
	}
	// Past sketchExact values the histogram answers within its bin width,
	// and one huge value does not move it.
	var big medianSketch
	for i := range 10001 {
		big.add(float64(i % 1000))
	}
	big.add(1e9)
	if got := big.median(); math.Abs(got-500)/500 > sketchGrowth {
		t.Errorf("median of 0..999 (10 times) and 1e9: %v, want 500 within 1%%", got)
	}
	if big.exact != nil || len(big.bins) > 1000 {
		t.Errorf("sketch keeps %d exact values and %d bins", len(big.exact), len(big.bins))
	}
}

// Moves with a mate score are left out of the depth averages: Stockfish
// reports depth 245 once it has proved a mate.
func TestDepthAverageLeavesOutMates(t *testing.T) {
	cfg, err := config.Parse("x.yaml", []byte("judge: off\nlimits: {depth: 20}\nengines: [{name: A, engine: heuristic}, {name: B, engine: heuristic}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(cfg, RunInfo{Planned: 1})
	b.Add(&GameRecord{Game: 1, White: "A", Black: "B", Result: "1-0", Termination: TermNormal, Moves: []MoveRecord{
		{Ply: 1, Engine: "A", Depth: 20, SelDepth: 30, ScoreCP: 40},
		{Ply: 2, Engine: "B", Depth: 18, SelDepth: 25, ScoreCP: -40},
		{Ply: 3, Engine: "A", Depth: 22, SelDepth: 32, ScoreCP: 300},
		{Ply: 4, Engine: "B", Depth: 19, SelDepth: 26, Mate: -2},
		{Ply: 5, Engine: "A", Depth: 245, SelDepth: 4, Mate: 1},
	}})
	s := b.Summary()
	a, k := s.Engines[0], s.Engines[1]
	if a.Moves != 3 || a.MateMoves != 1 || a.AvgDepth != 21 || a.AvgSelDep != 31 {
		t.Errorf("A: %d moves, %d mate moves, avg depth %v, seldepth %v; want 3, 1, 21, 31", a.Moves, a.MateMoves, a.AvgDepth, a.AvgSelDep)
	}
	if k.Moves != 2 || k.MateMoves != 1 || k.AvgDepth != 18 {
		t.Errorf("B: %d moves, %d mate moves, avg depth %v; want 2, 1, 18", k.Moves, k.MateMoves, k.AvgDepth)
	}
}
