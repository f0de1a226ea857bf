// Package arena plays matches between chess engines described by a YAML file,
// measures every move (wall time, nodes, depth, the engine process's RAM and,
// through the tracker's Stockfish judge, centipawn loss and accuracy) and
// writes PGN, per-move CSV, JSON and Markdown summaries that survive an
// interrupted run.
package arena

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/internal/atomicfile"
)

// Options control how a match is run (as opposed to what is played, which
// the Config says).
type Options struct {
	// Binary is the arena executable that built-in engines are run with
	// ("BINARY uci ENGINE --option NAME=VALUE ..."); the CLI passes
	// os.Executable(). Required when a built-in engine plays.
	Binary string
	// OutDir is the run directory; empty: Config.Output.Dir/NAME-TIMESTAMP.
	OutDir string
	// Stdout receives the configuration block, progress and the results.
	Stdout io.Writer
	// Terminal enables the live progress line (stdout is a terminal).
	Terminal bool
	// Width is the terminal's width in columns (0: 80); the live line
	// is cut to fit.
	Width int
	// Concurrency, when above 0, overrides the config's concurrency.
	Concurrency int
	// RatingInterval, when above 0, overrides the config's
	// rating_interval (it changes what is printed, not the games).
	RatingInterval int
	// Shard restricts the run to one shard of the schedule (zero: all).
	Shard record.Shard
	// Quiet prints no configuration block, no progress and no per-game
	// lines (arena run --quiet): Stdout gets the rating intervals asked
	// for and the final results, Stderr the warnings.
	Quiet  bool
	Stderr io.Writer
}

// chatter is where the configuration block and progress go.
func (o Options) chatter() io.Writer {
	if o.Quiet || o.Stdout == nil {
		return io.Discard
	}
	return o.Stdout
}

// warnings is where warnings go: with the rest on Stdout, or on Stderr
// when the rest is quiet.
func (o Options) warnings() io.Writer {
	w := o.Stdout
	if o.Quiet {
		w = o.Stderr
	}
	if w == nil {
		return io.Discard
	}
	return w
}

// InterruptedError is returned when the context is cancelled mid-run. The
// finished games are saved and the run can be resumed from Dir.
type InterruptedError struct {
	Dir         string
	Done, Total int
	Unit        string // what Done and Total count: "games" (when empty) or "settings" of a sweep
}

func (e *InterruptedError) Error() string {
	unit := e.Unit
	if unit == "" {
		unit = "games"
	}
	return fmt.Sprintf("interrupted after %d of %d %s; resume with: arena run --resume %s", e.Done, e.Total, unit, e.Dir)
}

// Run plays the match cfg describes and writes its results into a new run
// directory. It returns the summary of the finished games; on cancellation
// of ctx it stops the engines and returns an *InterruptedError.
func Run(ctx context.Context, cfg *config.Config, opt Options) (*record.Summary, error) {
	if cfg.Sweep != nil {
		return nil, fmt.Errorf("%s has a sweep: of %d settings; run it with RunSweep", cfg.File, len(cfg.Sweep.Configs))
	}
	if opt.OutDir != "" {
		if err := checkFreshDir(opt.OutDir); err != nil {
			return nil, err
		}
	}
	if opt.Concurrency > 0 {
		// The flag wins, and config.yaml records it for --resume.
		c := *cfg
		c.Concurrency = opt.Concurrency
		cfg = &c
	}
	return run(ctx, cfg, "", nil, opt)
}

// checkFreshDir refuses a directory that already holds a run or a sweep.
func checkFreshDir(dir string) error {
	if output.IsSweepDir(dir) {
		return fmt.Errorf("%s already holds a sweep (%s exists); continue it with: arena run --resume %s", dir, output.SweepJSON, dir)
	}
	if log, err := output.Locate(filepath.Join(dir, output.GamesFile)); err == nil {
		return fmt.Errorf("%s already holds a run (%s exists); continue it with: arena run --resume %s", dir, filepath.Base(log), dir)
	}
	return nil
}

// claimRunDir makes the run directory (opt.OutDir, or a new
// output.dir/NAME-TIMESTAMP), locks it, checks under the lock that no other
// run got there first, and writes the resolved config into it.
func claimRunDir(cfg *config.Config, opt Options, stdout io.Writer) (string, *dirLock, error) {
	dir := opt.OutDir
	if dir == "" {
		var err error
		if dir, err = newRunDir(cfg.Output.Dir, cfg.Name, time.Now()); err != nil {
			return "", nil, err
		}
	} else if err := os.MkdirAll(dir, output.DirPerm); err != nil {
		return "", nil, fmt.Errorf("create run directory: %w", err)
	}
	lock, err := lockDir(dir, "arena run", stdout)
	if err != nil {
		return "", nil, err
	}
	if err := checkFreshDir(dir); err != nil {
		lock.unlock()
		return "", nil, err
	}
	data, err := cfg.MarshalIn(dir)
	if err == nil {
		err = atomicfile.WriteFile(filepath.Join(dir, output.ConfigFile), data)
	}
	if err != nil {
		lock.unlock()
		return "", nil, fmt.Errorf("write %s: %w", output.ConfigFile, err)
	}
	return dir, lock, nil
}

// Resume continues the run in dir: it reloads dir/config.yaml and the games
// finished in dir/games.jsonl and plays the rest, with the shard the run
// was started with. Games recorded without the judge's verdict (the judge
// was interrupted or failed) are judged again first. Game files compressed
// at the end of the run (output.compress) are made plain again once the
// engines have started, and compressed again when this run ends.
func Resume(ctx context.Context, dir string, opt Options) (*record.Summary, error) {
	if output.IsSweepDir(dir) {
		return nil, fmt.Errorf("resume %s: it holds a sweep (%s), not a single run; resume it with ResumeSweep", dir, output.SweepJSON)
	}
	path := filepath.Join(dir, output.ConfigFile)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("resume %s: no %s (not an arena run directory?)", dir, output.ConfigFile)
	}
	lock, err := lockDir(dir, "arena run --resume", opt.warnings())
	if err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	fail := func(err error) (*record.Summary, error) {
		lock.unlock()
		return nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return fail(err)
	}
	prev, err := readSummaryHead(dir)
	if err != nil {
		return fail(err)
	}
	warning, err := checkPlayed(cfg, prev)
	if err != nil {
		return fail(err)
	}
	if warning != "" {
		fmt.Fprintf(opt.warnings(), "Warning: %s\n", warning)
	}
	if opt.Concurrency > 0 {
		cfg.Concurrency = opt.Concurrency
	}
	if prev != nil && prev.Shard != nil {
		if !opt.Shard.IsZero() && opt.Shard != *prev.Shard {
			return fail(fmt.Errorf("the run is shard %s, not %s", prev.Shard, opt.Shard))
		}
		opt.Shard = *prev.Shard
	}
	return run(ctx, cfg, dir, lock, opt)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// newRunDir creates root/NAME-YYYYMMDD-HHMMSS (with a suffix if taken).
func newRunDir(root, name string, now time.Time) (string, error) {
	base := strings.Trim(unsafeName.ReplaceAllString(name, "-"), "-")
	if base == "" {
		base = "match"
	}
	base = filepath.Join(root, base+"-"+now.Format("20060102-150405"))
	if err := os.MkdirAll(root, output.DirPerm); err != nil {
		return "", fmt.Errorf("create output directory: %w", err)
	}
	dir := base
	for i := 2; ; i++ {
		err := os.Mkdir(dir, output.DirPerm)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", fmt.Errorf("create run directory: %w", err)
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}

// shardGames is the number of games of a schedule of total games that
// shard s plays.
func shardGames(total int, s record.Shard) int {
	if s.Count <= 1 {
		return total
	}
	return (total - s.Index + s.Count - 1) / s.Count
}

// run plays the games of the schedule (of opt.Shard) not yet finished in
// dir. dir and lock are those of a resumed run; a new run's directory is
// created once the engines and the judge have started, so that a run that
// cannot start leaves nothing behind (nor a resumed one decompressed).
func run(ctx context.Context, cfg *config.Config, dir string, lock *dirLock, opt Options) (sum *record.Summary, err error) {
	defer func() { lock.unlock() }()
	m, err := newMatch(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	defer m.close()
	defer limitProcs(m.n, !cfg.Judge.Off)()
	if dir == "" {
		if dir, lock, err = claimRunDir(cfg, opt, opt.warnings()); err != nil {
			return nil, err
		}
	} else {
		drop, archived, err := output.Archived(dir)
		if err != nil {
			return nil, err
		}
		if archived {
			m.archive = &drop
		}
		if err := output.Decompress(dir); err != nil {
			return nil, err
		}
	}
	if err := m.open(ctx, dir); err != nil {
		return nil, m.compress(err)
	}
	sum, err = m.play(ctx)
	return sum, m.compress(err)
}

// compress stores the game files compressed (output.compress) when the run
// ended as it should, finished or interrupted, and the log in columns again
// when the resumed run had it so (arena archive); after any other error they
// stay plain, for a look at what went wrong and for --resume, which reads
// any form.
func (m *match) compress(err error) error {
	var ie *InterruptedError
	if !m.cfg.Output.Compress && m.archive == nil || err != nil && !errors.As(err, &ie) {
		return err
	}
	if m.cfg.Output.Compress {
		if cerr := output.Compress(m.dir); cerr != nil {
			return cerr
		}
	}
	if m.archive != nil {
		if _, _, cerr := output.Archive(m.dir, *m.archive); cerr != nil {
			return cerr
		}
	}
	return err
}
