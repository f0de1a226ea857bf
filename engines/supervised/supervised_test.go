package supervised

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/enginetest"
	"arena/engines/nn"
	"arena/engines/uci/ucitest"
)

func newEngine(t testing.TB, opts map[string]string) *Engine {
	t.Helper()
	return enginetest.New(t, Name, opts).(*Engine)
}

func TestAlwaysReturnsALegalMove(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	limits := []struct {
		name string
		lim  engines.Limits
		ctx  context.Context
	}{
		{"one node", engines.Limits{Nodes: 1}, context.Background()},
		{"40 nodes", engines.Limits{Nodes: 40}, context.Background()},
		{"depth 1", engines.Limits{Depth: 1}, context.Background()},
		{"default depth", engines.Limits{MoveTime: 10 * time.Second}, context.Background()},
		{"movetime 5ms", engines.Limits{MoveTime: 5 * time.Millisecond}, context.Background()},
		{"cancelled before the start", engines.Limits{Infinite: true}, cancelled},
	}
	e := newEngine(t, nil)
	for _, fen := range enginetest.Positions {
		for _, l := range limits {
			pos := engines.Position{FEN: fen}
			res, err := e.Search(l.ctx, pos, l.lim, nil)
			if err != nil {
				t.Fatalf("%s, %s: %v", fen, l.name, err)
			}
			enginetest.CheckLegal(t, pos, res.Move)
			if len(res.PV) == 0 || res.PV[0] != res.Move {
				t.Errorf("%s, %s: result %+v", fen, l.name, res)
			}
		}
	}
	for _, fen := range enginetest.NoMoves {
		res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Depth: 2}, nil)
		if err != nil || res.Move != "" {
			t.Errorf("%s (no legal move): %+v, %v; want no move and no error", fen, res, err)
		}
	}
}

// reference is the listing's minimax, one network call per leaf, written
// as plainly as the Python: the engine must find the same value, move and
// node count.
type reference struct {
	net   *nn.Net
	p     *board.Position
	nodes int64
}

func (r *reference) evaluate(ply int) float64 {
	switch st := r.p.Status(); {
	case st == board.Checkmate && r.p.SideToMove() == board.White:
		return -float64(mateValue - ply)
	case st == board.Checkmate:
		return float64(mateValue - ply)
	case st != board.Ongoing:
		return 0
	}
	var in nn.Input
	in.SetPosition(r.p)
	return float64(r.net.Evaluate(&in)) * netScale
}

func (r *reference) minimax(depth, ply int, alpha, beta float64, maximizing bool) float64 {
	r.nodes++
	if depth == 0 || r.p.Status() != board.Ongoing {
		return r.evaluate(ply)
	}
	var ml board.MoveList
	r.p.GenerateLegal(&ml)
	best := float64(infinity)
	if maximizing {
		best = -infinity
	}
	for _, m := range ml.Slice() {
		r.p.MakeMove(m)
		v := r.minimax(depth-1, ply+1, alpha, beta, !maximizing)
		r.p.UnmakeMove()
		if maximizing {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if beta <= alpha {
			break
		}
	}
	return best
}

// search is the listing's get_best_move over the engine's root order.
func (r *reference) search(e *Engine, depth int) (board.Move, float64) {
	var ml board.MoveList
	r.p.GenerateLegal(&ml)
	moves := ml.Moves[:ml.Len]
	e.rng.Reset(e.seed, r.p.Hash())
	e.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	capturesFirst(moves)
	maximizing := r.p.SideToMove() == board.White
	best := float64(infinity)
	if maximizing {
		best = -infinity
	}
	bestMove := board.NullMove
	alpha, beta := float64(-infinity), float64(infinity)
	for _, m := range moves {
		r.p.MakeMove(m)
		v := r.minimax(depth-1, 1, alpha, beta, !maximizing)
		r.p.UnmakeMove()
		if maximizing {
			if v > best {
				best, bestMove = v, m
			}
			alpha = max(alpha, best)
		} else {
			if v < best {
				best, bestMove = v, m
			}
			beta = min(beta, best)
		}
	}
	return bestMove, best
}

func TestSameAsPlainMinimax(t *testing.T) {
	net, _, err := nn.Load(enginetest.Model(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		fen   string
		depth int
	}{
		{"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3},
		{"k7/8/1K6/8/8/8/8/7R b - - 0 1", 3},
	}
	for _, fen := range enginetest.Positions {
		cases = append(cases, struct {
			fen   string
			depth int
		}{fen, 1}, struct {
			fen   string
			depth int
		}{fen, 2})
	}
	for _, seed := range []string{"0", "5"} {
		e := newEngine(t, map[string]string{"seed": seed})
		for _, c := range cases {
			if seed != "0" && enginetest.LegalCount(t, c.fen) > 20 {
				continue // a second move order on the small positions only: time
			}
			res := enginetest.Search(t, e, engines.Position{FEN: c.fen}, engines.Limits{Depth: c.depth})
			p, err := board.ParseFEN(c.fen)
			if err != nil {
				t.Fatal(err)
			}
			r := &reference{net: net, p: p}
			move, value := r.search(e, c.depth)
			if res.Move != move.String() || res.Score != e.score(value) || res.Nodes != r.nodes {
				t.Errorf("seed %s, %s depth %d: %s %v %d nodes; plain minimax %s %v %d nodes",
					seed, c.fen, c.depth, res.Move, res.Score, res.Nodes, move, e.score(value), r.nodes)
			}
		}
	}
}

func TestMates(t *testing.T) {
	for _, depth := range []string{"1", "2", "3"} {
		e := newEngine(t, map[string]string{"depth": depth})
		for _, fen := range enginetest.MatesInOne {
			if depth == "3" && enginetest.LegalCount(t, fen) > 20 {
				continue // depth 3 in an opening is seconds of work
			}
			res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{MoveTime: time.Minute})
			if !enginetest.Mates(t, fen, res.Move) || res.Score != (engines.Score{Mate: 1}) {
				t.Errorf("depth %s, %s: played %s (%v), want a mate (mate 1)", depth, fen, res.Move, res.Score)
			}
		}
	}
	// Black's only move, Kb8, is met by Rh8 mate.
	e := newEngine(t, nil)
	const lost = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
	if res := enginetest.Search(t, e, engines.Position{FEN: lost}, engines.Limits{Depth: 2}); res.Move != "a8b8" || res.Score != (engines.Score{Mate: -1}) {
		t.Errorf("%s: %+v, want a8b8, mate -1", lost, res)
	}
}

func TestNodeLimit(t *testing.T) {
	e := newEngine(t, nil)
	full := enginetest.Search(t, e, engines.Position{}, engines.Limits{Depth: 2})
	for _, nodes := range []int64{1, 2, 21, 50, full.Nodes - 1, full.Nodes, full.Nodes + 100} {
		res := enginetest.Search(t, e, engines.Position{}, engines.Limits{Nodes: nodes})
		if want := min(nodes, full.Nodes); res.Nodes != want {
			t.Errorf("node limit %d: %d nodes, want %d", nodes, res.Nodes, want)
		}
		if nodes >= full.Nodes && (res.Move != full.Move || res.Score != full.Score) {
			t.Errorf("node limit %d: %s %v, the full search plays %s %v", nodes, res.Move, res.Score, full.Move, full.Score)
		}
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	for _, seed := range []string{"1", "2"} {
		a := newEngine(t, map[string]string{"seed": seed})
		b := newEngine(t, map[string]string{"seed": seed})
		enginetest.Search(t, b, engines.Position{FEN: enginetest.Positions[2]}, engines.Limits{Depth: 1})
		for _, fen := range enginetest.Positions {
			for _, lim := range []engines.Limits{{Depth: 1}, {Nodes: 60}} {
				ra := enginetest.Search(t, a, engines.Position{FEN: fen}, lim)
				rb := enginetest.Search(t, b, engines.Position{FEN: fen}, lim)
				if fmt.Sprint(ra.Move, ra.Score, ra.Nodes, ra.PV) != fmt.Sprint(rb.Move, rb.Score, rb.Nodes, rb.PV) {
					t.Errorf("seed %s, %s %+v: %+v then %+v", seed, fen, lim, ra, rb)
				}
			}
		}
	}
}

func TestInfiniteWaitsForCancel(t *testing.T) {
	e := newEngine(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan engines.Result, 1)
	go func() {
		res, _ := e.Search(ctx, engines.Position{FEN: enginetest.Positions[5]}, engines.Limits{Infinite: true}, nil)
		got <- res
	}()
	select {
	case res := <-got:
		t.Fatalf("go infinite answered %+v before stop", res)
	case <-time.After(100 * time.Millisecond):
	}
	cancel()
	res := <-got
	enginetest.CheckLegal(t, engines.Position{FEN: enginetest.Positions[5]}, res.Move)
	if res.Depth != defaultDepth {
		t.Errorf("depth %d, want the option's %d", res.Depth, defaultDepth)
	}
}

func TestModelErrors(t *testing.T) {
	missing := t.TempDir() + "/missing.pt"
	if _, err := engines.New(Name, map[string]string{"model": missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("error %v, want one naming %s", err, missing)
	}
}

func TestUCI(t *testing.T) {
	c := ucitest.Serve(t, Name, map[string]string{"model": enginetest.Model(t)}, map[string]string{"depth": "1"})
	c.NewGame()
	pos := engines.Position{FEN: enginetest.MatesInOne[3]}
	res, err := c.Search(context.Background(), pos, engines.Limits{MoveTime: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !enginetest.Mates(t, pos.FEN, res.Move) || res.Score != (engines.Score{Mate: 1}) || res.Depth != 1 || res.Nodes != int64(enginetest.LegalCount(t, pos.FEN)) {
		t.Errorf("result %+v, want a mate in one at depth 1, one node per legal move", res)
	}
}

func TestAllocations(t *testing.T) {
	e := newEngine(t, nil)
	p, err := board.ParseFEN(enginetest.Positions[5])
	if err != nil {
		t.Fatal(err)
	}
	e.pos = p
	e.stop = engines.NewStop(context.Background(), time.Now(), engines.Limits{}, 0)
	e.root(2)
	// The PV slice and its two move strings are the only allocations.
	if n := testing.AllocsPerRun(10, func() { e.root(2) }); n > 3 {
		t.Errorf("%v allocations per depth-2 search, want at most 3", n)
	}
}

// BenchmarkSupervised is a depth-2 search of the opening and a middlegame.
func BenchmarkSupervised(b *testing.B) {
	e := newEngine(b, nil)
	var nodes int64
	for i := 0; b.Loop(); i++ {
		nodes += enginetest.Search(b, e, engines.Position{FEN: enginetest.Positions[[]int{0, 4}[i%2]]}, engines.Limits{Depth: 2}).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}
