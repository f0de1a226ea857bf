package mlp

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"arena/engines/nn/gemm"
	"arena/engines/nn/optim"
)

// BenchmarkForward is one position's evaluation (batch 1, the engines'
// case) and, per position, a batch of 256, on every kernel path, for the
// Giraffe- and DeepChess-shaped nets. Inputs are 0/1 features with about
// a tenth set, like board encodings.
func BenchmarkForward(b *testing.B) {
	for _, arch := range []Arch{giraffeArch(), pos2vecArch(), headArch()} {
		m, err := New(arch, 1)
		if err != nil {
			b.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		const batch = 256
		in := make([]float32, batch*arch.Inputs)
		for i := range in {
			if rng.IntN(10) == 0 {
				in[i] = 1
			}
		}
		out := make([]float32, batch*arch.Outputs())
		for _, k := range gemm.Available() {
			net := m.compileWith(k)
			b.Run(arch.Name+"/"+k.Name+"/batch1", func(b *testing.B) {
				e := net.NewEvaluator(1)
				cpu0 := cpuTime(b)
				for b.Loop() {
					e.Forward(in[:arch.Inputs], out)
				}
				reportPerPosition(b, cpu0, 1)
			})
			b.Run(arch.Name+"/"+k.Name+"/batch256", func(b *testing.B) {
				e := net.NewEvaluator(batch)
				cpu0 := cpuTime(b)
				for b.Loop() {
					e.ForwardBatch(in, batch, out)
				}
				reportPerPosition(b, cpu0, batch)
			})
		}
	}
}

// BenchmarkTrainSiamese is one DeepChess training step (both Pos2Vec
// copies and the head, forward and backward, Adam) on 256 pairs over two
// workers, with the default kernel.
func BenchmarkTrainSiamese(b *testing.B) {
	sub, err := New(pos2vecArch(), 1)
	if err != nil {
		b.Fatal(err)
	}
	head, err := New(headArch(), 2)
	if err != nil {
		b.Fatal(err)
	}
	const batch = 256
	s := newSiamese(b, sub, head, batch, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	pos := func() []float32 {
		x := make([]float32, batch*773)
		for i := range x {
			if rng.IntN(24) == 0 {
				x[i] = 1
			}
		}
		return x
	}
	a, c := pos(), pos()
	labels := make([]int, batch)
	for i := range labels {
		labels[i] = i % 2
	}
	optSub, optHead := optim.NewAdam(len(sub.Params), 3e-4), optim.NewAdam(len(head.Params), 3e-4)
	gSub, gHead := make([]float32, len(sub.Params)), make([]float32, len(head.Params))
	cpu0 := cpuTime(b)
	for b.Loop() {
		clear(gSub)
		clear(gHead)
		s.step(a, c, labels, gSub, gHead)
		optSub.Update(sub.Params, gSub, s.tapeA.Parallel)
		optHead.Update(head.Params, gHead, s.tapeH.Parallel)
	}
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "pairs/s")
	b.ReportMetric(float64(b.N*batch)/(cpuTime(b)-cpu0).Seconds(), "pairs/cpu-s")
}

// cpuTime is the process's user + system CPU time: on a busy shared
// machine the CPU time of a single-goroutine loop is its cost, the wall
// time mostly the wait.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportPerPosition reports CPU and wall microseconds per position.
func reportPerPosition(b *testing.B, cpu0 time.Duration, batch int) {
	n := float64(b.N * batch)
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/n, "cpu-us/pos")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/n, "us/pos")
	b.ReportMetric(0, "ns/op")
}
