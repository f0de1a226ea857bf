package nn

import (
	"testing"
	"time"

	"arena/engines/board"

	"arena/engines/nn/gemm"
	"arena/internal/fixture"
)

func benchmarkForward(b *testing.B, batch int) {
	w, _, err := ReadFile(fixture.Gunzip(b, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		b.Fatal(err)
	}
	in := make([]Input, batch)
	for i := range in {
		in[i].SetPosition(board.NewPosition())
	}
	out := make([]float32, batch)
	for _, k := range gemm.Available() {
		if k == gemm.Portable() && batch > 32 {
			continue // about 5 s per batch of 256: too slow for a shared machine
		}
		b.Run(k.Name, func(b *testing.B) {
			n, err := newWithKernel(w, k)
			if err != nil {
				b.Fatal(err)
			}
			e := n.NewEvaluator()
			e.EvaluateBatch(in, out)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				e.EvaluateBatch(in, out)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(time.Millisecond)/float64(b.N*batch), "ms/position")
		})
	}
}

func BenchmarkForwardBatch1(b *testing.B)   { benchmarkForward(b, 1) }
func BenchmarkForwardBatch32(b *testing.B)  { benchmarkForward(b, 32) }
func BenchmarkForwardBatch256(b *testing.B) { benchmarkForward(b, 256) }
