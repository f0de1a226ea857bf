//go:build !worker

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"arena/arena/datagen"
)

// runDatagenSelfPlay is `arena datagen selfplay`. The first interrupt is a
// soft stop (the games in progress are finished and committed, so the file
// ends after a whole game and resuming continues exactly); a second one
// stops at once, losing only the games in progress.
func runDatagenSelfPlay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("datagen selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena datagen selfplay --out FILE [options]")
		fmt.Fprintln(stderr, "\nSelf-play positions of the heuristic engine at preset strong, searched at a fixed node")
		fmt.Fprintln(stderr, "budget, as NNUE training text: FEN | score | result (White's view; docs/nnue.md).")
		fmt.Fprintln(stderr, "Positions in check, after or before a capture or promotion, and with mate scores are")
		fmt.Fprintln(stderr, "skipped. The same options give the same file; Ctrl-C stops after the games in progress")
		fmt.Fprintln(stderr, "(twice: at once) and --resume continues exactly.")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := datagen.SelfPlayConfig{RandomPlies: 8}.Defaults()
	fs.StringVar(&cfg.Out, "out", "", "data `FILE` (state in FILE.state, lock FILE.lock)")
	fs.BoolVar(&cfg.Resume, "resume", false, "continue FILE from its state file")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed (game i is played from seed and i alone)")
	fs.Int64Var(&cfg.Nodes, "nodes", cfg.Nodes, "node budget per move")
	fs.IntVar(&cfg.RandomPlies, "random-plies", cfg.RandomPlies, "random opening moves: N or N+1 per game (after the book position)")
	fs.StringVar(&cfg.Book, "book", "", "EPD/FEN `file` of start positions, one drawn per game (none: the start position)")
	fs.IntVar(&cfg.Positions, "positions", cfg.Positions, "stop when FILE holds this many positions")
	fs.IntVar(&cfg.MaxPlies, "max-plies", cfg.MaxPlies, "a game longer than this is a draw")
	fs.IntVar(&cfg.HashMB, "hash", cfg.HashMB, "engine transposition table in MB")
	fs.IntVar(&cfg.WinScore, "win-score", cfg.WinScore, "adjudicate a win after --win-plies plies with |score| >= this (cp)")
	fs.IntVar(&cfg.WinPlies, "win-plies", cfg.WinPlies, "see --win-score")
	fs.IntVar(&cfg.DrawAfter, "draw-after", cfg.DrawAfter, "adjudicate draws from this ply on")
	fs.IntVar(&cfg.DrawScore, "draw-score", cfg.DrawScore, "adjudicate a draw after --draw-plies plies with |score| <= this (cp)")
	fs.IntVar(&cfg.DrawPlies, "draw-plies", cfg.DrawPlies, "see --draw-score")
	fs.StringVar(&cfg.Label, "label", "", "stockfish: re-score the kept positions with Stockfish at --depth")
	fs.IntVar(&cfg.Judge.Depth, "depth", cfg.Judge.Depth, "--label stockfish: search depth")
	fs.StringVar(&cfg.Judge.Command, "stockfish", cfg.Judge.Command, "--label stockfish: program name or path")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "games played in parallel (the data does not depend on it)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena datagen selfplay: unexpected argument %q\n", extra[0])
		return 2
	}
	cfg.Judge.Workers = cfg.Workers
	if !*quiet {
		cfg.Progress = stderr
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena datagen selfplay: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		if _, ok := <-sigs; !ok {
			return
		}
		fmt.Fprintln(stderr, "arena datagen selfplay: stopping after the games in progress (interrupt again to stop now)")
		close(stop)
		if _, ok := <-sigs; ok {
			cancel()
		}
	}()
	st, err := datagen.SelfPlay(ctx, cfg, stop)
	fmt.Fprintf(stdout, "%s: %d positions from %d games (%d positions, %d games added) in %s, %.0f positions/s, %.0f per CPU-second\n",
		cfg.Out, st.State.Positions, st.State.Games, st.Positions, st.Games, st.Elapsed.Round(1e9),
		float64(st.Positions)/st.Elapsed.Seconds(), float64(st.Positions)/st.CPU.Seconds())
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "arena datagen selfplay: interrupted; continue with --resume")
			return 130
		}
		fmt.Fprintf(stderr, "arena datagen selfplay: %v\n", err)
		return 1
	}
	return 0
}
