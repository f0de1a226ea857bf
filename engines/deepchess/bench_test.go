package deepchess

import (
	"context"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/enginetest"
)

func benchNet(b *testing.B) (*Evaluator, []int32) {
	net, err := LoadNet("builtin:deepchess")
	if err != nil {
		b.Fatal(err)
	}
	p, err := board.ParseFEN(enginetest.Positions[4])
	if err != nil {
		b.Fatal(err)
	}
	return net.NewEvaluator(), Active(p, nil)
}

// BenchmarkEmbed is one Pos2Vec pass of the shipped net.
func BenchmarkEmbed(b *testing.B) {
	ev, active := benchNet(b)
	v := make([]float32, ev.net.Dim())
	for b.Loop() {
		ev.Embed(active, v)
	}
}

// BenchmarkCompare is one comparison by the head of the shipped net.
func BenchmarkCompare(b *testing.B) {
	ev, active := benchNet(b)
	x, y := make([]float32, ev.net.Dim()), make([]float32, ev.net.Dim())
	ev.Embed(active, x)
	ev.Embed(Mirror(active, nil), y)
	for b.Loop() {
		ev.Compare(x, y)
	}
}

// BenchmarkSearch is a 2,000-node search of a middlegame; it reports
// nodes, Pos2Vec passes and comparisons per second.
func BenchmarkSearch(b *testing.B) {
	e := newEngine(b, nil)
	pos := engines.Position{FEN: enginetest.Positions[4]}
	var nodes int64
	var vecs, comps int
	for b.Loop() {
		res, err := e.Search(context.Background(), pos, engines.Limits{Nodes: 2000}, nil)
		if err != nil {
			b.Fatal(err)
		}
		v, c := e.Stats()
		nodes, vecs, comps = nodes+res.Nodes, vecs+v, comps+int(c)
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(nodes)/s, "nodes/s")
	b.ReportMetric(float64(vecs)/s, "vectors/s")
	b.ReportMetric(float64(comps)/s, "comparisons/s")
}
