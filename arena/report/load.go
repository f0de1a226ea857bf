// Package report turns arena run directories into a report: plots (PNG and
// SVG, made with gonum/plot) of ACPL and nodes against time per move, one
// line per engine, like the thesis's figures 3.2 and 3.7; per-run plots by
// ply; report.md; and a self-contained report.html (inline SVG, no external
// resources) that opens offline. It also puts runs of the thesis's
// experiments next to the thesis's own tables (Reproduction).
//
// It lives under arena/ because it reads the arena's own types
// (arena.Summary for summary.json, arena.ParseDuration for limits); the
// tracker sits below the arena and must not import it.
package report

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"arena/arena"
	"arena/tracker"
)

// Files of a run directory that the report reads (written by arena run).
const (
	SummaryFile = "summary.json"
	MovesFile   = "moves.csv"
	ConfigFile  = "config.yaml"
	PGNFile     = "games.pgn"
)

// Run is one loaded run directory.
type Run struct {
	Dir     string // as given (or found inside a sweep directory)
	Summary *arena.Summary
	Config  string // config.yaml verbatim: the resolved configuration
	Moves   []Move // moves.csv, in file order
	// PGN is the path of games.pgn, "" when the run kept no PGN
	// (output.pgn: none) or the file is empty.
	PGN string
}

// Move is one row of moves.csv: the fields the report uses.
type Move struct {
	Game   int
	Ply    int
	Engine string
	UCI    string
	Time   float64 // seconds, go to bestmove
	Nodes  int64
	CPL    *float64 // nil when the judge was off
}

// Load reads the directories in order. A run directory holds summary.json,
// config.yaml and moves.csv; a directory without summary.json that holds
// run directories (a sweep's parent with its sweep.json, or any results
// directory) stands for all of them, sorted by name. Errors name the
// directory or file and what is missing or wrong.
func Load(dirs ...string) ([]*Run, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no run directories given")
	}
	var runs []*Run
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("run directory %s: %w", dir, unwrapPath(err))
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s is not a directory (expected a run directory holding %s)", dir, SummaryFile)
		}
		if exists(filepath.Join(dir, SummaryFile)) {
			r, err := LoadRun(dir)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
			continue
		}
		inner, err := runDirsIn(dir)
		if err != nil {
			return nil, err
		}
		for _, d := range inner {
			r, err := LoadRun(d)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
		}
	}
	return runs, nil
}

// runDirsIn lists the subdirectories of dir that hold a summary.json.
func runDirsIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("run directory %s: %w", dir, unwrapPath(err))
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && exists(filepath.Join(dir, e.Name(), SummaryFile)) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s: not a run directory, and no run directory (with %s) inside it", dir, SummaryFile, SummaryFile)
	}
	sort.Strings(out)
	return out, nil
}

// LoadRun reads one run directory.
func LoadRun(dir string) (*Run, error) {
	r := &Run{Dir: dir}
	path := filepath.Join(dir, SummaryFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: missing %s (is this a run directory of arena run?): %w", dir, SummaryFile, unwrapPath(err))
	}
	r.Summary = &arena.Summary{}
	if err := json.Unmarshal(data, r.Summary); err != nil {
		return nil, fmt.Errorf("%s: %v (expected the summary.json of arena run)", path, err)
	}
	if len(r.Summary.Engines) == 0 {
		return nil, fmt.Errorf("%s: no engines (expected the summary.json of arena run)", path)
	}
	// JSON has no infinities, so summary.json writes an unbounded Elo as
	// null; recomputing from the counts restores the exact statistics.
	for i, p := range r.Summary.Pairs {
		r.Summary.Pairs[i].Elo = tracker.Elo(p.Elo.Wins, p.Elo.Draws, p.Elo.Losses)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, fmt.Errorf("%s: missing %s, the run's resolved configuration: %w", dir, ConfigFile, unwrapPath(err))
	}
	r.Config = string(cfg)
	if r.Moves, err = readMoves(filepath.Join(dir, MovesFile)); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if st, err := os.Stat(filepath.Join(dir, PGNFile)); err == nil && st.Size() > 0 {
		r.PGN = filepath.Join(dir, PGNFile)
	}
	return r, nil
}

// readMoves reads moves.csv by column name, so columns added later do not
// break old reports.
func readMoves(path string) ([]Move, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("missing %s, the per-move measurements: %w", filepath.Base(path), unwrapPath(err))
	}
	defer f.Close()
	cr := csv.NewReader(f)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header line: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, need := range []string{"game", "ply", "engine", "move_uci", "time_s", "nodes", "cpl"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s: no column %q in the header (have %s)", path, need, strings.Join(header, ","))
		}
	}
	var moves []Move
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return moves, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		var m Move
		field := func(name string) string { return rec[col[name]] }
		bad := func(name string) error {
			return fmt.Errorf("%s:%d: column %s: %q is not a number", path, line, name, field(name))
		}
		if m.Game, err = strconv.Atoi(field("game")); err != nil {
			return nil, bad("game")
		}
		if m.Ply, err = strconv.Atoi(field("ply")); err != nil {
			return nil, bad("ply")
		}
		m.Engine, m.UCI = field("engine"), field("move_uci")
		if m.Time, err = strconv.ParseFloat(field("time_s"), 64); err != nil {
			return nil, bad("time_s")
		}
		if m.Nodes, err = strconv.ParseInt(field("nodes"), 10, 64); err != nil {
			return nil, bad("nodes")
		}
		if s := field("cpl"); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, bad("cpl")
			}
			m.CPL = &v
		}
		moves = append(moves, m)
	}
}

// MoveTime is an engine's fixed time per move in a run, parsed from its
// limits in summary.json ("movetime 1s, depth 8"); ok is false when the
// engine had none (a clock, nodes or depth only).
func MoveTime(e arena.EngineSummary) (d time.Duration, ok bool) {
	for part := range strings.SplitSeq(e.Limits, ",") {
		if v, found := strings.CutPrefix(strings.TrimSpace(part), "movetime "); found {
			d, err := arena.ParseDuration(v)
			return d, err == nil
		}
	}
	return 0, false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// unwrapPath drops the path from an *fs.PathError, whose message the
// caller already gives with more context.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
