//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"arena/engines"
	"arena/engines/heuristic"
	"arena/engines/mcts"
	"arena/engines/neural"
	"arena/engines/nn"
	"arena/engines/supervised"
)

func init() {
	register("bench", command{
		summary: "search a fixed set of positions with a built-in engine and report nodes, time and nodes/s",
		run:     runBench,
	})
}

// benchDefaultDepth makes the default bench of the heuristic engine take
// about 10-20 seconds on one core.
const benchDefaultDepth = 8

// benchDefaults are the limits of a bench without --depth, --movetime or
// --nodes for engines that depth 8 does not suit: mcts searches the thesis's
// 1 s per move (its nodes/s is simulations/s), supervised its thesis depth.
var benchDefaults = map[string]engines.Limits{
	mcts.Name:       {MoveTime: time.Second},
	supervised.Name: {Depth: 2},
}

func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", 0, fmt.Sprintf("search every position to depth `N` (default %d unless --movetime or --nodes is given; mcts: --movetime 1s, supervised: depth 2)", benchDefaultDepth))
	movetime := fs.Duration("movetime", 0, "search every position for `D` (e.g. 500ms)")
	nodes := fs.Int64("nodes", 0, "search every position for `N` nodes")
	opts := optionFlags{}
	fs.Var(opts, "option", "engine option `NAME=VALUE` (repeatable; 'arena engines' lists them)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena bench [ENGINE] [--depth N | --movetime D | --nodes N] [--option NAME=VALUE ...]")
		fmt.Fprintf(stderr, "\nSearches %d fixed positions with a built-in engine (default %s) and prints\nnodes, time and nodes/s per position and in total (for mcts nodes are simulations).\nFor %s it times the value network instead: one position, and per position in\nbatches of 32 and 256 (takes no limits; the shipped net unless --option model=FILE|builtin:NAME).\nbuilt-in engines: %s\n\n",
			len(engines.BenchPositions), heuristic.Name, neural.Name, strings.Join(engines.Names(), ", "))
		fs.PrintDefaults()
	}
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	name := heuristic.Name
	if len(positional) > 0 {
		name = positional[0]
	}
	if len(positional) > 1 {
		fmt.Fprintf(stderr, "arena bench: unexpected arguments %q after engine %s (options go in --option NAME=VALUE)\n", positional[1:], name)
		return 2
	}
	set := 0
	for _, given := range []bool{*depth != 0, *movetime != 0, *nodes != 0} {
		if given {
			set++
		}
	}
	switch {
	case set > 1:
		fmt.Fprintln(stderr, "arena bench: give only one of --depth, --movetime and --nodes")
		return 2
	case *depth < 0 || *movetime < 0 || *nodes < 0:
		fmt.Fprintln(stderr, "arena bench: --depth, --movetime and --nodes must be positive")
		return 2
	case set > 0 && name == neural.Name:
		fmt.Fprintf(stderr, "arena bench: %s takes no --depth, --movetime or --nodes (it times the network's forward pass)\n", name)
		return 2
	}
	lim := engines.Limits{Depth: *depth, MoveTime: *movetime, Nodes: *nodes}
	if set == 0 {
		lim = engines.Limits{Depth: benchDefaultDepth}
		if l, ok := benchDefaults[name]; ok {
			lim = l
		}
	}
	e, err := engines.New(name, opts)
	if err != nil {
		fmt.Fprintf(stderr, "arena bench: %v\n", err)
		return 2
	}
	defer e.Close()
	if n, ok := e.(*neural.Engine); ok {
		model := opts["model"]
		if model == "" {
			model = defaultModel + " (the default)"
		}
		fmt.Fprintf(stdout, "engine %s, model %s\n", e.Name(), model)
		if err := nn.Bench(stdout, n.Net()); err != nil {
			fmt.Fprintf(stderr, "arena bench: %v\n", err)
			return 1
		}
		return 0
	}

	ctx, stop := interruptContext()
	defer stop()
	fmt.Fprintf(stdout, "engine %s, limits: %s\n", e.Name(), describeLimits(lim))
	if _, err := engines.RunBench(ctx, e, lim, stdout); err != nil {
		fmt.Fprintf(stderr, "arena bench: %v\n", err)
		return 1
	}
	return 0
}

func describeLimits(l engines.Limits) string {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("%d nodes", l.Nodes)
	default:
		return "movetime " + l.MoveTime.Round(time.Millisecond).String()
	}
}
