package suite

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"arena/arena/config"
	"arena/arena/launch"
	"arena/engines"
	"arena/engines/uci"
)

// Column is one engine under one set of limits: a column of the results
// table.
type Column struct {
	Label  string
	Engine config.EngineConfig
	Limits engines.Limits
}

// Result is one engine's answer to one position.
type Result struct {
	Done   bool // searched (false: the run was interrupted first)
	Move   string
	SAN    string
	Points int
	Solved bool
	Time   time.Duration
	Nodes  int64
	Depth  int
	Score  engines.Score
	Err    string // why there is no scored move (the engine failed, or its move is illegal)
}

// Options control how a suite is run.
type Options struct {
	// Binary is the arena executable built-in engines run as ("BINARY uci
	// ENGINE ..."); required when a column's engine is built in.
	Binary string
	// Concurrency is the number of positions searched at once, each by its
	// own engine process (default 1).
	Concurrency int
	// Progress, when set, receives a line about every tenth of a column.
	Progress io.Writer
	// Timeouts bound the engines' answers outside a search (zero: the
	// UCI client's defaults).
	Timeouts uci.Timeouts
}

// Run searches every position with every column's engine, one column after
// the other, and returns the results indexed [column][position]. When ctx is
// cancelled it returns what was finished (Done false for the rest) with
// ctx's error.
func Run(ctx context.Context, cols []Column, positions []*Position, opt Options) ([][]Result, error) {
	out := make([][]Result, len(cols))
	for c := range cols {
		out[c] = make([]Result, len(positions))
	}
	for c, col := range cols {
		if err := runColumn(ctx, col, positions, out[c], opt); err != nil {
			return out, err
		}
	}
	return out, nil
}

// runColumn searches the positions with opt.Concurrency processes of the
// column's engine. Every process is started before the first search, so a
// wrong command or option fails at once.
func runColumn(ctx context.Context, col Column, positions []*Position, res []Result, opt Options) error {
	n := max(1, min(opt.Concurrency, len(positions)))
	clients := make([]*uci.Client, n)
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
	}()
	for i := range clients {
		c, err := launch.StartEngine(ctx, col.Engine, opt.Binary, opt.Timeouts)
		if err != nil {
			return err
		}
		clients[i] = c
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	done := 0
	for w := range clients {
		wg.Go(func() {
			for i := range jobs {
				r, err := search(ctx, &clients[w], col, positions[i], opt)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil && ctx.Err() == nil {
					res[i] = r
					done++
					progress(opt.Progress, col, done, len(positions))
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range positions {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func progress(w io.Writer, col Column, done, total int) {
	if w == nil || (done%max(1, total/10) != 0 && done != total) {
		return
	}
	fmt.Fprintf(w, "%s: %d/%d positions\n", col.Label, done, total)
}

// search asks the engine in *client for its move in p, restarting the
// engine first if an earlier search killed it. An engine that fails on a
// position (crashes, hangs) loses that position, recorded in Result.Err;
// only an engine that cannot be restarted is an error.
func search(ctx context.Context, client **uci.Client, col Column, p *Position, opt Options) (Result, error) {
	if *client == nil || (*client).Exited() {
		if *client != nil {
			(*client).Close()
			*client = nil
		}
		c, err := launch.StartEngine(ctx, col.Engine, opt.Binary, opt.Timeouts)
		if err != nil {
			return Result{}, fmt.Errorf("restart after a failed search: %w", err)
		}
		*client = c
	}
	c := *client
	// Positions are independent: no hash or history carries over.
	c.NewGame()
	late := config.DefaultMoveTimeout
	if col.Limits.MoveTime > 0 {
		late = col.Limits.MoveTime + config.DefaultTimeMargin
	}
	sctx, cancel := context.WithTimeout(ctx, late)
	begin := time.Now()
	er, err := c.Search(sctx, engines.Position{FEN: p.FEN}, col.Limits, nil)
	elapsed := time.Since(begin)
	cancel()
	r := Result{Done: true, Move: er.Move, Nodes: er.Nodes, Depth: er.Depth, Score: er.Score, Time: elapsed}
	if er.Time > 0 && err == nil {
		r.Time = er.Time
	}
	switch {
	case err != nil:
		c.Close()
		*client = nil
		r.Err = fmt.Sprintf("engine failed: %v", err)
	case er.Move == "":
		r.Err = "no move"
	case p.SAN(er.Move) == "":
		r.Err = fmt.Sprintf("illegal move %s", er.Move)
	default:
		r.SAN = p.SAN(er.Move)
		r.Points, r.Solved = p.Score(er.Move)
	}
	return r, nil
}

// Columns pairs every engine with every limit, engines outermost.
func Columns(engs []config.EngineConfig, limits []engines.Limits) []Column {
	var cols []Column
	for _, e := range engs {
		for _, l := range limits {
			cols = append(cols, Column{Label: e.Name + ", " + DescribeLimits(l), Engine: e, Limits: l})
		}
	}
	return cols
}

// DescribeLimits names a column's limits ("movetime 100ms", "nodes 10000").
func DescribeLimits(l engines.Limits) string {
	var parts []string
	if l.MoveTime > 0 {
		parts = append(parts, "movetime "+l.MoveTime.String())
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", l.Nodes))
	}
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", l.Depth))
	}
	return strings.Join(parts, ", ")
}
