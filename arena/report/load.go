// Package report turns arena run directories into a report: plots (PNG and
// SVG, made with gonum/plot) of ACPL and nodes against time per move, one
// line per engine, like the thesis's figures 3.2 and 3.7; per-run plots by
// ply; report.md; and a self-contained report.html (inline SVG, no external
// resources) that opens offline. Its exported parts (Load, Run, Table,
// Figure, the Markdown writers) are what a study's own report builds on
// (studies/README.md); it knows no study.
//
// It lives under arena/ because it reads the arena's own types
// (record.Summary for summary.json, config.ParseDuration for limits); the
// tracker sits below the arena and must not import it.
package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/tracker"
)

// Run is one loaded run directory.
type Run struct {
	Dir     string // as given (or found inside a sweep directory)
	Summary *record.Summary
	Config  string // config.yaml verbatim: the resolved configuration
	Moves   []Move // of the games the summary counts, in game order
	// PGN is the path of games.pgn (games.pgn.gz when compressed), ""
	// when the run kept no PGN (output.pgn: none) or the file is empty.
	PGN string
	// Sweep is the sweep the run is a setting of, when it was loaded
	// through the sweep's directory; nil otherwise.
	Sweep *SweepDir
	// Setting is the run's entry in Sweep.Summary.Settings.
	Setting output.SweepSetting
	// Rejudges are the run's games judged again (RejudgePattern).
	Rejudges []*Rejudge
}

// SweepDir is a sweep's parent directory and its sweep.json.
type SweepDir struct {
	Dir     string
	Summary *output.SweepSummary
	// Missing lists the settings that have no summary.json yet (not
	// started, or interrupted before their first game).
	Missing []output.SweepSetting
}

// Move is one move of games.jsonl: the fields the report uses.
type Move struct {
	Game   int
	Ply    int
	Engine string
	UCI    string
	Time   float64 // seconds, go to bestmove
	Nodes  int64
	CPL    *float64 // nil when the judge was off
	// Eval is the judge's evaluation after the move (moves.csv eval_cp),
	// nil when the judge was off or the column is absent.
	Eval *float64
}

// Load reads the directories in order. A run directory holds summary.json,
// config.yaml and games.jsonl (or games.jsonl.gz); a sweep's directory (with sweep.json) stands
// for its settings' runs in the sweep's order; any other directory holding
// run directories (a results directory) for all of them, sorted by name.
// Errors name the directory or file and what is missing or wrong.
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
			return nil, fmt.Errorf("%s is not a directory (expected a run directory holding %s)", dir, output.SummaryJSON)
		}
		switch {
		case exists(filepath.Join(dir, output.SummaryJSON)):
			r, err := LoadRun(dir)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
			continue
		case output.IsSweepDir(dir):
			rs, err := loadSweep(dir)
			if err != nil {
				return nil, err
			}
			runs = append(runs, rs...)
			continue
		}
		inner, err := runDirsIn(dir)
		if err != nil {
			return nil, err
		}
		rs, err := Load(inner...)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

// loadSweep reads a sweep's directory: the runs of its settings that have
// started, in the sweep's order.
func loadSweep(dir string) ([]*Run, error) {
	path := filepath.Join(dir, output.SweepJSON)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep %s: %w", dir, unwrapPath(err))
	}
	sw := &SweepDir{Dir: dir, Summary: &output.SweepSummary{}}
	if err := json.Unmarshal(data, sw.Summary); err != nil {
		return nil, fmt.Errorf("%s: %v (expected the sweep.json of arena run)", path, err)
	}
	if len(sw.Summary.Settings) == 0 {
		return nil, fmt.Errorf("%s: no settings (expected the sweep.json of arena run)", path)
	}
	var runs []*Run
	for _, st := range sw.Summary.Settings {
		sub := filepath.Join(dir, st.Dir)
		if !exists(filepath.Join(sub, output.SummaryJSON)) {
			sw.Missing = append(sw.Missing, st)
			continue
		}
		r, err := LoadRun(sub)
		if err != nil {
			return nil, err
		}
		r.Sweep, r.Setting = sw, st
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("sweep %s: none of its %d settings has a %s yet (not started?)", dir, len(sw.Summary.Settings), output.SummaryJSON)
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
		// Stat, not the entry's type, so that symbolic links to run
		// directories count.
		sub := filepath.Join(dir, e.Name())
		if exists(filepath.Join(sub, output.SummaryJSON)) || output.IsSweepDir(sub) {
			out = append(out, sub)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no %s or %s: not a run or sweep directory, and no run directory inside it", dir, output.SummaryJSON, output.SweepJSON)
	}
	sort.Strings(out)
	return out, nil
}

// LoadRun reads one run directory.
func LoadRun(dir string) (*Run, error) {
	sum, err := LoadSummary(dir)
	if err != nil {
		return nil, err
	}
	r := &Run{Dir: dir, Summary: sum}
	cfg, err := os.ReadFile(filepath.Join(dir, output.ConfigFile))
	if err != nil {
		return nil, fmt.Errorf("%s: missing %s, the run's resolved configuration: %w", dir, output.ConfigFile, unwrapPath(err))
	}
	r.Config = string(cfg)
	if r.Moves, err = readMoves(dir, r.Summary); err != nil {
		return nil, err
	}
	if r.PGN, err = keptPGN(filepath.Join(dir, output.PGNFile)); err != nil {
		return nil, err
	}
	if r.Rejudges, err = loadRejudges(dir); err != nil {
		return nil, err
	}
	return r, nil
}

// LoadSummary reads a run directory's summary.json alone, its statistics
// restored as LoadRun restores them: for what needs no game (a run of
// 100,000 games costs seconds of CPU to load whole).
func LoadSummary(dir string) (*record.Summary, error) {
	path := filepath.Join(dir, output.SummaryJSON)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: missing %s (is this a run directory of arena run?): %w", dir, output.SummaryJSON, unwrapPath(err))
	}
	sum := &record.Summary{}
	if err := json.Unmarshal(data, sum); err != nil {
		return nil, fmt.Errorf("%s: %v (expected the summary.json of arena run)", path, err)
	}
	if len(sum.Engines) == 0 {
		return nil, fmt.Errorf("%s: no engines (expected the summary.json of arena run)", path)
	}
	restoreStatistics(sum)
	return sum, nil
}

// restoreStatistics recomputes the Elo, pentanomial and rating statistics
// from the counts: JSON has no infinities, so summary.json writes an
// unbounded or undefined value as null, which decodes as 0. The tracker's
// functions are the ones the arena used, so the values are exact.
func restoreStatistics(s *record.Summary) {
	var records []tracker.PairRecord
	for i, p := range s.Pairs {
		s.Pairs[i].Elo = tracker.Elo(p.Elo.Wins, p.Elo.Draws, p.Elo.Losses)
		if p.Penta != nil {
			s.Pairs[i].Penta = ptr(tracker.EloPenta(p.Penta.Counts))
		}
		records = append(records, tracker.PairRecord{A: p.A, B: p.B, Wins: p.Elo.Wins, Draws: p.Elo.Draws, Losses: p.Elo.Losses})
	}
	if s.Ratings != nil {
		names := make([]string, len(s.Engines))
		for i, e := range s.Engines {
			names[i] = e.Name
		}
		if r, err := tracker.FitRatings(names, records, s.Ratings.Anchor); err == nil {
			s.Ratings = &r
		} else {
			s.Ratings, s.RatingsError = nil, err.Error()
		}
	}
}

func ptr[T any](v T) *T { return &v }

// keptPGN returns where the games.pgn at path is stored, "" when there is
// none or it holds nothing (a compressed one is never of size 0, so the
// content is read).
func keptPGN(path string) (string, error) {
	r, err := output.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer r.Close()
	if _, err := r.Read(make([]byte, 1)); err == io.EOF {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return r.Name(), nil
}

// readMoves reads the moves of the games the summary counts from the run's
// games.jsonl (or games.jsonl.gz), in game order: the log is the run's one
// source of truth, and a committed run keeps no moves.csv (arena export
// derives it). A game the summary counts but the log lacks is an error
// naming both. Moves played from an engine's own book are left out, as they
// are from the summary's averages.
func readMoves(dir string, s *record.Summary) ([]Move, error) {
	path := filepath.Join(dir, output.GamesFile)
	counted := map[int]bool{}
	for _, g := range s.Games {
		counted[g.Game] = true
	}
	if _, err := output.Locate(path); err != nil && len(counted) > 0 {
		return nil, fmt.Errorf("%s: missing %s, the games and their per-move measurements: %w", dir, output.GamesFile, unwrapPath(err))
	}
	var moves []Move
	_, err := output.EachGame(path, func(g *record.GameRecord) error {
		if !counted[g.Game] {
			return nil // finished after the summary was written
		}
		delete(counted, g.Game)
		for _, m := range g.Moves {
			if m.Book {
				continue // played from the engine's own book, not searched
			}
			mv := Move{Game: g.Game, Ply: m.Ply, Engine: m.Engine, UCI: m.UCI, Time: m.Time, Nodes: m.Nodes}
			if m.CPL != nil {
				mv.CPL = ptr(float64(*m.CPL))
			}
			if m.EvalCP != nil {
				mv.Eval = ptr(float64(*m.EvalCP))
			}
			moves = append(moves, mv)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(counted) > 0 {
		return nil, fmt.Errorf("%s: %s counts game %d, which %s lacks", dir, output.SummaryJSON, slices.Min(slices.Collect(maps.Keys(counted))), output.GamesFile)
	}
	return moves, nil
}

// MoveTime is an engine's fixed time per move in a run, parsed from its
// limits in summary.json ("movetime 1s, depth 8"); ok is false when the
// engine had none (a clock, nodes or depth only).
func MoveTime(e record.EngineSummary) (d time.Duration, ok bool) {
	for part := range strings.SplitSeq(e.Limits, ",") {
		if v, found := strings.CutPrefix(strings.TrimSpace(part), "movetime "); found {
			d, err := config.ParseDuration(v)
			return d, err == nil
		}
	}
	return 0, false
}

// NodeLimit is the engine's node limit, from its limits in summary.json.
func NodeLimit(e record.EngineSummary) (int64, bool) {
	for part := range strings.SplitSeq(e.Limits, ",") {
		if v, found := strings.CutPrefix(strings.TrimSpace(part), "nodes "); found {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
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

// globRunFiles lists the files of dir matching pattern, stored plain or in
// a stored form (NAME.gz, NAME.cols), by their plain names, sorted;
// readRunFile reads any form (the one output.Locate prefers).
func globRunFiles(dir, pattern string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return nil, err
	}
	for _, ext := range output.StoredExts {
		stored, err := filepath.Glob(filepath.Join(dir, pattern+ext))
		if err != nil {
			return nil, err
		}
		for _, z := range stored {
			if f := strings.TrimSuffix(z, ext); !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	slices.Sort(files)
	return files, nil
}

// readRunFile reads the run file at path, plain or gzipped (output.Open),
// and returns the name of the file read.
func readRunFile(path string) ([]byte, string, error) {
	r, err := output.Open(path)
	if err != nil {
		return nil, path, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	return data, r.Name(), err
}
