package nnue

import (
	"context"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
)

// benchNet is the shipped net when this build has one (its weights, not
// their values, set the cost; a random net of the same shape costs the
// same), else a random 256-wide SCReLU net.
func benchNet(b *testing.B) *Net {
	if n, err := shipped(); err == nil {
		return n
	}
	return RandomNet(12, 256, SCReLU)
}

// BenchmarkKernels times one accumulator update (a capture: one row added,
// two subtracted, both perspectives' worth is twice this) and one output
// (both perspectives' dot products) of a 256-wide net, per kernel path.
func BenchmarkKernels(b *testing.B) {
	net := benchNet(b)
	n := net.Hidden
	src, dst := make([]int16, n), make([]int16, n)
	copy(src, net.FeatureBias)
	zero := make([]int16, n)
	for _, k := range paths() {
		b.Run("update/"+k.name, func(b *testing.B) {
			for b.Loop() {
				k.update(dst, src, net.row(10), zero, net.row(400), net.row(77))
			}
		})
		b.Run("output/"+k.name, func(b *testing.B) {
			for b.Loop() {
				net.output(src, dst, net.dotFor(k))
			}
		})
	}
}

// BenchmarkEvaluate is the cost of one evaluation in the search: a move
// pushed, the accumulators brought up to date, the output computed, the
// move taken back; and, for comparison, the same position from scratch.
func BenchmarkEvaluate(b *testing.B) {
	net := benchNet(b)
	p, _ := board.ParseFEN("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	m, err := p.ParseMove("e5f7") // a capture
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range paths() {
		b.Run("incremental/"+k.name, func(b *testing.B) {
			e := newEvaluator(net, k)
			e.SetRoot(p)
			for b.Loop() {
				e.Push(p, m)
				p.MakeMove(m)
				e.Evaluate(p)
				p.UnmakeMove()
				e.Pop()
			}
		})
	}
	b.Run("refresh/go", func(b *testing.B) {
		for b.Loop() {
			net.Evaluate(p)
		}
	})
}

// BenchmarkSearch compares the nnue engine's nodes/s with preset strong's
// (PeSTO and eval_terms) on the same position at the same node budget.
func BenchmarkSearch(b *testing.B) {
	net := benchNet(b)
	const fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	run := func(b *testing.B, e engines.Engine) {
		var nodes int64
		for b.Loop() {
			e.NewGame()
			res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Nodes: 200000}, nil)
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Nodes
		}
		b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	}
	for _, k := range paths() {
		b.Run("nnue/"+k.name, func(b *testing.B) {
			e, err := heuristic.NewWithEvaluator(Name, resolved(b, nil), newEvaluator(net, k))
			if err != nil {
				b.Fatal(err)
			}
			run(b, e)
		})
	}
	b.Run("strong", func(b *testing.B) {
		e, err := engines.New(heuristic.Name, map[string]string{"preset": "strong"})
		if err != nil {
			b.Fatal(err)
		}
		run(b, e)
	})
}
