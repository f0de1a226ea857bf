package heuristic

import (
	"runtime"
	"testing"

	"arena/engines"
)

// TestSearchDoesNotAllocatePerNode runs the recursive search directly on a
// prepared searcher: every node (move lists, ordering, TT, PV, repetition
// keys) must use the preallocated state.
func TestSearchDoesNotAllocatePerNode(t *testing.T) {
	for _, preset := range []string{"thesis", "strong"} {
		e := newEngine(t, map[string]string{"preset": preset})
		search(t, e, kiwipete, engines.Limits{Depth: 1}) // sets up position and limits
		s := e.s
		var nodes int64
		allocs := testing.AllocsPerRun(3, func() {
			s.stopped = false
			s.tt.clear() // a kept table would answer the search from memory
			before := s.nodes
			s.negamax(5, 0, -infinity, infinity, false)
			nodes = s.nodes - before
		})
		if allocs != 0 || nodes < 1000 {
			t.Errorf("%s: %v allocations per depth-5 search of %d nodes, want 0", preset, allocs, nodes)
		}
	}
}

// benchSearch reports nodes/s, nodes per search and heap allocations per
// node; -benchmem's allocs/op is allocations per whole search (result, PV
// strings and position set-up), independent of the node count.
func benchSearch(b *testing.B, fen string, depth int, opts map[string]string) {
	e := newEngine(b, opts)
	lim := engines.Limits{Depth: depth}
	search(b, e, fen, lim) // the first search also touches the TT pages
	var nodes int64
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if e.cfg.keepTT {
			// Every search starts from an empty table, as with hash=0.
			b.StopTimer()
			e.NewGame()
			b.StartTimer()
		}
		nodes += search(b, e, fen, lim).Nodes
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(nodes), "allocs/node")
}

func BenchmarkSearchStart(b *testing.B)    { benchSearch(b, engines.StartFEN, 7, nil) }
func BenchmarkSearchKiwipete(b *testing.B) { benchSearch(b, kiwipete, 6, nil) }
func BenchmarkSearchStrongStart(b *testing.B) {
	benchSearch(b, engines.StartFEN, 12, map[string]string{"preset": "strong"})
}
func BenchmarkSearchStrongKiwipete(b *testing.B) {
	benchSearch(b, kiwipete, 10, map[string]string{"preset": "strong"})
}

// BenchmarkEvaluate times one static evaluation of Kiwipete: PeSTO alone,
// and with eval_terms.
func BenchmarkEvaluate(b *testing.B) {
	for _, terms := range []string{"false", "true"} {
		b.Run("eval_terms="+terms, func(b *testing.B) {
			e := newEngine(b, map[string]string{optEvalTerms: terms})
			search(b, e, kiwipete, engines.Limits{Depth: 1})
			for b.Loop() {
				e.s.eval.Evaluate(e.s.pos)
			}
		})
	}
}
