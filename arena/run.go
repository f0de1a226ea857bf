package arena

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"arena/tracker"
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
func Run(ctx context.Context, cfg *Config, opt Options) (*Summary, error) {
	if cfg.Sweep != nil {
		return nil, fmt.Errorf("%s has a sweep: of %d settings; run it with RunSweep", cfg.File, len(cfg.Sweep.Configs))
	}
	if opt.OutDir != "" {
		if _, err := os.Stat(filepath.Join(opt.OutDir, GamesFile)); err == nil {
			return nil, fmt.Errorf("%s already holds a run (%s exists); continue it with: arena run --resume %s", opt.OutDir, GamesFile, opt.OutDir)
		}
	}
	return run(ctx, cfg, "", nil, opt)
}

// createRunDir makes the run directory (opt.OutDir, or a new
// output.dir/NAME-TIMESTAMP) and writes the resolved config into it.
func createRunDir(cfg *Config, opt Options) (string, error) {
	dir := opt.OutDir
	if dir == "" {
		var err error
		if dir, err = newRunDir(cfg.Output.Dir, cfg.Name, time.Now()); err != nil {
			return "", err
		}
	} else if err := os.MkdirAll(dir, dirPerm); err != nil {
		return "", fmt.Errorf("create run directory: %w", err)
	}
	data, err := cfg.Marshal()
	if err != nil {
		return "", err
	}
	if err := writeFileAtomic(filepath.Join(dir, ConfigFile), data); err != nil {
		return "", fmt.Errorf("write %s: %w", ConfigFile, err)
	}
	return dir, nil
}

// Resume continues the run in dir: it reloads dir/config.yaml and the games
// finished in dir/games.jsonl and plays the rest. Games that were recorded
// without the judge's verdict (the judge was interrupted or failed) are
// judged again first.
func Resume(ctx context.Context, dir string, opt Options) (*Summary, error) {
	path := filepath.Join(dir, ConfigFile)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("resume %s: no %s (not an arena run directory?)", dir, ConfigFile)
	}
	cfg, err := Load(path)
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	done, err := readGames(filepath.Join(dir, GamesFile))
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", dir, err)
	}
	return run(ctx, cfg, dir, done, opt)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// newRunDir creates root/NAME-YYYYMMDD-HHMMSS (with a suffix if taken).
func newRunDir(root, name string, now time.Time) (string, error) {
	base := strings.Trim(unsafeName.ReplaceAllString(name, "-"), "-")
	if base == "" {
		base = "match"
	}
	base = filepath.Join(root, base+"-"+now.Format("20060102-150405"))
	if err := os.MkdirAll(root, dirPerm); err != nil {
		return "", fmt.Errorf("create output directory: %w", err)
	}
	dir := base
	for i := 2; ; i++ {
		err := os.Mkdir(dir, dirPerm)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", fmt.Errorf("create run directory: %w", err)
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}

// runner holds a match in progress.
type runner struct {
	cfg     *Config
	binary  string
	players []*player
	judge   *tracker.Judge
}

// run plays the games of the schedule not yet in done. dir is the run
// directory of a resumed run; for a new run it is created once the engines
// and the judge have started, so that a run that cannot start leaves nothing
// behind.
func run(ctx context.Context, cfg *Config, dir string, done []*GameRecord, opt Options) (sum *Summary, err error) {
	stdout := opt.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	var openings []Opening
	if cfg.Openings != nil {
		if openings, err = LoadOpenings(*cfg.Openings); err != nil {
			return nil, err
		}
	}
	games := schedule(cfg, openings)
	if len(done) > len(games) {
		return nil, fmt.Errorf("%s: %d games recorded but the config schedules %d", dir, len(done), len(games))
	}
	for i, g := range done {
		s := games[i]
		if g.White != cfg.Engines[s.White].Name || g.Black != cfg.Engines[s.Black].Name {
			return nil, fmt.Errorf("%s: recorded game %d (%s vs %s) does not match the config's schedule (%s vs %s)",
				dir, g.Game, g.White, g.Black, cfg.Engines[s.White].Name, cfg.Engines[s.Black].Name)
		}
		// Records written before games carried their pair number get it
		// from the schedule they were played by.
		g.Pair = s.Pair
	}
	started := time.Now().UTC().Truncate(time.Second)
	if len(done) > 0 {
		started = done[0].Start
	}

	r := &runner{cfg: cfg, binary: opt.Binary}
	for _, e := range cfg.Engines {
		if e.Builtin() && r.binary == "" {
			return nil, fmt.Errorf("engine %q is built-in (%s) but no arena binary was given to run it with", e.Name, e.Engine)
		}
		r.players = append(r.players, &player{cfg: e})
	}
	defer r.close()
	judgeID := ""
	if !cfg.Judge.Off {
		if r.judge, err = tracker.NewJudge(ctx, cfg.Judge.JudgeConfig); err != nil {
			return nil, err
		}
		judgeID = r.judge.Engine()
	}
	// Start every engine before the first game so that a wrong command or
	// option is reported at once rather than as lost games.
	ids := map[string]string{}
	for _, p := range r.players {
		if err := p.start(ctx, r.binary, r.cfg.TimeMargin.D()); err != nil {
			return nil, err
		}
		ids[p.cfg.Name] = p.id
	}
	if dir == "" {
		if dir, err = createRunDir(cfg, opt); err != nil {
			return nil, err
		}
	}
	writeMatchConfig(stdout, cfg, started, len(games), dir)
	if len(done) > 0 {
		fmt.Fprintf(stdout, "Resuming: %d of %d games already played\n", len(done), len(games))
	}
	fmt.Fprintln(stdout)
	for _, g := range done {
		if r.judge != nil && g.WhiteStats == nil && len(g.Moves) > 0 {
			if err := judgeGame(ctx, r.judge, g); err != nil {
				return nil, &InterruptedError{Dir: dir, Done: len(done), Total: len(games)}
			}
		}
	}
	out, err := openOutputs(dir, cfg, done)
	if err != nil {
		return nil, err
	}
	defer out.close()

	summarizeNow := func() *Summary {
		return summarize(cfg, dir, started, len(games), done, ids, judgeID)
	}
	writeSummaries := func(s *Summary) error {
		js, err := s.JSON()
		if err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, SummaryJSON), js); err != nil {
			return fmt.Errorf("write %s: %w", SummaryJSON, err)
		}
		md, err := s.Markdown(cfg)
		if err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, SummaryMD), md); err != nil {
			return fmt.Errorf("write %s: %w", SummaryMD, err)
		}
		return nil
	}
	sum = summarizeNow()
	if err := writeSummaries(sum); err != nil {
		return nil, err
	}
	prog := &progress{w: stdout, terminal: opt.Terminal, total: len(games), start: time.Now(), done0: len(done)}
	for _, spec := range games[len(done):] {
		if sum.SPRT.Decided() {
			break
		}
		prog.live(len(done), sum, spec.Number, 0)
		rec, err := r.playGame(ctx, spec, func(ply int) { prog.live(len(done), sum, spec.Number, ply) })
		if err != nil {
			prog.clear()
			return sum, &InterruptedError{Dir: dir, Done: len(done), Total: len(games)}
		}
		if r.judge != nil {
			prog.live(len(done), sum, spec.Number, rec.Plies)
			if err := judgeGame(ctx, r.judge, rec); err != nil {
				rec.JudgeError = "judge interrupted; judged again on resume"
			}
		}
		done = append(done, rec)
		if cfg.SPRT != nil {
			rec.LLR = sprtStatus(cfg, done).LLR
		}
		if err := out.appendGame(rec, done); err != nil {
			return sum, err
		}
		sum = summarizeNow()
		if err := writeSummaries(sum); err != nil {
			return sum, err
		}
		prog.gameDone(rec, sum)
		if ctx.Err() != nil {
			return sum, &InterruptedError{Dir: dir, Done: len(done), Total: len(games)}
		}
	}
	if sum.SPRT.Decided() {
		fmt.Fprintf(stdout, "Match stopped after %d of %d games: %s\n", len(done), len(games), sum.SPRT)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, "=== RESULTS ===")
	if err := sum.WriteTable(stdout); err != nil {
		return sum, err
	}
	for _, p := range r.players {
		if w := p.infoWarning(); w != "" {
			fmt.Fprintln(stdout, w)
		}
	}
	fmt.Fprintf(stdout, "Results in %s (%s, %s, %s, %s, %s)\n", dir, PGNFile, MovesFile, SummaryJSON, SummaryMD, ConfigFile)
	return sum, nil
}

func (r *runner) close() {
	for _, p := range r.players {
		p.stop()
	}
	if r.judge != nil {
		r.judge.Close()
	}
}
