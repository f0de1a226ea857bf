package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"golang.org/x/term"

	"arena/arena"
	"arena/arena/config"
	"arena/arena/output"
	"arena/arena/record"
	"arena/internal/termfit"
)

func init() {
	register("run", command{summary: "play the match a YAML config describes (or --resume a run)", run: runMatch})
}

func runMatch(args []string, stdout, stderr io.Writer) int {
	if isQuickMatch(args) {
		return quickRun(args, stdout, stderr)
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "run directory (default: output.dir/NAME-TIMESTAMP from the config)")
	resume := fs.String("resume", "", "continue the interrupted run in `DIR` (reads DIR/config.yaml)")
	concurrency := fs.Int("concurrency", 0, "play `N` games at once, each with its own engine processes (default: the config's concurrency, 1)")
	ratingInterval := fs.Int("rating-interval", 0, "print the Elo with its 95% interval and the pentanomial counts every `K` finished games (default: the config's rating_interval; 0: only at the end)")
	quiet := fs.Bool("quiet", false, "print no configuration block, no progress and no per-game lines: only the final results (and the rating intervals asked for) on stdout, warnings and errors on stderr")
	shardFlag := fs.String("shard", "", "play only shard `I/N` of the games (those numbered I+1, I+1+N, ...); default: from "+
		arena.EnvSlurmTaskID+"/"+arena.EnvSlurmTaskCount+" or "+arena.EnvK8sIndex+"/"+arena.EnvShardCount)
	cpuProfile := fs.String("cpuprofile", "", "write the arena process's CPU profile to `FILE` (go tool pprof; engines are processes of their own)")
	memProfile := fs.String("memprofile", "", "write the arena process's allocation profile at the end to `FILE` (go tool pprof -sample_index=alloc_space; every 4 KB allocated is sampled)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena run CONFIG.yaml [--out DIR] [--concurrency N] [--shard I/N] [--quiet]")
		fmt.Fprintln(stderr, "       arena run --resume DIR [--concurrency N] [--quiet]")
		fmt.Fprintln(stderr, "       arena run -engine OPTIONS -engine OPTIONS... [-each OPTIONS] [options]  (a quick match; arena run -engine -h)")
		fmt.Fprintln(stderr, "\nPlays the games, judges them with Stockfish and writes games.pgn, moves.csv,")
		fmt.Fprintln(stderr, "summary.json, summary.md and config.yaml into the run directory (see docs/guide.md; files: docs/reference.md).")
		fmt.Fprintln(stderr, "A config with sweep: runs once per value, each in a subdirectory of DIR, and writes")
		fmt.Fprintln(stderr, "the combined table to DIR/sweep.json and DIR/sweep.md; --resume DIR continues it.")
		fmt.Fprintln(stderr, "Shards of one config, each run into its own directory, are joined with arena merge;")
		fmt.Fprintln(stderr, "a format: knockout config cannot be sharded (its rounds depend on earlier results).")
		fmt.Fprintln(stderr, "Engine timeouts are config keys: start_timeout, ucinewgame_timeout, ping_timeout.")
		fs.PrintDefaults()
	}
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case *resume != "" && (len(positional) > 0 || *out != ""):
		fmt.Fprintln(stderr, "arena run: --resume DIR takes no config file and no --out (the run continues in DIR)")
		return 2
	case *resume == "" && len(positional) != 1:
		fs.Usage()
		return 2
	case *concurrency < 0 || *concurrency > config.MaxConcurrency:
		fmt.Fprintf(stderr, "arena run: --concurrency %d: expected 1 to %d games at once\n", *concurrency, config.MaxConcurrency)
		return 2
	case *ratingInterval < 0:
		fmt.Fprintf(stderr, "arena run: --rating-interval %d: expected a number of games, 1 or more (0: the config's)\n", *ratingInterval)
		return 2
	}
	shard, err := chooseShard(*shardFlag, *resume != "")
	if err != nil {
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return 2
	}

	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "arena run: --cpuprofile: %v\n", err)
			return 1
		}
		defer stopProfile()
	}
	if *memProfile != "" {
		// Sample finely: the default (one sample per 512 KB) misses most
		// of a run's small per-move allocations. Set before anything is
		// allocated for the run.
		runtime.MemProfileRate = 4096
		defer func() {
			if err := writeMemProfile(*memProfile); err != nil {
				fmt.Fprintf(stderr, "arena run: --memprofile: %v\n", err)
			}
		}()
	}
	var cfg *config.Config
	if *resume == "" {
		if cfg, err = config.Load(positional[0]); err != nil {
			fmt.Fprintf(stderr, "arena run: %v\n", err)
			return 1
		}
	}
	_, code = play(runRequest{cfg: cfg, resume: *resume, out: *out, concurrency: *concurrency, ratingInterval: *ratingInterval, shard: shard, quiet: *quiet}, stdout, stderr)
	return code
}

// startCPUProfile starts writing the process's CPU profile to path; the
// returned function stops it and closes the file.
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// writeMemProfile writes the allocation profile (every allocation
// sampled since MemProfileRate was set, and what is still live) to path.
func writeMemProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the live (inuse) figures are as of the last collection
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runRequest is what to play: a loaded config, or the run directory to
// resume, with the command line's run options.
type runRequest struct {
	cfg            *config.Config
	resume         string
	out            string
	concurrency    int
	ratingInterval int
	shard          record.Shard
	quiet          bool
}

// play runs a config (a YAML file's or a quick match's: the same path) or
// resumes a run, and returns the run directory (empty when none was made)
// and the exit status.
func play(req runRequest, stdout, stderr io.Writer) (dir string, code int) {
	binary, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "arena run: cannot find the arena executable to run built-in engines: %v\n", err)
		return "", 1
	}
	ctx, stop := interruptContext()
	defer stop()
	go func() {
		// After the first Ctrl-C the run winds down; a second one kills.
		<-ctx.Done()
		stop()
	}()
	terminal, width := isTerminal(stdout), terminalWidth(stdout)
	if terminal {
		// No line wider than the terminal, whoever prints it.
		width = cmp.Or(width, 80)
		stdout = termfit.NewWriter(stdout, width)
	}
	opt := arena.Options{Binary: binary, OutDir: req.out, Stdout: stdout, Terminal: terminal, Width: width, Concurrency: req.concurrency, Shard: req.shard,
		RatingInterval: req.ratingInterval, Quiet: req.quiet, Stderr: stderr}

	var sum *record.Summary
	switch {
	case req.resume != "" && output.IsSweepDir(req.resume):
		_, err = arena.ResumeSweep(ctx, req.resume, opt)
	case req.resume != "":
		sum, err = arena.Resume(ctx, req.resume, opt)
	case req.cfg.Sweep != nil:
		_, err = arena.RunSweep(ctx, req.cfg, opt)
	default:
		sum, err = arena.Run(ctx, req.cfg, opt)
	}
	if sum != nil {
		dir = sum.RunDir
	}
	var ie *arena.InterruptedError
	switch {
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "\narena run: %v\n", err)
		return ie.Dir, 130
	case err != nil:
		fmt.Fprintf(stderr, "arena run: %v\n", err)
		return dir, 1
	}
	return dir, 0
}

// chooseShard is the --shard flag's shard, else the one the environment of
// a Slurm array task or a Kubernetes Indexed Job pod names. A resumed run
// keeps the shard it was started with, so there only the flag counts.
func chooseShard(flagValue string, resuming bool) (record.Shard, error) {
	if flagValue != "" {
		return record.ParseShard(flagValue)
	}
	if resuming {
		return record.Shard{}, nil
	}
	s, _, err := arena.ShardFromEnv(os.Getenv)
	return s, err
}

// terminalWidth is stdout's width in columns, 0 when unknown.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			return cols
		}
	}
	return 0
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
