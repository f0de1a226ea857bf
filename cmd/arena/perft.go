//go:build !worker

package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"arena/engines/board"
)

func init() {
	register("perft", command{
		summary: "count move-generation leaf nodes (--fen, --depth, --divide) or check an EPD file of counts (--epd)",
		run:     runPerft,
	})
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", board.StartFEN, "position to count from")
	depth := fs.Int("depth", 0, "depth in plies (required without --epd)")
	divide := fs.Bool("divide", false, "print the count below each root move")
	epd := fs.String("epd", "", "`FILE` of lines \"FEN ;D1 n ;D2 n ...\" whose counts are checked")
	maxNodes := fs.Uint64("max-nodes", 0, "with --epd: skip counts above `N` nodes (0: check all)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena perft [--fen FEN] --depth N [--divide]")
		fmt.Fprintln(stderr, "       arena perft --epd FILE [--max-nodes N]")
		fmt.Fprintln(stderr, "\nCounts the leaves of the legal move tree (every move is made, leaves included).")
		fmt.Fprintln(stderr, "With --epd, exits 1 if any count differs and 2 on bad input.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena perft: unexpected argument %q (the position is given with --fen)\n", extra[0])
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	if *epd != "" {
		for _, name := range []string{"fen", "depth", "divide"} {
			if set[name] {
				fmt.Fprintf(stderr, "arena perft: --%s cannot be combined with --epd (the file gives positions and depths)\n", name)
				return 2
			}
		}
		return perftEPD(*epd, *maxNodes, stdout, stderr)
	}
	if set["max-nodes"] {
		fmt.Fprintln(stderr, "arena perft: --max-nodes applies only with --epd")
		return 2
	}
	if *depth < 1 {
		fmt.Fprintf(stderr, "arena perft: --depth %d: expected a depth of at least 1\n", *depth)
		return 2
	}
	p, err := board.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintf(stderr, "arena perft: --fen: %v\n", err)
		return 2
	}
	start := time.Now()
	var nodes uint64
	if *divide {
		entries := board.Divide(p, *depth)
		elapsed := time.Since(start)
		slices.SortFunc(entries, func(a, b board.DivideEntry) int {
			return cmp.Compare(a.Move.String(), b.Move.String())
		})
		for _, e := range entries {
			fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
			nodes += e.Nodes
		}
		fmt.Fprintf(stdout, "\nmoves %d\n", len(entries))
		printPerftTotals(stdout, nodes, elapsed)
		return 0
	}
	nodes = board.Perft(p, *depth)
	printPerftTotals(stdout, nodes, time.Since(start))
	return 0
}

func printPerftTotals(w io.Writer, nodes uint64, elapsed time.Duration) {
	fmt.Fprintf(w, "nodes %d\n", nodes)
	fmt.Fprintf(w, "time  %.3fs\n", elapsed.Seconds())
	if elapsed > 0 {
		fmt.Fprintf(w, "nps   %.0f\n", float64(nodes)/elapsed.Seconds())
	}
}

func perftEPD(path string, maxNodes uint64, stdout, stderr io.Writer) int {
	lines, err := board.ReadPerftFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "arena perft: %v\n", err)
		return 2
	}
	var checks, ok, skipped int
	var nodes uint64
	var elapsed time.Duration
	mismatches, err := board.CheckEPD(lines, maxNodes, func(c board.PerftCheck) {
		checks++
		where := fmt.Sprintf("%s:%d D%d", path, c.Line, c.Depth)
		switch {
		case c.Skipped:
			skipped++
			fmt.Fprintf(stdout, "%s skip     expected %d > --max-nodes %d\n", where, c.Expected, maxNodes)
		case c.OK():
			ok++
			nodes += c.Got
			elapsed += c.Elapsed
			fmt.Fprintf(stdout, "%s ok       %d (%.3fs)\n", where, c.Got, c.Elapsed.Seconds())
		default:
			nodes += c.Got
			elapsed += c.Elapsed
			fmt.Fprintf(stdout, "%s MISMATCH expected %d got %d  %s\n", where, c.Expected, c.Got, c.FEN)
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "arena perft: %s: %v\n", path, err)
		return 2
	}
	fmt.Fprintf(stdout, "\n%d checks: %d ok, %d mismatches, %d skipped\n", checks, ok, mismatches, skipped)
	printPerftTotals(stdout, nodes, elapsed)
	if mismatches > 0 {
		return 1
	}
	return 0
}
