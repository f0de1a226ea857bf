package nnuetrain

import (
	"testing"
)

// BenchmarkStep measures training speed on positions of real games, one
// sample per op (samples/s = 1e9 / ns/op), on one thread.
func BenchmarkStep(b *testing.B) {
	d := syntheticData(b, 4096, 7)
	cfg := Config{Batch: 4096, Threads: 1}.Defaults()
	net, _ := NewNet(cfg.Hidden, cfg.Activation, 1)
	t := newTrainer(cfg, net)
	targets := d.Targets(0.5, 400)
	idx := make([]int32, d.Len())
	for i := range idx {
		idx[i] = int32(i)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for done := 0; done < b.N; done += len(idx) {
		t.step(d, targets, idx)
	}
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0).Seconds(), "samples/CPU-s")
}
