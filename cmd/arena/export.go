//go:build !worker

package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"arena/arena/output"
	"arena/internal/atomicfile"
)

func init() {
	register("export", command{summary: "derive a run's games.pgn and moves.csv from its games.jsonl", run: runExport})
}

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pgn := fs.String("pgn", "", "write the games as PGN to `FILE` (- for standard output)")
	moves := fs.String("csv", "", "write the per-move measurements (moves.csv) to `FILE` (- for standard output)")
	jsonl := fs.String("jsonl", "", "write the games log's lines (games.jsonl, from whichever form it is stored in) to `FILE` (- for standard output)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena export RUN_DIR [--pgn FILE] [--csv FILE] [--jsonl FILE]")
		fmt.Fprintln(stderr, "\nDerives the PGN and moves.csv of a run directory of arena run from its games.jsonl (or")
		fmt.Fprintln(stderr, "games.jsonl.gz) and config.yaml, byte for byte as the run writes them. Without --pgn or")
		fmt.Fprintln(stderr, "--csv both are written into RUN_DIR as games.pgn and moves.csv (see docs/report.md).")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(dirs) != 1 {
		fmt.Fprintf(stderr, "arena export: expected one run directory, got %d\n", len(dirs))
		fs.Usage()
		return 2
	}
	dir := dirs[0]
	if *jsonl != "" {
		if *pgn != "" || *moves != "" {
			fmt.Fprintln(stderr, "arena export: --jsonl goes alone (without --pgn or --csv)")
			return 2
		}
		if err := writeTo(*jsonl, stdout, func(w io.Writer) error { return output.CopyLog(dir, w) }); err != nil {
			fmt.Fprintf(stderr, "arena export: %v\n", err)
			return 1
		}
		return 0
	}
	if *pgn == "-" && *moves == "-" {
		fmt.Fprintln(stderr, "arena export: --pgn and --csv cannot both be standard output")
		return 2
	}
	if *pgn == "" && *moves == "" {
		*pgn, *moves = filepath.Join(dir, output.PGNFile), filepath.Join(dir, output.MovesFile)
	}
	err := writeTo(*pgn, stdout, func(pw io.Writer) error {
		return writeTo(*moves, stdout, func(cw io.Writer) error { return output.Export(dir, pw, cw) })
	})
	if err != nil {
		fmt.Fprintf(stderr, "arena export: %v\n", err)
		return 1
	}
	return 0
}

// writeTo runs fill with what path names: the file, replaced only when fill
// succeeds; stdout for "-"; nothing (nil) for "".
func writeTo(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if path == "" {
		return fill(nil)
	}
	write := func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := fill(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	if path == "-" {
		return write(stdout)
	}
	return atomicfile.Write(path, write)
}
