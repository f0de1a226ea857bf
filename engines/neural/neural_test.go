package neural

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/enginetest"
	"arena/engines/internal/nnengine"
	"arena/engines/nn"
	"arena/engines/uci"
	"arena/engines/uci/ucitest"
)

func newEngine(t testing.TB, opts map[string]string) *Engine {
	t.Helper()
	return enginetest.New(t, Name, opts).(*Engine)
}

func TestLegalMovesAndReport(t *testing.T) {
	e := newEngine(t, nil)
	for _, fen := range enginetest.Positions {
		pos := engines.Position{FEN: fen}
		var infos []engines.Info
		res, err := e.Search(context.Background(), pos, engines.Limits{MoveTime: time.Second}, func(in engines.Info) { infos = append(infos, in) })
		if err != nil {
			t.Fatalf("%s: %v", fen, err)
		}
		enginetest.CheckLegal(t, pos, res.Move)
		if n := enginetest.LegalCount(t, fen); res.Nodes != int64(n) || res.Depth != 1 || len(res.PV) != 1 || res.PV[0] != res.Move {
			t.Errorf("%s: result %+v, want nodes %d, depth 1, pv [move]", fen, res, n)
		}
		if len(infos) != 1 || infos[0].Nodes != res.Nodes || infos[0].Score != res.Score {
			t.Errorf("%s: infos %+v for result %+v", fen, infos, res)
		}
	}
	for _, fen := range enginetest.NoMoves {
		res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Depth: 1}, nil)
		if err != nil || res.Move != "" {
			t.Errorf("%s (no legal move): %+v, %v; want no move and no error", fen, res, err)
		}
	}
}

// TestChoosesByValue recomputes the choice one position at a time: White
// takes the highest value, Black the lowest, and the score is that value for
// the side to move in cp.
func TestChoosesByValue(t *testing.T) {
	e := newEngine(t, nil)
	net, _, err := nn.Load(enginetest.Model(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range enginetest.Positions {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var ml board.MoveList
		p.GenerateLegal(&ml)
		bestMove, best := "", -2.0
		for _, m := range ml.Slice() {
			p.MakeMove(m)
			var in nn.Input
			in.SetPosition(p)
			v := float64(net.Evaluate(&in))
			if p.Status().IsDraw() {
				v = 0
			}
			p.UnmakeMove()
			if p.SideToMove() == board.Black {
				v = -v
			}
			if v > best {
				bestMove, best = m.String(), v
			}
		}
		res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
		if res.Move != bestMove || res.Score != (engines.Score{CP: nnengine.ValueToCP(best)}) {
			t.Errorf("%s: played %s (%v), want %s (cp %d)", fen, res.Move, res.Score, bestMove, nnengine.ValueToCP(best))
		}
	}
}

func TestMateInOne(t *testing.T) {
	for _, seed := range []string{"0", "1", "2"} {
		e := newEngine(t, map[string]string{"seed": seed})
		for _, fen := range enginetest.MatesInOne {
			res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
			if !enginetest.Mates(t, fen, res.Move) || res.Score != (engines.Score{Mate: 1}) {
				t.Errorf("seed %s, %s: played %s (%v), want a mate (mate 1)", seed, fen, res.Move, res.Score)
			}
		}
	}
}

// TestThesisAsksTheNetwork: with preset=thesis the network values every
// move, mating moves included, so no score is a mate score.
func TestThesisAsksTheNetwork(t *testing.T) {
	e := newEngine(t, map[string]string{"preset": "thesis"})
	for _, fen := range enginetest.MatesInOne {
		res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
		if res.Score.IsMate() || res.Move == "" {
			t.Errorf("%s: played %s (%v), want a network value", fen, res.Move, res.Score)
		}
	}
}

// TestGameHistory: the position is the FEN plus the moves, and a move that
// repeats the position a third time is a draw, valued 0.
func TestGameHistory(t *testing.T) {
	e := newEngine(t, nil)
	// Knights out and back twice: Nf3 returns to a position seen twice.
	pos := engines.Position{Moves: []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}}
	if res := enginetest.Search(t, e, pos, engines.Limits{Depth: 1}); res.Nodes != 20 {
		t.Errorf("nodes %d, want 20", res.Nodes)
	}
	// Nf3 would be the third occurrence of the position after Nf3.
	const draw = "g1f3"
	p, err := board.FromGame(engines.StartFEN, pos.Moves)
	if err != nil {
		t.Fatal(err)
	}
	e.search(p, engines.Limits{Depth: 1})
	for i, m := range e.moves.Moves[:e.moves.Len] {
		if (m.String() == draw) != (e.ranks[i] == 0) {
			t.Errorf("move %s ranked %v; want 0 exactly for the threefold repetition %s only", m, e.ranks[i], draw)
		}
	}
}

func TestNodeLimit(t *testing.T) {
	e := newEngine(t, nil)
	for _, nodes := range []int64{1, 5, 19, 20, 500} {
		res := enginetest.Search(t, e, engines.Position{}, engines.Limits{Nodes: nodes})
		if want := min(nodes, 20); res.Nodes != want {
			t.Errorf("node limit %d: %d nodes, want %d", nodes, res.Nodes, want)
		}
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	for _, fen := range enginetest.Positions {
		a := enginetest.Search(t, newEngine(t, map[string]string{"seed": "7"}), engines.Position{FEN: fen}, engines.Limits{Nodes: 9})
		b := newEngine(t, map[string]string{"seed": "7"})
		enginetest.Search(t, b, engines.Position{FEN: enginetest.Positions[1]}, engines.Limits{Depth: 1})
		bres := enginetest.Search(t, b, engines.Position{FEN: fen}, engines.Limits{Nodes: 9})
		if a.Move != bres.Move || a.Score != bres.Score || a.Nodes != bres.Nodes {
			t.Errorf("%s: %+v then %+v with the same seed", fen, a, bres)
		}
	}
}

func TestInfiniteWaitsForCancel(t *testing.T) {
	e := newEngine(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan engines.Result, 1)
	go func() {
		res, _ := e.Search(ctx, engines.Position{}, engines.Limits{Infinite: true}, nil)
		got <- res
	}()
	select {
	case res := <-got:
		t.Fatalf("go infinite answered %+v before stop", res)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	res := <-got
	enginetest.CheckLegal(t, engines.Position{}, res.Move)
}

func TestModelErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.pt")
	if err := os.WriteFile(garbage, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.pt"), garbage} {
		_, err := engines.New(Name, map[string]string{"model": path})
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("model %s: error %v, want one naming the path", path, err)
		}
	}
	if _, err := engines.New(Name, map[string]string{"model": "builtin:nosuch"}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("unknown shipped net: error %v, want one naming it", err)
	}
}

// TestSafetensorsModel: the same network from a .safetensors file plays the
// same moves.
func TestSafetensorsModel(t *testing.T) {
	pt := newEngine(t, nil)
	st := newEngine(t, map[string]string{"model": enginetest.SafetensorsModel(t)})
	for _, fen := range enginetest.Positions {
		a := enginetest.Search(t, pt, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
		b := enginetest.Search(t, st, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
		if a.Move != b.Move || a.Score != b.Score {
			t.Errorf("%s: .pt %s %v, .safetensors %s %v", fen, a.Move, a.Score, b.Move, b.Score)
		}
	}
}

func TestUCI(t *testing.T) {
	c := ucitest.Serve(t, Name, map[string]string{"model": enginetest.Model(t)}, map[string]string{"seed": "3"})
	c.NewGame()
	pos := engines.Position{Moves: []string{"e2e4", "e7e5"}}
	res, err := c.Search(context.Background(), pos, engines.Limits{MoveTime: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	if res.Nodes != 29 || res.Depth != 1 {
		t.Errorf("result %+v, want nodes 29, depth 1", res)
	}
}

// TestUCIBadModel: the UCI server refuses to start with an unloadable model,
// naming the path, so "arena uci" exits before the handshake instead of
// losing games.
func TestUCIBadModel(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.safetensors")
	spec, err := engines.Lookup(Name)
	if err != nil {
		t.Fatal(err)
	}
	_, err = uci.NewServer(spec, map[string]string{"model": missing}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("NewServer error %v; want one naming %s", err, missing)
	}
}

func TestAllocations(t *testing.T) {
	e := newEngine(t, nil)
	p, err := board.ParseFEN(enginetest.Positions[1])
	if err != nil {
		t.Fatal(err)
	}
	e.search(p, engines.Limits{Depth: 1})
	// The result's move and PV strings are the only allocations.
	if n := testing.AllocsPerRun(20, func() { e.search(p, engines.Limits{Depth: 1}) }); n > 3 {
		t.Errorf("%v allocations per search, want at most 3", n)
	}
}

func BenchmarkNN(b *testing.B) {
	e := newEngine(b, nil)
	p, err := board.ParseFEN(enginetest.Positions[1])
	if err != nil {
		b.Fatal(err)
	}
	var nodes int64
	for b.Loop() {
		nodes += e.search(p, engines.Limits{Depth: 1}).Nodes
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "positions/s")
}
