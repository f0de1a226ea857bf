package mcts

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/internal/enginetest"
	"arena/engines/uci/ucitest"
)

func newEngine(t testing.TB, opts map[string]string) *Engine {
	t.Helper()
	return enginetest.New(t, Name, opts).(*Engine)
}

// variants are the option sets the tests run: the thesis engine and each
// improvement.
var variants = []map[string]string{
	nil,
	{"batch": "8"},
	{"reuse_tree": "true"},
	{"mate_detection": "true"},
	{"batch": "16", "reuse_tree": "true", "mate_detection": "true"},
}

func TestAlwaysReturnsALegalMove(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	limits := []struct {
		name string
		lim  engines.Limits
		ctx  context.Context
	}{
		{"one simulation", engines.Limits{Nodes: 1}, context.Background()},
		{"60 simulations", engines.Limits{Nodes: 60}, context.Background()},
		{"depth 2", engines.Limits{Depth: 2}, context.Background()},
		{"movetime 20ms", engines.Limits{MoveTime: 20 * time.Millisecond}, context.Background()},
		{"clock", engines.Limits{WTime: 300 * time.Millisecond, BTime: 300 * time.Millisecond}, context.Background()},
		{"cancelled before the start", engines.Limits{Infinite: true}, cancelled},
	}
	for _, opts := range variants {
		e := newEngine(t, opts)
		for _, fen := range enginetest.Positions {
			for _, l := range limits {
				pos := engines.Position{FEN: fen}
				res, err := e.Search(l.ctx, pos, l.lim, nil)
				if err != nil {
					t.Fatalf("%v, %s, %s: %v", opts, fen, l.name, err)
				}
				enginetest.CheckLegal(t, pos, res.Move)
				// With reuse_tree a repeated search may answer from the kept
				// tree without a simulation.
				if (res.Nodes < 1 && opts["reuse_tree"] == "") || res.Depth < 1 || len(res.PV) == 0 || res.PV[0] != res.Move {
					t.Errorf("%v, %s, %s: result %+v", opts, fen, l.name, res)
				}
			}
		}
		for _, fen := range enginetest.NoMoves {
			res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Nodes: 10}, nil)
			if err != nil || res.Move != "" {
				t.Errorf("%v, %s (no legal move): %+v, %v; want no move and no error", opts, fen, res, err)
			}
		}
	}
}

func TestLimits(t *testing.T) {
	for _, opts := range variants {
		e := newEngine(t, opts)
		for _, nodes := range []int64{1, 7, 100, 301} {
			e.NewGame()
			res := enginetest.Search(t, e, engines.Position{FEN: enginetest.Positions[1]}, engines.Limits{Nodes: nodes})
			if res.Nodes != nodes || e.t.nodes[0].visits != int32(nodes) {
				t.Errorf("%v: node limit %d: %d simulations, root visits %d", opts, nodes, res.Nodes, e.t.nodes[0].visits)
			}
		}
		for _, depth := range []int{1, 2, 3} {
			e.NewGame()
			res := enginetest.Search(t, e, engines.Position{}, engines.Limits{Depth: depth})
			if res.Depth != depth || res.SelDepth != depth {
				t.Errorf("%v: depth limit %d: result depth %d seldepth %d", opts, depth, res.Depth, res.SelDepth)
			}
		}
	}
}

func TestDeterministicPerSeed(t *testing.T) {
	for _, opts := range variants {
		results := map[string]bool{}
		for _, seed := range []string{"1", "2"} {
			o := map[string]string{"seed": seed}
			for k, v := range opts {
				o[k] = v
			}
			a, b := newEngine(t, o), newEngine(t, o)
			// b has searched elsewhere before: per-search seeding makes
			// that irrelevant once NewGame has dropped its tree.
			enginetest.Search(t, b, engines.Position{FEN: enginetest.Positions[2]}, engines.Limits{Nodes: 50})
			b.NewGame()
			var got [2]string
			for i, e := range []*Engine{a, b} {
				var line []string
				pos := engines.Position{}
				for range 3 {
					res := enginetest.Search(t, e, pos, engines.Limits{Nodes: 80})
					line = append(line, fmt.Sprintf("%s %v %d %v", res.Move, res.Score, res.Nodes, res.PV))
					pos.Moves = append(pos.Moves, res.Move)
				}
				got[i] = strings.Join(line, "; ")
			}
			if got[0] != got[1] {
				t.Errorf("%v seed %s: %s\nthen %s", opts, seed, got[0], got[1])
			}
			results[got[0]] = true
		}
		if len(results) == 1 {
			t.Errorf("%v: two seeds searched identically", opts)
		}
	}
}

func TestMateDetection(t *testing.T) {
	for _, batch := range []string{"1", "8"} {
		e := newEngine(t, map[string]string{"mate_detection": "true", "batch": batch})
		for _, fen := range enginetest.MatesInOne {
			res := enginetest.Search(t, e, engines.Position{FEN: fen}, engines.Limits{Nodes: 5000})
			if !enginetest.Mates(t, fen, res.Move) || res.Score != (engines.Score{Mate: 1}) {
				t.Errorf("batch %s, %s: played %s (%v), want a mate (mate 1)", batch, fen, res.Move, res.Score)
			}
			// The root is proven once the mating move has been expanded,
			// and every root move is expanded in the first simulations.
			if n := enginetest.LegalCount(t, fen); res.Nodes > int64(n) {
				t.Errorf("batch %s, %s: %d simulations after a proven mate, want at most %d", batch, fen, res.Nodes, n)
			}
		}
		// Black's only move, Kb8, is met by Rh8 mate.
		const lost = "k7/8/1K6/8/8/8/8/7R b - - 0 1"
		res := enginetest.Search(t, e, engines.Position{FEN: lost}, engines.Limits{Nodes: 5000})
		if res.Move != "a8b8" || res.Score != (engines.Score{Mate: -1}) || res.Nodes == 5000 {
			t.Errorf("batch %s, %s: %+v, want a8b8, mate -1 and an early stop", batch, lost, res)
		}
	}
}

// TestProofs checks the proof rules on a hand-made tree: a mating child
// proves its parent lost for the parent's mover, and a node whose every
// move loses is won for its mover, with the distances in plies.
func TestProofs(t *testing.T) {
	e := newEngine(t, map[string]string{"mate_detection": "true"})
	tr := e.t
	tr.reset()
	root := tr.add(none, 0, ongoing)
	tr.nodes[root].moves, tr.nodes[root].numMoves, tr.nodes[root].expanded = 0, 2, 2
	a := tr.add(root, 1, ongoing)
	b := tr.add(root, 2, ongoing)
	tr.nodes[a].moves, tr.nodes[a].numMoves, tr.nodes[a].expanded = 0, 2, 1
	tr.nodes[b].moves, tr.nodes[b].numMoves, tr.nodes[b].expanded = 0, 1, 1
	b1 := tr.add(b, 3, mate)
	tr.nodes[b1].proof = 1
	e.propagateProof(b)
	if tr.nodes[b].proof != -2 || tr.nodes[root].proof != 0 {
		t.Fatalf("after a mate below b: proofs b %d root %d, want -2 and 0 (a unproven)", tr.nodes[b].proof, tr.nodes[root].proof)
	}
	a1 := tr.add(a, 4, ongoing)
	tr.nodes[a1].proof = 3
	e.propagateProof(a)
	if tr.nodes[a].proof != -4 || tr.nodes[root].proof != 5 {
		t.Errorf("after a win below a: proofs a %d root %d, want -4 and 5", tr.nodes[a].proof, tr.nodes[root].proof)
	}
	if best := e.bestMove(); best != a || e.score(best) != (engines.Score{Mate: -2}) {
		t.Errorf("best move %d (%v), want the longest defence %d (mate -2)", best, e.score(best), a)
	}
}

func TestTreeReuse(t *testing.T) {
	e := newEngine(t, map[string]string{"reuse_tree": "true"})
	res := enginetest.Search(t, e, engines.Position{}, engines.Limits{Nodes: 400})
	// The expected reply is in the tree: the PV's second move.
	line := res.PV[:2]
	kept := e.t.nodes[0].visits
	n := e.t.nodes[0].firstChild
	for _, m := range line {
		for e.t.nodes[n].move.String() != m {
			n = e.t.nodes[n].nextSibling
		}
		kept = e.t.nodes[n].visits
		n = e.t.nodes[n].firstChild
	}
	if kept < 2 {
		t.Fatalf("the PV's reply %v has %d visits", line, kept)
	}
	pos := engines.Position{Moves: line}
	res = enginetest.Search(t, e, pos, engines.Limits{Nodes: 100})
	if got := e.t.nodes[0].visits; got != kept+100 || res.Nodes != 100 {
		t.Errorf("after %v: root visits %d (nodes %d), want the kept %d + 100", line, got, res.Nodes, kept)
	}
	// Not a continuation of the previous game: a new tree.
	other := engines.Position{FEN: enginetest.Positions[1]}
	enginetest.Search(t, e, other, engines.Limits{Nodes: 50})
	if got := e.t.nodes[0].visits; got != 50 {
		t.Errorf("unrelated position: root visits %d, want 50", got)
	}
	// The same position again reuses the whole tree; NewGame drops it.
	enginetest.Search(t, e, other, engines.Limits{Nodes: 50})
	if got := e.t.nodes[0].visits; got != 100 {
		t.Errorf("same position: root visits %d, want 100", got)
	}
	e.NewGame()
	enginetest.Search(t, e, other, engines.Limits{Nodes: 50})
	if got := e.t.nodes[0].visits; got != 50 {
		t.Errorf("after NewGame: root visits %d, want 50", got)
	}
}

// TestReuseIntoClaimableDraw: a kept node that the tree scored as a draw by
// rule becomes a root to search when the game goes on from it.
func TestReuseIntoClaimableDraw(t *testing.T) {
	e := newEngine(t, map[string]string{"reuse_tree": "true"})
	moves := []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"}
	enginetest.Search(t, e, engines.Position{Moves: moves}, engines.Limits{Nodes: 300})
	// f6g8 repeats the start position a third time: a game end in the tree.
	c := e.t.nodes[0].firstChild
	for e.t.nodes[c].move.String() != "f6g8" {
		c = e.t.nodes[c].nextSibling
	}
	if e.t.nodes[c].kind != drawnEnd {
		t.Fatalf("f6g8: kind %d, want drawnEnd", e.t.nodes[c].kind)
	}
	kept := e.t.nodes[c].visits
	res := enginetest.Search(t, e, engines.Position{Moves: append(moves, "f6g8")}, engines.Limits{Nodes: 50})
	if got := e.t.nodes[0].visits; got != kept+50 || res.Nodes != 50 || len(res.PV) == 0 {
		t.Errorf("root visits %d, want %d + 50; result %+v", got, kept, res)
	}
}

// TestCompactKeepsTheSubtree: compaction copies a subtree's statistics,
// moves and child order.
func TestCompactKeepsTheSubtree(t *testing.T) {
	e := newEngine(t, map[string]string{"reuse_tree": "true"})
	enginetest.Search(t, e, engines.Position{}, engines.Limits{Nodes: 300})
	src := e.t
	sub := src.nodes[0].firstChild
	for c := sub; c != none; c = src.nodes[c].nextSibling {
		if src.nodes[c].visits > src.nodes[sub].visits {
			sub = c
		}
	}
	dst := newTree()
	src.compactInto(dst, sub)
	var walk func(a *tree, n int32) string
	walk = func(a *tree, n int32) string {
		nd := &a.nodes[n]
		s := fmt.Sprintf("(%v %d %.4f %d/%d", nd.move, nd.visits, nd.valueSum, nd.expanded, nd.numMoves)
		if nd.moves != none {
			s += fmt.Sprint(a.moves[nd.moves : nd.moves+int32(nd.numMoves)])
		}
		for c := nd.firstChild; c != none; c = a.nodes[c].nextSibling {
			if a.nodes[c].parent != n {
				return "bad parent link"
			}
			s += walk(a, c)
		}
		return s + ")"
	}
	if got, want := walk(dst, 0), walk(src, sub); got != want {
		t.Errorf("compacted subtree\n%s\nwant\n%s", got, want)
	}
}

func TestInfiniteWaitsForCancel(t *testing.T) {
	for _, opts := range []map[string]string{nil, {"mate_detection": "true"}} {
		e := newEngine(t, opts)
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan engines.Result, 1)
		// A proven mate ends the simulations, not the search.
		pos := engines.Position{FEN: enginetest.MatesInOne[0]}
		var infos int
		go func() {
			res, _ := e.Search(ctx, pos, engines.Limits{Infinite: true}, func(engines.Info) { infos++ })
			got <- res
		}()
		select {
		case res := <-got:
			t.Fatalf("%v: go infinite answered %+v before stop", opts, res)
		case <-time.After(100 * time.Millisecond):
		}
		cancel()
		res := <-got
		enginetest.CheckLegal(t, pos, res.Move)
		if infos == 0 || res.Nodes == 0 {
			t.Errorf("%v: %d infos, result %+v", opts, infos, res)
		}
	}
}

func TestModelErrors(t *testing.T) {
	missing := t.TempDir() + "/missing.pt"
	if _, err := engines.New(Name, map[string]string{"model": missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("error %v, want one naming %s", err, missing)
	}
}

func TestUCI(t *testing.T) {
	c := ucitest.Serve(t, Name, map[string]string{"model": enginetest.SafetensorsModel(t)}, map[string]string{"batch": "4", "mate_detection": "true"})
	c.NewGame()
	pos := engines.Position{Moves: []string{"e2e4"}}
	res, err := c.Search(context.Background(), pos, engines.Limits{Nodes: 200}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	if res.Nodes != 200 || res.Depth < 2 || len(res.PV) < 2 {
		t.Errorf("result %+v, want 200 nodes and a longer PV", res)
	}
}

func TestSimulationAllocatesNothing(t *testing.T) {
	for _, opts := range variants {
		e := newEngine(t, opts)
		enginetest.Search(t, e, engines.Position{FEN: enginetest.Positions[1]}, engines.Limits{Nodes: 200})
		if n := testing.AllocsPerRun(100, func() { e.simulate(e.cfg.batch) }); n != 0 {
			t.Errorf("%v: %v allocations per simulation batch", opts, n)
		}
	}
}

// BenchmarkMCTS measures simulations per second from the opening and a
// middlegame, 500 simulations per search.
func BenchmarkMCTS(b *testing.B) {
	for _, batch := range []string{"1", "16"} {
		b.Run("batch="+batch, func(b *testing.B) {
			e := newEngine(b, map[string]string{"batch": batch})
			var sims int64
			for i := 0; b.Loop(); i++ {
				e.NewGame()
				res := enginetest.Search(b, e, engines.Position{FEN: enginetest.Positions[i%2]}, engines.Limits{Nodes: 500})
				sims += res.Nodes
			}
			b.ReportMetric(float64(sims)/b.Elapsed().Seconds(), "simulations/s")
		})
	}
}
