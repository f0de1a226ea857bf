//go:build !worker

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"arena/arena/datagen"
	"arena/tracker"
)

func init() {
	register("datagen", command{
		summary: "label positions with Stockfish for training (from PGN or self-generated games)",
		run:     runDatagen,
	})
}

func runDatagen(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "selfplay" {
		return runDatagenSelfPlay(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("datagen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena datagen --out FILE [--pgn GAMES.pgn,...] [options]")
		fmt.Fprintln(stderr, "       arena datagen selfplay --out FILE [options]   (NNUE data: see arena datagen selfplay -h)")
		fmt.Fprintln(stderr, "\nWrites positions labelled by Stockfish (cp and mate from White's view, game result)")
		fmt.Fprintln(stderr, "as tab-separated lines (format: docs/models.md). Without --pgn the positions come")
		fmt.Fprintln(stderr, "from games of the built-in heuristic engine with random openings. Interrupted runs")
		fmt.Fprintln(stderr, "continue with --resume.")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := datagen.Config{Judge: tracker.JudgeConfig{Workers: 2}}.Defaults()
	fs.StringVar(&cfg.Out, "out", "", "data `FILE` to write (appended to with --resume)")
	fs.BoolVar(&cfg.Resume, "resume", false, "add to an existing file, skipping the positions it holds")
	exclude := fs.String("exclude", "", "comma-separated data `files` whose positions are never written (e.g. the training data, for a held-out set)")
	pgn := fs.String("pgn", "", "comma-separated PGN `files` to take positions from (none: self-generated games)")
	fs.IntVar(&cfg.MinElo, "min-elo", 0, "PGN: minimum WhiteElo and BlackElo")
	fs.IntVar(&cfg.SkipPlies, "skip", 0, "skip the first N plies of each game")
	fs.IntVar(&cfg.Every, "every", cfg.Every, "take every k-th ply")
	fs.IntVar(&cfg.MaxPositions, "max", cfg.MaxPositions, "positions in the file when done (resumed ones included)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "self-generated games: random seed")
	fs.IntVar(&cfg.RandomPlies, "random-plies", cfg.RandomPlies, "self-generated games: up to N random opening plies (at least N/2)")
	fs.IntVar(&cfg.EngineDepth, "engine-depth", cfg.EngineDepth, "self-generated games: heuristic engine depth drawn from 1..N per game")
	fs.Float64Var(&cfg.Epsilon, "epsilon", 0.05, "self-generated games: chance of a random move after the opening")
	fs.IntVar(&cfg.MaxPlies, "max-plies", cfg.MaxPlies, "self-generated games: stop a game after N plies (result *)")
	fs.IntVar(&cfg.Judge.Depth, "depth", cfg.Judge.Depth, "Stockfish search depth per position")
	fs.IntVar(&cfg.Judge.Workers, "workers", cfg.Judge.Workers, "Stockfish processes labelling in parallel")
	fs.StringVar(&cfg.Judge.Command, "stockfish", cfg.Judge.Command, "Stockfish program name or path")
	fs.IntVar(&cfg.ChunkSize, "chunk", cfg.ChunkSize, "positions per fsynced append")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	extra, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(extra) > 0 {
		fmt.Fprintf(stderr, "arena datagen: unexpected argument %q\n", extra[0])
		return 2
	}
	if *pgn != "" {
		cfg.PGN = strings.Split(*pgn, ",")
	}
	if *exclude != "" {
		cfg.Exclude = strings.Split(*exclude, ",")
	}
	if !*quiet {
		cfg.Progress = stderr
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena datagen: %v\n", err)
		return 2
	}
	ctx, stop := interruptContext()
	defer stop()
	st, err := datagen.Run(ctx, cfg)
	fmt.Fprintf(stdout, "%s: %d positions (%d added, %d games, %d Stockfish searches at depth %d) in %s\n",
		cfg.Out, st.Existing+st.Written, st.Written, st.Games, st.Evaluated, cfg.Judge.Depth, st.Elapsed.Round(1e9))
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "arena datagen: interrupted; continue with --resume")
			return 130
		}
		fmt.Fprintf(stderr, "arena datagen: %v\n", err)
		return 1
	}
	return 0
}
