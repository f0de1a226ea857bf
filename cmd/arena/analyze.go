//go:build !worker

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"arena/arena/output"
	"arena/tracker"
	"arena/tracker/pgn"
)

func init() {
	register("analyze", command{
		summary: "judge the games of a PGN file with Stockfish (ACPL, accuracy, errors)",
		run:     runAnalyze,
	})
}

func runAnalyze(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena analyze GAMES.pgn|RUN_DIR [--depth 12] [--protocol position|thesis] [--out FILE] [--stockfish PATH] [--workers N]")
		fmt.Fprintln(stderr, "\nJudges every game of a PGN file (its main line; comments, NAGs and variations are")
		fmt.Fprintln(stderr, "skipped) with Stockfish and prints per game and per player ACPL, lichess accuracy")
		fmt.Fprintln(stderr, "and inaccuracies/mistakes/blunders. GAMES.pgn may be - for standard input, or")
		fmt.Fprintln(stderr, "gzipped (GAMES.pgn.gz); a run directory of `arena run` is judged from its "+output.GamesFile)
		fmt.Fprintln(stderr, "(or "+output.GamesFile+output.GzipExt+") as `arena export` writes its PGN, so one set of games")
		fmt.Fprintln(stderr, "can be judged by both protocols (see docs/judge.md).")
		fmt.Fprintln(stderr, "\noptions:")
		fs.PrintDefaults()
	}
	cfg := tracker.JudgeConfig{}.WithDefaults()
	fs.IntVar(&cfg.Depth, "depth", cfg.Depth, "Stockfish search depth per position")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "Stockfish processes evaluating in parallel")
	fs.StringVar(&cfg.Command, "stockfish", cfg.Command, "Stockfish program name or path")
	fs.IntVar(&cfg.Cap, "cap", cfg.Cap, "upper clamp of one move's centipawn loss")
	fs.IntVar(&cfg.MateScore, "mate-score", cfg.MateScore, "centipawn value of a mate")
	fs.StringVar(&cfg.Protocol, "protocol", cfg.Protocol, "judge protocol: position (each position once, cold, cached) or thesis (warm, full history, two searches per ply)")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "bound on one Stockfish search; a judge that does not answer is restarted and the position retried once")
	out := fs.String("out", "", "also write the report as JSON to `FILE`")
	quiet := fs.Bool("quiet", false, "no per-game progress on stderr")
	timeouts := timeoutFlags(fs, "Stockfish")

	files, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintf(stderr, "arena analyze: expected one PGN file, got %d\n", len(files))
		fs.Usage()
		return 2
	}
	if err := cfg.Validate(); err != nil {
		fmt.Fprintf(stderr, "arena analyze: %v\n", err)
		return 2
	}
	if err := checkTimeouts(timeouts); err != nil {
		fmt.Fprintf(stderr, "arena analyze: %v\n", err)
		return 2
	}
	cfg.Timeouts = *timeouts

	in, name, err := openGames(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "arena analyze: %v\n", err)
		return 1
	}
	defer in.Close()
	ctx, stop := interruptContext()
	defer stop()
	judge, err := tracker.NewJudge(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "arena analyze: %v\n", err)
		return 1
	}
	defer judge.Close()

	progress := func(g tracker.AnalyzedGame) {
		if !*quiet {
			fmt.Fprintf(stderr, "game %d: %s - %s %s, %d plies judged\n", g.Number, g.White, g.Black, g.Result, g.Plies)
		}
	}
	rep, err := tracker.AnalyzePGN(ctx, in, judge, progress)
	if err == nil && len(rep.Games) == 0 {
		err = fmt.Errorf("no games (expected a PGN file of games)")
	}
	if err != nil {
		fmt.Fprintf(stderr, "arena analyze: %s: %v\n", name, err)
		return 1
	}
	if err := writeAnalysis(rep, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "arena analyze: %v\n", err)
		return 1
	}
	return 0
}

// writeAnalysis prints the analysis and, with out set, writes it as JSON.
func writeAnalysis(rep tracker.Analysis, out string, stdout io.Writer) error {
	if err := rep.Render(stdout); err != nil {
		return err
	}
	if out == "" {
		return nil
	}
	if err := rep.WriteFile(out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report written to %s\n", out)
	return nil
}

// openGames opens the games to judge: "-" is standard input, a run
// directory the PGN output.Export derives from its games.jsonl (the one
// record a committed run keeps), any FILE.gz decompressed. A file
// without games is an error before Stockfish starts (standard input is
// checked after the analysis instead: it cannot be read twice). name is the
// file actually opened.
func openGames(arg string) (in io.ReadCloser, name string, err error) {
	if arg == "-" {
		return io.NopCloser(os.Stdin), arg, nil
	}
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		var games bytes.Buffer
		if err := output.Export(arg, &games, nil); err != nil {
			return nil, arg, err
		}
		return io.NopCloser(&games), filepath.Join(arg, output.GamesFile), nil
	}
	name = arg
	f, err := output.Open(name)
	if err != nil {
		return nil, name, err
	}
	name = f.Name()
	_, err = pgn.NewReader(f).Next()
	f.Close()
	if err == io.EOF {
		return nil, name, fmt.Errorf("%s: no games (expected a PGN file of games)", name)
	}
	// A gzip stream cannot seek back: the file is opened again.
	if f, err = output.Open(name); err != nil {
		return nil, name, err
	}
	return f, name, nil
}
