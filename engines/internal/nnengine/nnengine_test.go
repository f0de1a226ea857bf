package nnengine

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nn/nets"
	"arena/internal/fixture"
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
		p, err := board.FromGame(g.StartFENOrDefault(), g.Moves)
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
		p, err := board.FromGame(tc.g.StartFENOrDefault(), tc.g.Moves)
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

func TestBeginFinish(t *testing.T) {
	if _, err := Begin("nn", nil, engines.Position{}); err == nil || !strings.Contains(err.Error(), "nn: search after Close") {
		t.Errorf("Begin without a net: %v, want a search-after-Close error naming the engine", err)
	}
	net := &nn.Net{}
	if _, err := Begin("mcts", net, engines.Position{Moves: []string{"e2e5"}}); err == nil || !strings.Contains(err.Error(), "mcts: position") {
		t.Errorf("Begin with an illegal move: %v, want a position error naming the engine", err)
	}
	s, err := Begin("nn", net, engines.Position{Moves: []string{"e2e4"}})
	if err != nil || s.Pos.SideToMove() != board.Black || s.Start.IsZero() {
		t.Fatalf("Begin after 1.e4: %+v, %v", s, err)
	}
	var infos []engines.Info
	record := func(in engines.Info) { infos = append(infos, in) }
	res := engines.Result{Move: "e7e5", Depth: 1, Nodes: 20, PV: []string{"e7e5"}}
	got := s.Finish(context.Background(), engines.Limits{Depth: 1}, record, res)
	if got.Move != "e7e5" || got.Time <= 0 || len(infos) != 1 || infos[0].Nodes != 20 || infos[0].PV[0] != "e7e5" {
		t.Errorf("Finish: %+v with infos %+v, want the result timed and reported once", got, infos)
	}
	infos = nil
	s.Finish(context.Background(), engines.Limits{Depth: 1}, record, engines.Result{})
	if len(infos) != 0 {
		t.Errorf("Finish without a move reported %+v", infos)
	}
	// An unbounded search holds its answer until ctx is cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan engines.Result)
	go func() { finished <- s.Finish(ctx, engines.Limits{Infinite: true}, nil, res) }()
	select {
	case r := <-finished:
		t.Fatalf("unbounded Finish returned %+v before cancel", r)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if r := <-finished; r.Move != "e7e5" {
		t.Errorf("unbounded Finish after cancel: %+v", r)
	}
}

// TestLoadFileCache: engines built from one file share its net until the
// file changes.
func TestLoadFileCache(t *testing.T) {
	data, err := os.ReadFile(fixture.Gunzip(t, "../../nn/testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.pt")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := LoadNet("nn", path, nets.SelfPlay)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadNet("mcts", path, nets.SelfPlay)
	if err != nil || b != a {
		t.Fatalf("second load of an unchanged file: %p, %v; want the first net %p", b, err, a)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	c, err := LoadNet("nn", path, nets.SelfPlay)
	if err != nil || c == a {
		t.Fatalf("load after the file changed: %p, %v; want a new net", c, err)
	}
	if _, err := LoadNet("nn", filepath.Join(t.TempDir(), "missing.pt"), nets.SelfPlay); err == nil || !strings.Contains(err.Error(), "missing.pt") {
		t.Fatalf("missing file: %v, want an error naming it", err)
	}
}
