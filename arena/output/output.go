// Package output writes a run directory's files: games.jsonl (appended and
// fsync'ed game by game, what --resume reads back), games.pgn, moves.csv
// and games.epd (appended in game order), summary.json and summary.md
// (rewritten atomically), and what the console shares with them: the MATCH
// CONFIGURATION block that heads summary.md, the results table and the
// rating interval. The runner decides when; this package decides what the
// files hold and how they stay whole when a run is killed.
//
// With output.compress, the game files become gzip files (NAME.gz) when a
// run ends, finished or stopped by Ctrl-C, and never while it plays: the
// log is appended and fsync'ed game by game and read back by offset, which
// a gzip stream allows neither of, and a kill would leave a half-written
// gzip member. So a running or killed run's files are exactly those of an
// uncompressed one, a resume decompresses them first, and compression costs
// nothing per game. Whatever reads a run directory opens its files through
// Open (NAME, else NAME.gz), so readers need no case of their own.
package output

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arena/arena/config"
	"arena/arena/record"
	"arena/internal/atomicfile"
)

// Files of a run directory.
const (
	ConfigFile  = "config.yaml"
	GamesFile   = "games.jsonl" // one GameRecord per line; the source of truth for --resume
	PGNFile     = "games.pgn"
	MovesFile   = "moves.csv"
	SummaryJSON = "summary.json"
	SummaryMD   = "summary.md"
	EPDFile     = "games.epd" // with output.epd: the final positions, in game order
	// FilePerm and DirPerm are the modes of the files and directories a
	// run creates.
	FilePerm     = 0o644
	DirPerm      = 0o755
	csvPrecision = 4
)

// CSVHeader names the columns of moves.csv.
var CSVHeader = []string{
	"game", "ply", "side", "engine", "move_uci", "move_san", "time_s", "nodes", "depth", "seldepth",
	"score_cp", "score_mate", "pv", "rss_mb", "peak_rss_mb", "eval_cp", "cpl", "accuracy", "class",
	"book", "ponderhit", "overrun_s",
}

// Writer writes a run's game files. games.jsonl gets every game as it
// finishes (any order, fsync'ed before anything else, as it is what --resume
// trusts); games.pgn, moves.csv and games.epd get the games in game order.
// A run starts them afresh as temporary files (rebuilt from the games
// already finished) and installs them before its first new game, so a game
// half-appended when a previous run was killed disappears from every file
// at once; resume and concurrency therefore need nothing of their own.
type Writer struct {
	dir   string
	cfg   *config.Config
	json  *os.File // read and appended: pending games are read back from it
	pgn   *os.File // nil unless pgn: all
	csv   *os.File
	epd   *os.File             // nil unless epd: true
	size  int64                // of games.jsonl
	lines int                  // of games.jsonl
	last  []*record.GameRecord // the games games.pgn holds with pgn: last N
	tmp   map[*os.File]string
}

// rebuildSuffix marks the files of a Writer before Install.
const rebuildSuffix = ".rebuild"

// Create starts dir's game files afresh, as temporary files until Install.
func Create(dir string, cfg *config.Config) (*Writer, error) {
	o := &Writer{dir: dir, cfg: cfg, tmp: map[*os.File]string{}}
	for _, f := range []struct {
		name string
		dst  **os.File
	}{{GamesFile, &o.json}, {MovesFile, &o.csv}, {PGNFile, &o.pgn}, {EPDFile, &o.epd}} {
		if f.name == PGNFile && (cfg.Output.PGN.None || cfg.Output.PGN.Last > 0) || f.name == EPDFile && !cfg.Output.EPD {
			continue
		}
		path := filepath.Join(dir, f.name)
		fh, err := os.OpenFile(path+rebuildSuffix, os.O_RDWR|os.O_CREATE|os.O_TRUNC, FilePerm)
		if err != nil {
			o.Close()
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
		*f.dst = fh
		o.tmp[fh] = path
	}
	var rows bytes.Buffer
	cw := csv.NewWriter(&rows)
	if err := cw.Write(CSVHeader); err != nil {
		return nil, err
	}
	cw.Flush()
	if _, err := o.csv.Write(rows.Bytes()); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}

// Install syncs the rebuilt files and renames them into place; later games
// are appended to them.
func (o *Writer) Install() error {
	for f, path := range o.tmp {
		if err := f.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, bare(err))
		}
		if err := os.Rename(f.Name(), path); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	o.tmp = nil
	if o.cfg.Output.PGN.Last > 0 {
		if err := o.writeLastPGN(); err != nil {
			return err
		}
	}
	return atomicfile.SyncDir(o.dir)
}

// AppendJSON adds a finished game to games.jsonl and syncs it to disk; the
// returned reference reads it back.
func (o *Writer) AppendJSON(g *record.GameRecord) (Ref, error) {
	line, err := json.Marshal(g)
	if err != nil {
		return Ref{}, err
	}
	if err := o.append(o.json, append(line, '\n')); err != nil {
		return Ref{}, err
	}
	o.lines++
	ref := Ref{f: o.json, off: o.size, size: len(line), line: o.lines}
	o.size += int64(len(line)) + 1
	return ref, nil
}

// AppendOrdered adds the next game in game order to games.pgn, moves.csv
// and games.epd; Sync makes them durable.
func (o *Writer) AppendOrdered(g *record.GameRecord) error {
	var pgn bytes.Buffer
	switch m := o.cfg.Output.PGN; {
	case m.None:
	case m.Last > 0:
		o.last = append(o.last, g)
		if len(o.last) > m.Last {
			o.last = o.last[len(o.last)-m.Last:]
		}
		if o.tmp == nil {
			if err := o.writeLastPGN(); err != nil {
				return err
			}
		}
	default:
		if err := WritePGN(&pgn, o.cfg, g); err != nil {
			return err
		}
		if err := o.append(o.pgn, pgn.Bytes()); err != nil {
			return err
		}
	}
	var rows bytes.Buffer
	cw := csv.NewWriter(&rows)
	writeCSV(cw, g)
	cw.Flush()
	if err := o.append(o.csv, rows.Bytes()); err != nil {
		return err
	}
	if o.epd != nil {
		line, err := finalEPD(g)
		if err != nil {
			return err
		}
		if err := o.append(o.epd, []byte(line)); err != nil {
			return err
		}
	}
	return nil
}

// writeLastPGN rewrites games.pgn with the last N games (pgn: last N).
func (o *Writer) writeLastPGN() error {
	var pgn bytes.Buffer
	for _, g := range o.last {
		if err := WritePGN(&pgn, o.cfg, g); err != nil {
			return err
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(o.dir, PGNFile), pgn.Bytes()); err != nil {
		return fmt.Errorf("write %s: %w", PGNFile, err)
	}
	return nil
}

// append appends data to f, and syncs it if it is the installed
// games.jsonl, the one file --resume trusts. The files derived from it
// (games.pgn, moves.csv, games.epd) are rebuilt from it by a resume, so
// they are synced once, by Sync when the run is complete, not game by
// game: their three fsyncs a game were 4.5% of the arena's own CPU in
// games of a millisecond a move (docs/reference.md, "The arena's own
// cost, beside fastchess"). A file still being rebuilt (a merge, the
// rebuild of a resume) is synced once, whole, by Install, and is removed
// if the process dies before. An error names the file as it is
// installed: f keeps the temporary name it was opened under
// (NAME.rebuild), which no longer exists once Install renamed it.
func (o *Writer) append(f *os.File, data []byte) error {
	_, err := f.Write(data)
	if err == nil && f == o.json && o.tmp == nil {
		err = f.Sync()
	}
	if err != nil {
		return fmt.Errorf("append %s: %w", strings.TrimSuffix(f.Name(), rebuildSuffix), bare(err))
	}
	return nil
}

// Sync makes games.pgn, moves.csv and games.epd durable (games.jsonl
// is, game by game).
func (o *Writer) Sync() error {
	for _, f := range []*os.File{o.pgn, o.csv, o.epd} {
		if f == nil {
			continue
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", strings.TrimSuffix(f.Name(), rebuildSuffix), bare(err))
		}
	}
	return nil
}

// bare is err without the file name a *fs.PathError adds, for an error
// that names the file itself.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Close closes the files; files never installed are removed.
func (o *Writer) Close() {
	for _, f := range []*os.File{o.json, o.pgn, o.csv, o.epd} {
		if f != nil {
			f.Close()
			if _, pending := o.tmp[f]; pending {
				os.Remove(f.Name())
			}
		}
	}
}

func writeCSV(cw *csv.Writer, g *record.GameRecord) {
	for _, m := range g.Moves {
		cw.Write([]string{
			strconv.Itoa(g.Game), strconv.Itoa(m.Ply), m.Side, m.Engine, m.UCI, m.SAN,
			ftoa(m.Time), strconv.FormatInt(m.Nodes, 10), strconv.Itoa(m.Depth), strconv.Itoa(m.SelDepth),
			strconv.Itoa(m.ScoreCP), strconv.Itoa(m.Mate), strings.Join(m.PV, " "),
			ftoa(m.RSSMB), ftoa(m.PeakMB), optInt(m.EvalCP), optInt(m.CPL), optFloat(m.Accuracy), string(m.Class),
			strconv.FormatBool(m.Book), strconv.FormatBool(m.Ponderhit), ftoa(m.Overrun),
		})
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', csvPrecision, 64) }

func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

func optFloat(p *float64) string {
	if p == nil {
		return ""
	}
	return ftoa(*p)
}
