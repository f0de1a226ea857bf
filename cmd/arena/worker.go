//go:build worker

// The worker build of arena: go build -tags worker ./cmd/arena (make worker,
// bin/arena-worker). It keeps only what a cluster node runs — run (and its
// quick-match form), merge and version — and none of the built-in engines,
// report, plots, serve, training or data generation: every other file of this
// command is tagged !worker, engines_import.go included. It plays external UCI
// engines only (engine: uci, command:), as fastchess does.
//
// Why a second build: a match's harness peaked at 21.7 MB RSS as the one
// binary (41 MB, every linked package's init touching its pages) against
// fastchess's 7.3-7.4 MB, and the built-in engines cannot be dropped from it,
// because a match runs each built-in engine as "arena uci ENGINE" of the same
// binary. Without them the binary is 7.5 MB (docs/reference.md, "The worker
// build", has the measurements).
package main

import (
	"os"
	"runtime/debug"

	"arena/arena/config"
)

func init() {
	buildName = "arena-worker"
	versionNote = "worker build: external UCI engines only"
	usageNote = "The worker build: it plays external UCI engines only (engine: uci with command:).\n" +
		"Built-in engines, report, serve, train, datagen and the other commands are in the full arena binary."
	config.NoBuiltins = `this binary is arena-worker, which plays external UCI engines only ` +
		`(engine: uci with command:); use the full arena binary for the built-in engines`

	// GC target 50 rather than Go's 100, unless GOGC says otherwise. A
	// match's live heap is well under Go's 4 MB minimum heap target, so the
	// heap grows to that minimum times GOGC/100 before a collection: at 100
	// the worker peaked at 12.5-12.6 MB RSS, at 50 at 10.5-10.7 MB, 1.43-1.46
	// times fastchess's 7.3-7.4 MB, within the 1.5 times this build is for,
	// and its CPU stayed at 0.78-0.89 times fastchess's (harness-cost, 40
	// games of Stockfish at 1,000 nodes, 4 rounds on an idle Xeon). The
	// extra collections cost little because the heap is so small.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
}
