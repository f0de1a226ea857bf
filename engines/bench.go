package engines

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// BenchLine is the outcome of searching one bench position.
type BenchLine struct {
	Position BenchPosition
	Result   Result
	Elapsed  time.Duration // wall time of the Search call
}

// BenchSummary is the outcome of a bench run.
type BenchSummary struct {
	Lines   []BenchLine
	Nodes   int64
	Elapsed time.Duration
}

// NPS is the total nodes per second over the whole run.
func (s BenchSummary) NPS() float64 { return nps(s.Nodes, s.Elapsed) }

func nps(nodes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(nodes) / d.Seconds()
}

// RunBench searches every position of BenchPositions with e under lim and
// writes one line per position (depth, nodes, time, nodes per second, move,
// score) and a total line to w as it goes. NewGame is called before every
// position so that no result depends on the positions before it. The limits
// must bound the search (depth, nodes or time): an unbounded bench would
// never end. On cancellation it returns what was measured with ctx's error.
func RunBench(ctx context.Context, e Engine, lim Limits, w io.Writer) (BenchSummary, error) {
	if lim.Unbounded() {
		return BenchSummary{}, errors.New("bench: the limits must set a depth, a node count or a move time")
	}
	var sum BenchSummary
	fmt.Fprintf(w, "%-12s %5s %12s %9s %11s %-6s %s\n", "position", "depth", "nodes", "time", "nodes/s", "move", "score")
	for _, bp := range BenchPositions {
		if err := ctx.Err(); err != nil {
			return sum, err
		}
		e.NewGame()
		start := time.Now()
		res, err := e.Search(ctx, Position{FEN: bp.FEN}, lim, nil)
		elapsed := time.Since(start)
		if err != nil {
			return sum, fmt.Errorf("bench position %s (%s): %w", bp.Name, bp.FEN, err)
		}
		sum.Lines = append(sum.Lines, BenchLine{Position: bp, Result: res, Elapsed: elapsed})
		sum.Nodes += res.Nodes
		sum.Elapsed += elapsed
		fmt.Fprintf(w, "%-12s %5d %12d %8.3fs %11.0f %-6s %s\n", bp.Name, res.Depth, res.Nodes, elapsed.Seconds(), nps(res.Nodes, elapsed), res.Move, res.Score)
	}
	fmt.Fprintf(w, "%-12s %5s %12d %8.3fs %11.0f\n", "total", "", sum.Nodes, sum.Elapsed.Seconds(), sum.NPS())
	return sum, nil
}
