package nnengine

import (
	"math"
	"testing"

	"arena/engines"
	"arena/engines/board"
)

func TestValueToCP(t *testing.T) {
	for _, c := range []struct {
		v  float64
		cp int
	}{{0, 0}, {0.1, 54}, {0.5, 298}, {-0.5, -298}, {0.9, 800}, {1, 2690}, {-1, -2690}, {math.Inf(1), 2690}} {
		if got := ValueToCP(c.v); got != c.cp {
			t.Errorf("ValueToCP(%v) = %d, want %d", c.v, got, c.cp)
		}
	}
	// The inverse of the tracker's winning chances: tanh(0.00184104*cp).
	for _, cp := range []int{-1500, -300, -20, 7, 150, 900} {
		if got := ValueToCP(math.Tanh(0.00368208 / 2 * float64(cp))); got != cp {
			t.Errorf("ValueToCP(winning chances of %d cp) = %d", cp, got)
		}
	}
}

// TestStatus: Status on a generated move list agrees with the board's.
func TestStatus(t *testing.T) {
	games := []engines.Position{
		{},
		{FEN: "7k/8/8/8/8/8/5q2/7K w - - 0 1"}, // stalemate
		{FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"},            // checkmate
		{FEN: "8/8/8/8/8/k7/8/K6R w - - 100 80"},                                          // fifty moves
		{FEN: "8/8/8/8/8/k7/8/K2B4 w - - 0 1"},                                            // insufficient material
		{Moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}}, // threefold
	}
	want := []board.Status{board.Ongoing, board.Stalemate, board.Checkmate, board.FiftyMoves, board.InsufficientMaterial, board.Threefold}
	for i, g := range games {
		p, err := SetupPosition("test", g)
		if err != nil {
			t.Fatal(err)
		}
		var ml board.MoveList
		p.GenerateLegal(&ml)
		if got := Status(p, &ml, false); got != want[i] || got != p.Status() {
			t.Errorf("%v: Status %v, board %v, want %v", g, got, p.Status(), want[i])
		}
	}
}

// TestStatusThesisDraws: with the listing's rules (python-chess's
// is_game_over) a threefold repetition and fifty moves play on, a fivefold
// and 75 moves end the game, and mates still count at 75 moves.
func TestStatusThesisDraws(t *testing.T) {
	cycle := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	var three, five []string
	for i := 0; i < 4; i++ {
		if i < 2 {
			three = append(three, cycle...)
		}
		five = append(five, cycle...)
	}
	tests := []struct {
		g    engines.Position
		want board.Status
	}{
		{engines.Position{Moves: three}, board.Ongoing},
		{engines.Position{Moves: five}, board.Threefold},
		{engines.Position{FEN: "8/8/8/8/8/k7/8/K6R w - - 100 80"}, board.Ongoing},
		{engines.Position{FEN: "8/8/8/8/8/k7/8/K6R w - - 150 80"}, board.FiftyMoves},
		{engines.Position{FEN: "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 150 80"}, board.Checkmate},
	}
	for _, tc := range tests {
		p, err := SetupPosition("test", tc.g)
		if err != nil {
			t.Fatal(err)
		}
		var ml board.MoveList
		p.GenerateLegal(&ml)
		if got := Status(p, &ml, true); got != tc.want {
			t.Errorf("%v: thesis Status %v, want %v", tc.g, got, tc.want)
		}
	}
}

func TestRandPerSearch(t *testing.T) {
	a, b := NewRand(), NewRand()
	a.Reset(3, 42)
	a.IntN(100)
	a.Reset(3, 42)
	b.Reset(3, 42)
	for range 5 {
		if x, y := a.IntN(1000), b.IntN(1000); x != y {
			t.Fatalf("same seed and key: %d and %d", x, y)
		}
	}
	b.Reset(4, 42)
	a.Reset(3, 42)
	same := true
	for range 5 {
		same = same && a.IntN(1000) == b.IntN(1000)
	}
	if same {
		t.Error("seeds 3 and 4 drew the same numbers")
	}
}
