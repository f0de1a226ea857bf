package nn

import (
	"fmt"
	"io"
	"time"

	"arena/engines/board"
)

// benchBatches are the batch sizes Bench measures: one position (an MCTS
// leaf), a typical move list (the 1-ply engine), and a large batch.
var benchBatches = []int{1, 32, 256}

// Bench measures inference on this machine, one goroutine, and writes one
// line per kernel the CPU supports (the one n uses first): the time of a
// batch-1 evaluation and the time per position at batch 32 and 256. It takes
// about a second per kernel.
func Bench(w io.Writer, n *Net) error {
	var in [256]Input
	in[0].SetPosition(board.NewPosition())
	for i := range in {
		in[i] = in[0]
	}
	var out [256]float32
	ks := []*kernel{n.kern}
	for _, k := range kernels() {
		if k != n.kern {
			ks = append(ks, k)
		}
	}
	if _, err := fmt.Fprintf(w, "ValueNet inference, 1 goroutine (ms per position)\n%-8s %10s %10s %10s\n", "kernel", "batch 1", "batch 32", "batch 256"); err != nil {
		return err
	}
	for _, k := range ks {
		net := n
		if k != n.kern {
			var err error
			if net, err = newWithKernel(n.weights, k); err != nil {
				return err
			}
		}
		e := net.NewEvaluator()
		line := fmt.Sprintf("%-8s", k.name)
		for _, batch := range benchBatches {
			perPos := timeBatch(e, in[:batch], out[:batch], 300*time.Millisecond) / time.Duration(batch)
			line += fmt.Sprintf(" %10.3f", float64(perPos)/float64(time.Millisecond))
		}
		if k == n.kern {
			line += "   (in use)"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// timeBatch returns the fastest of several timed runs of EvaluateBatch
// (after a warm-up), within about budget: the minimum is the least disturbed
// by other processes on a shared machine.
func timeBatch(e *Evaluator, in []Input, out []float32, budget time.Duration) time.Duration {
	e.EvaluateBatch(in, out)
	best := time.Duration(1<<63 - 1)
	for start := time.Now(); time.Since(start) < budget || best == 1<<63-1; {
		t := time.Now()
		e.EvaluateBatch(in, out)
		best = min(best, time.Since(t))
	}
	return best
}
