package datagen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"arena/engines/nn/dataset"
	"arena/tracker"
)

// The steps of Run: what to skip, labelling with the judge's workers, and
// writing the records as they come.

// label evaluates the candidates of todo with cfg.Judge.Workers workers and
// sends their records to done, which it closes when the workers are done.
// The first evaluation error cancels the run; the function returned reports
// it once done is closed.
func label(ctx context.Context, cancel context.CancelFunc, judge *tracker.Judge, cfg Config, todo <-chan candidate, done chan<- dataset.Record) func() error {
	var wg sync.WaitGroup
	var labelErr error
	var once sync.Once
	for range cfg.Judge.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range todo {
				ev, err := judge.Evaluate(ctx, c.fen)
				if err != nil {
					if ctx.Err() == nil {
						once.Do(func() { labelErr = fmt.Errorf("label %s: %w", c.fen, err); cancel() })
					}
					return
				}
				select {
				case done <- record(c, ev, cfg.Judge.MateScore):
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	return func() error { return labelErr }
}

// seenPositions is the keys of the positions not to label again: those
// already in Out (existing of them) and those of the Exclude files.
func seenPositions(cfg Config) (seen map[string]bool, existing int, err error) {
	seen, err = prepareOutput(cfg)
	if err != nil {
		return nil, 0, err
	}
	existing = len(seen)
	for _, path := range cfg.Exclude {
		fens, err := excludedFENs(path)
		if err != nil {
			return nil, existing, fmt.Errorf("exclude: %w", err)
		}
		for _, fen := range fens {
			seen[positionKey(fen)] = true
		}
	}
	return seen, existing, nil
}

// writeRecords appends the labelled records to f as they come, flushed and
// synced every cfg.ChunkSize records and at the end (an interrupted run
// keeps every synced chunk), with a progress line every 2 s.
func writeRecords(f *os.File, cfg Config, done <-chan dataset.Record, st *Stats, start time.Time) error {
	w := bufio.NewWriter(f)
	pending := 0
	flush := func() error {
		if err := w.Flush(); err != nil {
			return err
		}
		pending = 0
		return f.Sync()
	}
	lastReport := time.Now()
	for rec := range done {
		if _, err := w.WriteString(rec.String() + "\n"); err != nil {
			return err
		}
		st.Written++
		pending++
		if pending >= cfg.ChunkSize {
			if err := flush(); err != nil {
				return err
			}
		}
		if cfg.Progress != nil && time.Since(lastReport) >= 2*time.Second {
			lastReport = time.Now()
			rate := float64(st.Written) / time.Since(start).Seconds()
			left := cfg.MaxPositions - st.Existing - st.Written
			eta := time.Duration(float64(left)/rate) * time.Second
			fmt.Fprintf(cfg.Progress, "datagen: %d/%d positions, %.1f/s, ETA %s\n",
				st.Existing+st.Written, cfg.MaxPositions, rate, eta.Round(time.Second))
		}
	}
	return flush()
}
