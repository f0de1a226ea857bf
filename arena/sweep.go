package arena

import (
	"bufio"
	"bytes"
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

// Files of a sweep's parent directory (each setting has a run directory of
// its own below it).
const (
	SweepJSON = "sweep.json"
	SweepMD   = "sweep.md"
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

// SweepSummary is sweep.json: the settings of a sweep, where their runs
// are, and the combined table (one row per setting and engine). It is
// written before the first game (it is what --resume reads) and rewritten
// after every setting.
type SweepSummary struct {
	Name     string    `json:"name"`
	RunDir   string    `json:"run_dir"`
	Key      string    `json:"key"`
	Started  time.Time `json:"started"`
	Updated  time.Time `json:"updated"`
	Complete bool      `json:"complete"`
	// Shard is the part of every setting's schedule this sweep plays
	// (arena run --shard); absent for a whole sweep.
	Shard    *record.Shard  `json:"shard,omitempty"`
	Settings []SweepSetting `json:"settings"`
	Rows     []SweepRow     `json:"rows"`
}

// SweepSetting is one value of the swept key and its run.
type SweepSetting struct {
	Setting      int      `json:"setting"` // 1-based
	Value        string   `json:"value"`
	X            *float64 `json:"x"`   // Value as a number (durations in seconds); null if not numeric
	Dir          string   `json:"dir"` // the setting's run directory, relative to the sweep's
	Complete     bool     `json:"complete"`
	GamesPlayed  int      `json:"games_played"`
	GamesPlanned int      `json:"games_planned"`
	Stopped      string   `json:"stopped,omitempty"`
}

// SweepRow is one engine under one setting: its summary.json aggregates.
type SweepRow struct {
	Setting  int      `json:"setting"`
	Value    string   `json:"value"`
	X        *float64 `json:"x"`
	Engine   string   `json:"engine"`
	Games    int      `json:"games"`
	Wins     int      `json:"wins"`
	Draws    int      `json:"draws"`
	Losses   int      `json:"losses"`
	Points   float64  `json:"points"`
	ScorePct float64  `json:"score_pct"`
	Moves    int      `json:"moves"`
	AvgTime  float64  `json:"avg_time_s"`
	AvgNodes float64  `json:"avg_nodes"`
	NPS      float64  `json:"nps"`
	AvgDepth float64  `json:"avg_depth"`
	AvgRAMMB float64  `json:"avg_ram_mb"`
	ACPL     *float64 `json:"acpl"`
	Accuracy *float64 `json:"accuracy"`
}

// IsSweepDir reports whether dir is the parent directory of a sweep.
func IsSweepDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, SweepJSON))
	return err == nil
}

// RunSweep runs every setting of cfg.Sweep, each as a run of its own in a
// subdirectory of the sweep's directory (opt.OutDir, or a new
// output.dir/NAME-TIMESTAMP), and writes the combined table to sweep.json
// and sweep.md there. Every setting's directory and config.yaml are written
// first, so an interrupted sweep resumes with ResumeSweep.
func RunSweep(ctx context.Context, cfg *config.Config, opt Options) (*SweepSummary, error) {
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
	if IsSweepDir(dir) {
		return nil, fmt.Errorf("%s already holds a sweep (%s exists); continue it with: arena run --resume %s", dir, SweepJSON, dir)
	}
	now := time.Now().UTC().Truncate(time.Second)
	ss := &SweepSummary{Name: cfg.Name, RunDir: dir, Key: cfg.Sweep.Key, Started: now, Updated: now, Rows: []SweepRow{}}
	if !opt.Shard.IsZero() {
		ss.Shard = &opt.Shard
	}
	width := max(2, len(strconv.Itoa(len(cfg.Sweep.Configs))))
	for i, c := range cfg.Sweep.Configs {
		v := cfg.Sweep.Values[i]
		last := cfg.Sweep.Key[strings.LastIndex(cfg.Sweep.Key, ".")+1:]
		name := strings.Trim(unsafeName.ReplaceAllString(last+"-"+v, "-"), "-")
		st := SweepSetting{Setting: i + 1, Value: v, X: sweepX(v), Dir: fmt.Sprintf("%0*d-%s", width, i+1, name)}
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
	if err := ss.write(); err != nil {
		return nil, err
	}
	return continueSweep(ctx, ss, opt)
}

// ResumeSweep continues the sweep in dir: settings whose run is complete
// are kept, an interrupted one is resumed, the others are started.
func ResumeSweep(ctx context.Context, dir string, opt Options) (*SweepSummary, error) {
	if !IsSweepDir(dir) {
		return nil, fmt.Errorf("resume %s: no %s (not a sweep directory)", dir, SweepJSON)
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
func readSweep(dir string) (*SweepSummary, error) {
	data, err := os.ReadFile(filepath.Join(dir, SweepJSON))
	if err != nil {
		return nil, err
	}
	var ss SweepSummary
	if err := json.Unmarshal(data, &ss); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, SweepJSON), err)
	}
	if len(ss.Settings) == 0 {
		return nil, fmt.Errorf("%s lists no settings", filepath.Join(dir, SweepJSON))
	}
	ss.RunDir = dir
	return &ss, nil
}

// continueSweep plays every setting whose run is not complete, in order.
func continueSweep(ctx context.Context, ss *SweepSummary, opt Options) (*SweepSummary, error) {
	stdout := opt.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	n := len(ss.Settings)
	fmt.Fprintf(opt.chatter(), "=== SWEEP: %s over %s (%d settings) ===\n", ss.Key, strings.Join(ss.values(), ", "), n)
	for i := range ss.Settings {
		st := &ss.Settings[i]
		sub := filepath.Join(ss.RunDir, st.Dir)
		sum, err := readSummaryHead(sub)
		if err != nil {
			return ss, err
		}
		if sum == nil || !sum.Complete {
			if ctx.Err() != nil {
				return ss, ss.interrupted(i)
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
				if err := ss.record(i, sum); err != nil {
					return ss, err
				}
				var ie *InterruptedError
				if errors.As(runErr, &ie) || ctx.Err() != nil {
					return ss, ss.interrupted(i)
				}
				return ss, runErr
			}
		}
		if err := ss.record(i, sum); err != nil {
			return ss, err
		}
	}
	ss.Complete = true
	if err := ss.write(); err != nil {
		return ss, err
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "=== SWEEP RESULTS ===")
	if err := ss.WriteTable(stdout); err != nil {
		return ss, err
	}
	fmt.Fprintf(stdout, "Sweep results in %s (%s, %s; one run directory per setting)\n", ss.RunDir, SweepJSON, SweepMD)
	return ss, nil
}

// interrupted is the error of a sweep interrupted in setting i.
func (ss *SweepSummary) interrupted(i int) error {
	return &InterruptedError{Dir: ss.RunDir, Done: i, Total: len(ss.Settings), Unit: "settings"}
}

// record stores setting i's summary (which may be partial, or nil when the
// run left none) and rewrites the sweep's files.
func (ss *SweepSummary) record(i int, sum *record.Summary) error {
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
			rows = append(rows, SweepRow{Setting: st.Setting, Value: st.Value, X: st.X, Engine: e.Name,
				Games: e.Games, Wins: e.Wins, Draws: e.Draws, Losses: e.Losses, Points: e.Points, ScorePct: e.ScorePct,
				Moves: e.Moves, AvgTime: e.AvgTime, AvgNodes: e.AvgNodes, NPS: e.NPS, AvgDepth: e.AvgDepth,
				AvgRAMMB: e.AvgRAMMB, ACPL: e.ACPL, Accuracy: e.Accuracy})
		}
		slices.SortStableFunc(rows, func(a, b SweepRow) int { return a.Setting - b.Setting })
		ss.Rows = rows
	}
	return ss.write()
}

func (ss *SweepSummary) values() []string {
	out := make([]string, len(ss.Settings))
	for i, st := range ss.Settings {
		out[i] = st.Value
	}
	return out
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

// write replaces sweep.json and sweep.md.
func (ss *SweepSummary) write() error {
	ss.Updated = time.Now().UTC().Truncate(time.Second)
	js, err := json.MarshalIndent(ss, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ss.RunDir, SweepJSON), append(js, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", SweepJSON, err)
	}
	md, err := ss.Markdown()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(ss.RunDir, SweepMD), md); err != nil {
		return fmt.Errorf("write %s: %w", SweepMD, err)
	}
	return nil
}

func (ss *SweepSummary) header() []string {
	return []string{ss.Key, "Engine", "Games", "W", "D", "L", "Score %", "Avg Time (s)", "Avg Nodes", "Avg Depth",
		"Avg RAM (MB)", "ACPL", "Accuracy"}
}

func (ss *SweepSummary) tableRows() [][]string {
	var rows [][]string
	for _, r := range ss.Rows {
		rows = append(rows, []string{r.Value, r.Engine, fmt.Sprint(r.Games), fmt.Sprint(r.Wins), fmt.Sprint(r.Draws),
			fmt.Sprint(r.Losses), fmt.Sprintf("%.1f", r.ScorePct), fmt.Sprintf("%.3f", r.AvgTime), fmt.Sprintf("%.0f", r.AvgNodes),
			fmt.Sprintf("%.1f", r.AvgDepth), fmt.Sprintf("%.1f", r.AvgRAMMB), output.FormatOpt(r.ACPL, "%.1f"), output.FormatOpt(r.Accuracy, "%.1f")})
	}
	return rows
}

// WriteTable prints the combined table: one row per setting and engine.
func (ss *SweepSummary) WriteTable(w io.Writer) error {
	return output.RenderTable(w, false, ss.header(), ss.tableRows(), 2)
}

// Markdown returns sweep.md: the combined table and each setting's run.
func (ss *SweepSummary) Markdown() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: sweep of %s\n\n", ss.Name, ss.Key)
	status := "complete"
	if !ss.Complete {
		status = "in progress or interrupted"
	}
	fmt.Fprintf(&b, "%d settings (%s); updated %s.\n\n", len(ss.Settings), status, ss.Updated.Format(time.RFC3339))
	if err := output.RenderTable(&b, true, ss.header(), ss.tableRows(), 2); err != nil {
		return nil, err
	}
	b.WriteString("\n## Runs\n\n")
	for _, st := range ss.Settings {
		state := fmt.Sprintf("%d of %d games", st.GamesPlayed, st.GamesPlanned)
		if st.Stopped != "" {
			state += ", " + st.Stopped
		}
		if !st.Complete {
			state += ", not complete"
		}
		fmt.Fprintf(&b, "- %s = %s: [%s](%s/%s) (%s)\n", ss.Key, st.Value, st.Dir, st.Dir, output.SummaryMD, state)
	}
	return b.Bytes(), nil
}
