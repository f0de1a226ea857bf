package main

import (
	"flag"
	"fmt"
	"io"

	"arena/arena"
)

func init() {
	register("merge", command{summary: "join the shard directories of one run (arena run --shard) into one run directory", run: mergeShards})
}

func mergeShards(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: arena merge OUT DIR...")
		fmt.Fprintln(stderr, "\nJoins the directories of the N shards of one config (arena run CONFIG --shard I/N --out DIR)")
		fmt.Fprintln(stderr, "into OUT, which then holds what a single run writes: config.yaml, games.jsonl, games.pgn and")
		fmt.Fprintln(stderr, "moves.csv in game order, summary.json and summary.md (crosstable, ratings, SPRT). Shards of")
		fmt.Fprintln(stderr, "different configs, two copies of one shard and missing shards or games are refused.")
		fmt.Fprintln(stderr, "Sweep shards are merged setting by setting. See docs/guide.md, \"Clusters: shards and merge\".")
		fs.PrintDefaults()
	}
	positional, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(positional) < 2 {
		fs.Usage()
		return 2
	}
	if _, err := arena.Merge(positional[0], positional[1:], stdout); err != nil {
		fmt.Fprintf(stderr, "arena merge: %v\n", err)
		return 1
	}
	return 0
}
