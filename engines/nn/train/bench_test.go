package train

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"arena/engines/nn/gemm"
	"arena/engines/nn/optim"
)

// cpuTime is the process's user + system CPU time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTrainStep is one Adam step (forward, backward, update) on a
// batch of 256 positions with GOMAXPROCS workers, per kernel path this CPU
// runs (BenchmarkTrainStep/avx2 is an AVX2-only CPU's speed); compare
// samples/s with testdata/bench_torch_train.py (PyTorch, same batch, 2
// threads).
func BenchmarkTrainStep(b *testing.B) {
	for _, k := range gemm.Available() {
		b.Run(k.Name, func(b *testing.B) { benchmarkTrainStep(b, k) })
	}
}

func benchmarkTrainStep(b *testing.B, k *gemm.Kernels) {
	const batch = 256
	boards := randomBoards(b, batch, 5)
	targets := make([]float32, batch)
	for i := range targets {
		targets[i] = float32(i%7)/3 - 1
	}
	m := NewModel(1)
	ws := newWorkspace(batch, runtime.GOMAXPROCS(0), k)
	opt := optim.NewAdam(len(m.params), 1e-3)
	ws.step(m, opt, boards, targets)
	cpu0 := cpuTime(b)
	b.ResetTimer()
	for range b.N {
		ws.step(m, opt, boards, targets)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "samples/s")
	// Per CPU second of the process: what a busy shared machine disturbs
	// least (the PyTorch script reports the same).
	b.ReportMetric(float64(b.N*batch)/(cpuTime(b)-cpu0).Seconds(), "samples/cpu-s")
	b.ReportMetric(0, "ns/op")
}
