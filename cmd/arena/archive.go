//go:build !worker

package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"arena/arena"
	"arena/arena/output"
)

func init() {
	register("archive", command{summary: "store finished runs' games.jsonl in columns, the compact form to commit", run: runArchive})
}

// gameKeys are the move keys the game itself is: without them there is no
// PGN to export.
var gameKeys = []string{"ply", "side", "engine", "uci", "san"}

func runArchive(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("archive", flag.ContinueOnError)
	fs.SetOutput(stderr)
	drop := fs.String("drop", "", "comma-separated move `KEYS` to leave out (e.g. pv: the principal variations, which a replay of a node-limited run gives back; or time_s)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena archive RUN_DIR... [--drop KEYS]")
		fmt.Fprintln(stderr, "\nReplaces each run's games.jsonl (or games.jsonl.gz) by "+output.GamesFile+output.ColumnsExt+": each move key's values")
		fmt.Fprintln(stderr, "stored together, 2-3 times smaller than gzip. Every arena command reads it as the log;")
		fmt.Fprintln(stderr, "`arena export RUN_DIR --jsonl -` prints the lines, and a resumed run turns it back into")
		fmt.Fprintln(stderr, "games.jsonl. The log is removed only after the columns decode to it byte for byte")
		fmt.Fprintln(stderr, "(without the --drop keys).")
		fs.PrintDefaults()
	}
	dirs, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(dirs) == 0 {
		fmt.Fprintln(stderr, "arena archive: expected one or more run directories")
		fs.Usage()
		return 2
	}
	var keys []string
	if *drop != "" {
		for _, k := range strings.Split(*drop, ",") {
			if k = strings.TrimSpace(k); k == "" || slices.Contains(gameKeys, k) {
				fmt.Fprintf(stderr, "arena archive: --drop %q: expected move keys other than %s (the game itself: its PGN needs them), e.g. pv or time_s\n", *drop, strings.Join(gameKeys, ", "))
				return 2
			}
			keys = append(keys, k)
		}
	}
	for _, dir := range dirs {
		if err := arena.Archive(dir, keys, stdout); err != nil {
			fmt.Fprintf(stderr, "arena archive: %v\n", err)
			return 1
		}
	}
	return 0
}
