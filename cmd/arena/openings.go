//go:build !worker

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"arena/arena/book"
	"arena/arena/openings"
	"arena/internal/atomicfile"
)

func init() {
	register("openings", command{summary: "generate a balanced opening book (openings generate)", run: openingsCommand})
}

func openingsCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "generate" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprintln(stdout, "usage: arena openings generate --count N --out FILE.epd [flags] (-h for the flags)")
			return 0
		}
		fmt.Fprintln(stderr, "usage: arena openings generate --count N --out FILE.epd [flags] (-h for the flags)")
		return 2
	}
	return openingsGenerate(args[1:], stdout, stderr)
}

func openingsGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("openings generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	count := fs.Int("count", 0, "number of positions (required)")
	plies := fs.Int("plies", book.DefaultPlies, "plies from the start position")
	maxEval := fs.Int("max-eval", book.DefaultMaxEval, "keep positions Stockfish evaluates within ±`CP` centipawns")
	depth := fs.Int("depth", book.DefaultDepth, "Stockfish search depth of every evaluation")
	seed := fs.Int64("seed", 1, "seed of the random choices (same seed and Stockfish: same book)")
	margin := fs.Int("margin", book.DefaultMargin, "pick each ply among the moves within `CP` centipawns of Stockfish's best")
	pickDepth := fs.Int("pick-depth", book.DefaultPickDepth, "Stockfish depth of the evaluations that pick the moves")
	uniform := fs.Bool("uniform", false, "pick each ply uniformly among all legal moves instead (no Stockfish during the walk)")
	workers := fs.Int("workers", 1, "Stockfish processes")
	stockfish := fs.String("stockfish", book.DefaultStockfish, "Stockfish command or path")
	out := fs.String("out", "", "output EPD `FILE` (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena openings generate --count N --out FILE.epd [--plies P] [--max-eval CP] [--depth D] [--seed S]")
		fmt.Fprintln(stderr, "\nPlays P random plies from the start position (each among the moves Stockfish finds within")
		fmt.Fprintln(stderr, "--margin of the best, or --uniform), keeps positions not seen before whose evaluation at")
		fmt.Fprintln(stderr, "--depth is within ±--max-eval centipawns, and writes N of them as EPD (see docs/guide.md, \"Balanced books\").")
		fs.PrintDefaults()
	}
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena openings generate: unexpected argument %q\n", extra[0])
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "arena openings generate: --out FILE is required (the EPD file to write)")
		return 2
	}
	cfg := book.Config{Count: *count, Plies: *plies, MaxEval: *maxEval, Depth: *depth, Seed: *seed,
		Uniform: *uniform, Margin: *margin, PickDepth: *pickDepth, Stockfish: *stockfish, Workers: *workers}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena openings generate: %s\n", strings.ReplaceAll(err.Error(), "\n", "; "))
		return 2
	}

	ctx, stop := interruptContext()
	defer stop()
	start := time.Now()
	last := time.Now()
	positions, st, err := book.Generate(ctx, cfg, func(s book.Stats) {
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			fmt.Fprintf(stdout, "%d/%d positions after %d walks (%s)\n", s.Kept, cfg.Count, s.Tried, time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "arena openings generate: %v\n", err)
		return 1
	}
	pick := fmt.Sprintf("--margin %d --pick-depth %d", cfg.Margin, cfg.PickDepth)
	if cfg.Uniform {
		pick = "--uniform"
	}
	command := fmt.Sprintf("arena openings generate --count %d --plies %d --max-eval %d --depth %d --seed %d %s --out %s",
		cfg.Count, cfg.Plies, cfg.MaxEval, cfg.Depth, cfg.Seed, pick, *out)
	var buf bytes.Buffer
	comment := fmt.Sprintf("%s\n%s; %d walks: %d kept, %d duplicates, %d outside ±%d cp, %d ended early",
		command, st.Stockfish, st.Tried, st.Kept, st.Duplicates, st.Unbalanced, cfg.MaxEval, st.Ended)
	if err := book.WriteEPD(&buf, positions, cfg.Depth); err != nil {
		fmt.Fprintf(stderr, "arena openings generate: %v\n", err)
		return 1
	}
	// The side file first: a book is never without its provenance.
	if err := atomicfile.WriteFile(openings.SideFile(*out), []byte(book.Provenance(comment))); err != nil {
		fmt.Fprintf(stderr, "arena openings generate: %v\n", err)
		return 1
	}
	if err := atomicfile.WriteFile(*out, buf.Bytes()); err != nil {
		fmt.Fprintf(stderr, "arena openings generate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d positions to %s (provenance in %s) in %s (%d walks: %d duplicates, %d outside ±%d cp, %d ended early; %d Stockfish searches)\n",
		len(positions), *out, openings.SideFile(*out), time.Since(start).Round(time.Millisecond), st.Tried, st.Duplicates, st.Unbalanced, cfg.MaxEval, st.Ended, st.Evaluations)
	return 0
}
