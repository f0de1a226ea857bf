//go:build !worker

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
	"arena/arena/suite"
	"arena/engines"
)

func init() {
	register("suite", command{summary: "score engines on an EPD test suite (STS, WAC, ...: bm, am, c0 points)", run: runSuite})
}

// suiteDefaultMoveTime is the limit without --movetime, --nodes or --depth:
// the seeds' STS figures are at 1 s a move.
const suiteDefaultMoveTime = time.Second

// suiteEngine is one --engine flag with the --name and --option flags that
// follow it.
type suiteEngine struct {
	spec    string // as given: a built-in name or cmd=COMMAND [ARGS]
	name    string
	options optionFlags
}

// suiteEngines collects --engine flags; --option and --name apply to the
// latest one, so flags are read in order.
type suiteEngines struct{ list []*suiteEngine }

func (s *suiteEngines) String() string { return "" }

func (s *suiteEngines) Set(v string) error {
	if rest, isCmd := strings.CutPrefix(v, "cmd="); strings.TrimSpace(v) == "" || isCmd && strings.TrimSpace(rest) == "" {
		return fmt.Errorf("expected a built-in engine name or cmd=COMMAND")
	}
	s.list = append(s.list, &suiteEngine{spec: v, options: optionFlags{}})
	return nil
}

func (s *suiteEngines) last(flag string) (*suiteEngine, error) {
	if len(s.list) == 0 {
		return nil, fmt.Errorf("%s applies to the --engine before it; give --engine first", flag)
	}
	return s.list[len(s.list)-1], nil
}

type suiteOption struct{ s *suiteEngines }

func (o suiteOption) String() string { return "" }
func (o suiteOption) Set(v string) error {
	e, err := o.s.last("--option")
	if err != nil {
		return err
	}
	return e.options.Set(v)
}

type suiteName struct{ s *suiteEngines }

func (o suiteName) String() string { return "" }
func (o suiteName) Set(v string) error {
	e, err := o.s.last("--name")
	if err == nil {
		e.name = v
	}
	return err
}

// listFlag collects comma-separated values of one limit flag.
type listFlag struct {
	parse  func(string) (engines.Limits, error)
	limits *[]engines.Limits
}

func (l listFlag) String() string { return "" }
func (l listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		lim, err := l.parse(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		*l.limits = append(*l.limits, lim)
	}
	return nil
}

func positiveInt(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: expected a whole number > 0", s)
	}
	return n, nil
}

// suiteLimitFlags defines --movetime, --nodes and --depth, each adding a
// column per value to limits.
func suiteLimitFlags(fs *flag.FlagSet, limits *[]engines.Limits) {
	fs.Var(listFlag{limits: limits, parse: func(s string) (engines.Limits, error) {
		d, err := config.ParseDuration(s)
		if err != nil || d <= 0 {
			return engines.Limits{}, fmt.Errorf("%q: expected a duration such as 100ms or 1s", s)
		}
		return engines.Limits{MoveTime: d}, nil
	}}, "movetime", "search each position for `D[,D...]` (a column per value; default 1s without --nodes or --depth)")
	fs.Var(listFlag{limits: limits, parse: func(s string) (engines.Limits, error) {
		n, err := positiveInt(s)
		return engines.Limits{Nodes: n}, err
	}}, "nodes", "search each position for `N[,N...]` nodes (a column per value)")
	fs.Var(listFlag{limits: limits, parse: func(s string) (engines.Limits, error) {
		n, err := positiveInt(s)
		return engines.Limits{Depth: int(n)}, err
	}}, "depth", "search each position to depth `N[,N...]` (a column per value)")
}

func runSuite(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("suite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var engs suiteEngines
	var limits []engines.Limits
	fs.Var(&engs, "engine", "a built-in `ENGINE` or cmd=COMMAND (an external UCI engine); repeat for a column per engine")
	fs.Var(suiteOption{&engs}, "option", "`NAME=VALUE` option of the --engine before it (repeatable)")
	fs.Var(suiteName{&engs}, "name", "`LABEL` of the --engine before it (default: its name and options)")
	suiteLimitFlags(fs, &limits)
	concurrency := fs.Int("concurrency", 1, "positions searched at once, each by its own engine process")
	csvPath := fs.String("csv", "", "write one row per engine and position to `OUT.csv`")
	timeouts := timeoutFlags(fs, "an engine")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena suite FILE.epd... --engine ENGINE [--option NAME=VALUE ...] [--engine ...]")
		fmt.Fprintln(stderr, "                   [--movetime D,... | --nodes N,... | --depth N,...] [--concurrency N] [--csv OUT.csv]")
		fmt.Fprintln(stderr, "\nSearches every position of the EPD files with each engine under each limit and scores")
		fmt.Fprintln(stderr, "the moves by the files' bm, am and c0 (STS points); prints points and positions solved")
		fmt.Fprintln(stderr, "per theme and in total, one column per engine and limit (see docs/suite.md).")
		fmt.Fprintf(stderr, "ENGINE is a built-in engine (%s) or cmd=COMMAND, e.g.\n", strings.Join(engines.Names(), ", "))
		fmt.Fprintln(stderr, "  --engine heuristic --option preset=strong --engine cmd=stockfish --option \"Skill Level=0\"")
		fs.PrintDefaults()
	}
	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(files) == 0:
		fmt.Fprintln(stderr, "arena suite: no EPD file given")
		fs.Usage()
		return 2
	case len(engs.list) == 0:
		fmt.Fprintf(stderr, "arena suite: no --engine given (built-in engines: %s; or cmd=COMMAND)\n", strings.Join(engines.Names(), ", "))
		return 2
	case *concurrency < 1 || *concurrency > config.MaxConcurrency:
		fmt.Fprintf(stderr, "arena suite: --concurrency %d: expected 1 to %d\n", *concurrency, config.MaxConcurrency)
		return 2
	}
	if err := checkTimeouts(timeouts); err != nil {
		fmt.Fprintf(stderr, "arena suite: %v\n", err)
		return 2
	}
	if len(limits) == 0 {
		limits = []engines.Limits{{MoveTime: suiteDefaultMoveTime}}
	}
	configs, err := suiteEngineConfigs(engs.list)
	if err != nil {
		fmt.Fprintf(stderr, "arena suite: %v\n", err)
		return 2
	}
	positions, err := suite.LoadFiles(files...)
	if err != nil {
		fmt.Fprintf(stderr, "arena suite: %v\n", err)
		return 1
	}
	binary, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "arena suite: cannot find the arena executable to run built-in engines: %v\n", err)
		return 1
	}
	cols := suite.Columns(configs, limits)
	fmt.Fprintf(stdout, "%d positions from %s; %d column(s), %d at a time\n", len(positions), fileList(files), len(cols), *concurrency)
	ctx, stop := interruptContext()
	defer stop()
	results, runErr := suite.Run(ctx, cols, positions, suite.Options{Binary: binary, Concurrency: *concurrency, Progress: stderr, Timeouts: *timeouts})
	if err := writeSuiteResults(stdout, *csvPath, cols, positions, results); err != nil {
		fmt.Fprintf(stderr, "arena suite: %v\n", err)
		return 1
	}
	switch {
	case errors.Is(runErr, ctx.Err()) && runErr != nil:
		fmt.Fprintln(stderr, "arena suite: interrupted; the results above are those of the positions searched")
		return 130
	case runErr != nil:
		fmt.Fprintf(stderr, "arena suite: %v\n", runErr)
		return 1
	}
	return 0
}

// fileList names the files, or only counts them when there are many.
func fileList(files []string) string {
	if len(files) > 3 {
		return fmt.Sprintf("%d files", len(files))
	}
	return strings.Join(files, ", ")
}

// writeSuiteResults prints the table of what was searched and, with csvPath
// set, writes the per-position CSV.
func writeSuiteResults(stdout io.Writer, csvPath string, cols []suite.Column, positions []*suite.Position, results [][]suite.Result) error {
	fmt.Fprintln(stdout)
	suite.WriteTable(stdout, cols, positions, results)
	if csvPath == "" {
		return nil
	}
	if err := suite.WriteCSV(csvPath, cols, positions, results); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "per-position results: %s\n", csvPath)
	return nil
}

// suiteEngineConfigs checks every --engine as a config's engines: entry
// would be checked and labels it by its name and options.
func suiteEngineConfigs(list []*suiteEngine) ([]config.EngineConfig, error) {
	var out []config.EngineConfig
	seen := map[string]bool{}
	for _, s := range list {
		engine, command := s.spec, ""
		var args []string
		if rest, ok := strings.CutPrefix(s.spec, "cmd="); ok {
			f := strings.Fields(rest)
			engine, command, args = config.UCIEngine, f[0], f[1:]
		}
		e, err := config.NewEngineConfig(s.name, engine, command, args, s.options)
		if err != nil {
			return nil, fmt.Errorf("--engine %s: %w", s.spec, err)
		}
		if s.name == "" && len(s.options) > 0 {
			e.Name += " " + optionLabel(s.options)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("--engine %s: a second engine labelled %q (give --name LABEL after it)", s.spec, e.Name)
		}
		seen[e.Name] = true
		out = append(out, e)
	}
	return out, nil
}

func optionLabel(o map[string]string) string {
	parts := make([]string, 0, len(o))
	for k, v := range o {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
