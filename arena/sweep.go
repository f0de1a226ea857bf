package arena

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/internal/atomicfile"
)

// sweepX is a setting's value as a number for plots: a plain number as is,
// a duration in seconds; nil for anything else.
func sweepX(value string) *float64 {
	if f, err := strconv.ParseFloat(value, 64); err == nil {
		return &f
	}
	if d, err := config.ParseDuration(value); err == nil {
		return new(d.Seconds())
	}
	return nil
}

// RunSweep runs every setting of cfg.Sweep, each as a run of its own in a
// subdirectory of the sweep's directory (opt.OutDir, or a new
// output.dir/NAME-TIMESTAMP), and writes the combined table to sweep.json
// and sweep.md there. Every setting's directory and config.yaml are written
// first, so an interrupted sweep resumes with ResumeSweep.
func RunSweep(ctx context.Context, cfg *config.Config, opt Options) (*output.SweepSummary, error) {
	if cfg.Sweep == nil {
		return nil, errors.New("the config has no sweep: key")
	}
	dir := opt.OutDir
	if dir == "" {
		var err error
		if dir, err = newRunDir(cfg.Output.Dir, cfg.Name, time.Now()); err != nil {
			return nil, err
		}
	} else {
		if err := checkFreshDir(dir); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(dir, output.ConfigFile)); err == nil {
			return nil, fmt.Errorf("%s already holds a run (%s exists), not a sweep; choose another --out", dir, output.ConfigFile)
		}
		if err := os.MkdirAll(dir, output.DirPerm); err != nil {
			return nil, fmt.Errorf("create sweep directory: %w", err)
		}
	}
	lock, err := lockDir(dir, "arena run (sweep)", opt.warnings())
	if err != nil {
		return nil, err
	}
	defer lock.unlock()
	if output.IsSweepDir(dir) {
		return nil, fmt.Errorf("%s already holds a sweep (%s exists); continue it with: arena run --resume %s", dir, output.SweepJSON, dir)
	}
	now := time.Now().UTC().Truncate(time.Second)
	ss := &output.SweepSummary{Name: cfg.Name, RunDir: dir, Key: cfg.Sweep.Key, Started: now, Updated: now, Rows: []output.SweepRow{}}
	if !opt.Shard.IsZero() {
		ss.Shard = &opt.Shard
	}
	width := max(2, len(strconv.Itoa(len(cfg.Sweep.Configs))))
	for i, c := range cfg.Sweep.Configs {
		v := cfg.Sweep.Values[i]
		last := cfg.Sweep.Key[strings.LastIndex(cfg.Sweep.Key, ".")+1:]
		name := strings.Trim(unsafeName.ReplaceAllString(last+"-"+v, "-"), "-")
		st := output.SweepSetting{Setting: i + 1, Value: v, X: sweepX(v), Dir: fmt.Sprintf("%0*d-%s", width, i+1, name)}
		sub := filepath.Join(dir, st.Dir)
		if err := os.MkdirAll(sub, output.DirPerm); err != nil {
			return nil, fmt.Errorf("create %s: %w", sub, err)
		}
		if log, err := output.Locate(filepath.Join(sub, output.GamesFile)); err == nil {
			return nil, fmt.Errorf("%s already holds a run (%s exists)", sub, filepath.Base(log))
		}
		data, err := c.MarshalIn(sub)
		if err != nil {
			return nil, err
		}
		if err := atomicfile.WriteFile(filepath.Join(sub, output.ConfigFile), data); err != nil {
			return nil, fmt.Errorf("write %s: %w", filepath.Join(sub, output.ConfigFile), err)
		}
		ss.Settings = append(ss.Settings, st)
	}
	if err := ss.Write(); err != nil {
		return nil, err
	}
	return continueSweep(ctx, ss, opt)
}

// ResumeSweep continues the sweep in dir: settings whose run is complete
// are kept, an interrupted one is resumed, the others are started.
func ResumeSweep(ctx context.Context, dir string, opt Options) (*output.SweepSummary, error) {
	if !output.IsSweepDir(dir) {
		return nil, fmt.Errorf("resume %s: no %s (not a sweep directory)", dir, output.SweepJSON)
	}
	lock, err := lockDir(dir, "arena run --resume (sweep)", opt.warnings())
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	defer lock.unlock()
	ss, err := readSweep(dir)
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	ss.RunDir = dir
	if ss.Shard != nil {
		opt.Shard = *ss.Shard
	}
	return continueSweep(ctx, ss, opt)
}

// readSweep reads a sweep directory's sweep.json.
func readSweep(dir string) (*output.SweepSummary, error) {
	data, err := os.ReadFile(filepath.Join(dir, output.SweepJSON))
	if err != nil {
		return nil, err
	}
	var ss output.SweepSummary
	if err := json.Unmarshal(data, &ss); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, output.SweepJSON), err)
	}
	if len(ss.Settings) == 0 {
		return nil, fmt.Errorf("%s lists no settings", filepath.Join(dir, output.SweepJSON))
	}
	ss.RunDir = dir
	return &ss, nil
}

// continueSweep plays every setting whose run is not complete, in order.
func continueSweep(ctx context.Context, ss *output.SweepSummary, opt Options) (*output.SweepSummary, error) {
	stdout := opt.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	n := len(ss.Settings)
	fmt.Fprintf(opt.chatter(), "=== SWEEP: %s over %s (%d settings) ===\n", ss.Key, strings.Join(ss.Values(), ", "), n)
	for i := range ss.Settings {
		st := &ss.Settings[i]
		sub := filepath.Join(ss.RunDir, st.Dir)
		sum, err := readSummaryHead(sub)
		if err != nil {
			return ss, err
		}
		if sum == nil || !sum.Complete {
			if ctx.Err() != nil {
				return ss, sweepInterrupted(ss, i)
			}
			fmt.Fprintf(opt.chatter(), "\n=== SWEEP SETTING %d/%d: %s = %s ===\n", i+1, n, ss.Key, st.Value)
			subOpt := opt
			subOpt.OutDir = sub
			var runErr error
			if _, err := output.Locate(filepath.Join(sub, output.GamesFile)); err == nil {
				sum, runErr = Resume(ctx, sub, subOpt)
			} else {
				c, err := config.Load(filepath.Join(sub, output.ConfigFile))
				if err != nil {
					return ss, fmt.Errorf("sweep setting %d: %w", i+1, err)
				}
				sum, runErr = Run(ctx, c, subOpt)
			}
			if runErr != nil {
				if sum == nil {
					sum, _ = readSummaryHead(sub)
				}
				if err := recordSetting(ss, i, sum); err != nil {
					return ss, err
				}
				var ie *InterruptedError
				if errors.As(runErr, &ie) || ctx.Err() != nil {
					return ss, sweepInterrupted(ss, i)
				}
				return ss, runErr
			}
		}
		if err := recordSetting(ss, i, sum); err != nil {
			return ss, err
		}
	}
	ss.Complete = true
	if err := ss.Write(); err != nil {
		return ss, err
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "=== SWEEP RESULTS ===")
	if err := ss.WriteTable(stdout); err != nil {
		return ss, err
	}
	fmt.Fprintf(stdout, "Sweep results in %s (%s, %s; one run directory per setting)\n", ss.RunDir, output.SweepJSON, output.SweepMD)
	return ss, nil
}

// sweepInterrupted is the error of a sweep interrupted in setting i.
func sweepInterrupted(ss *output.SweepSummary, i int) error {
	return &InterruptedError{Dir: ss.RunDir, Done: i, Total: len(ss.Settings), Unit: "settings"}
}

// recordSetting stores setting i's summary (which may be partial, or nil when the
// run left none) and rewrites the sweep's files.
func recordSetting(ss *output.SweepSummary, i int, sum *record.Summary) error {
	if sum != nil {
		st := &ss.Settings[i]
		st.Complete, st.GamesPlayed, st.GamesPlanned, st.Stopped = sum.Complete, sum.GamesPlayed, sum.GamesPlanned, sum.Stopped
		rows := ss.Rows[:0:0]
		for _, r := range ss.Rows {
			if r.Setting != st.Setting {
				rows = append(rows, r)
			}
		}
		for _, e := range sum.Engines {
			rows = append(rows, output.SweepRow{Setting: st.Setting, Value: st.Value, X: st.X, Engine: e.Name,
				Games: e.Games, Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, Points: e.Points, ScorePct: e.ScorePct,
				Moves: e.Moves, AvgTime: e.AvgTime, AvgNodes: e.AvgNodes, NPS: e.NPS, AvgDepth: e.AvgDepth,
				AvgRAMMB: e.AvgRAMMB, ACPL: e.ACPL, Accuracy: e.Accuracy})
		}
		slices.SortStableFunc(rows, func(a, b output.SweepRow) int { return a.Setting - b.Setting })
		ss.Rows = rows
	}
	return ss.Write()
}

// readSummaryHead reads a run directory's summary.json without its games;
// nil when there is none yet.
func readSummaryHead(dir string) (*record.Summary, error) {
	path := filepath.Join(dir, output.SummaryJSON)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The games array is skipped token by token, never held: nothing that
	// reads a summary back uses it, and it grows with the games (a merge of
	// shards held every shard's whole list before).
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<16))
	bad := func(err error) error { return fmt.Errorf("%s: %v", path, err) }
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		if err == nil {
			err = fmt.Errorf("expected a JSON object")
		}
		return nil, bad(err)
	}
	head := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		key, _ := t.(string)
		if key == "games" {
			if err := skipJSONValue(dec); err != nil {
				return nil, bad(err)
			}
			continue
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, bad(err)
		}
		head[key] = v
	}
	data, err := json.Marshal(head)
	if err != nil {
		return nil, bad(err)
	}
	var s record.Summary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, bad(err)
	}
	return &s, nil
}

// skipJSONValue reads the next value of dec, however large, a token at a
// time.
func skipJSONValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
