package nn

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"arena/engines/board"

	"arena/engines/nn/gemm"
)

// benchBatches are the batch sizes Bench measures: one position (an MCTS
// leaf), a typical move list (the 1-ply engine), and a large batch.
var benchBatches = []int{1, 32, 256}

// Bench measures inference on this machine, one goroutine, and writes one
// line per kernel the CPU supports (the one n uses first): the time per
// position at batch 1, 32 and 256, the best of repeated runs. On Linux each
// figure is followed by the thread's CPU time in parentheses, which other
// processes on a busy machine disturb much less than wall time. It takes
// about a second per kernel; batches that would take over half a second per
// run (the portable kernel's) are skipped and shown as "-".
func Bench(w io.Writer, n *Net) error {
	runtime.LockOSThread() // for the thread CPU time
	defer runtime.UnlockOSThread()
	var in [256]Input
	in[0].SetPosition(board.NewPosition())
	for i := range in {
		in[i] = in[0]
	}
	var out [256]float32
	ks := []*gemm.Kernels{n.kern}
	for _, k := range gemm.Available() {
		if k != n.kern {
			ks = append(ks, k)
		}
	}
	_, hasCPU := threadCPUTime()
	title := "ValueNet inference, 1 goroutine: ms per position"
	if hasCPU {
		title += ", wall time (thread CPU time)"
	}
	if _, err := fmt.Fprintf(w, "%s\n%-8s %16s %16s %16s\n", title, "kernel", "batch 1", "batch 32", "batch 256"); err != nil {
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
		line := fmt.Sprintf("%-8s", k.Name)
		var wall time.Duration
		for _, batch := range benchBatches {
			if wall*time.Duration(batch) > 500*time.Millisecond {
				line += fmt.Sprintf(" %16s", "-")
				continue
			}
			var cpu time.Duration
			wall, cpu = timeBatch(e, in[:batch], out[:batch], 300*time.Millisecond)
			wall /= time.Duration(batch)
			cell := fmt.Sprintf("%.3f", ms(wall))
			if hasCPU {
				cell += fmt.Sprintf(" (%.3f)", ms(cpu/time.Duration(batch)))
			}
			line += fmt.Sprintf(" %16s", cell)
		}
		if k == n.kern {
			line += "  in use"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// timeBatch runs EvaluateBatch once to warm up, then repeatedly for about
// budget (at least once), and returns the fastest run's wall time and the
// smallest CPU time of a run (0 without thread CPU time).
func timeBatch(e *Evaluator, in []Input, out []float32, budget time.Duration) (wall, cpu time.Duration) {
	e.EvaluateBatch(in, out)
	wall, cpu = time.Duration(1<<63-1), time.Duration(1<<63-1)
	for start := time.Now(); time.Since(start) < budget || wall == 1<<63-1; {
		c0, _ := threadCPUTime()
		t := time.Now()
		e.EvaluateBatch(in, out)
		wall = min(wall, time.Since(t))
		c1, _ := threadCPUTime()
		cpu = min(cpu, time.Duration(c1-c0))
	}
	return wall, cpu
}
