package arena

import (
	"os"
	"runtime"
)

// gamesPerProc is how many games at once one thread of the Go scheduler
// serves; a judged game counts twice (the judge reads every position's
// analysis, about what the game's own moves cost).
//
// The arena's own work is small and bursty: every line an engine writes
// wakes the goroutine reading it, which hands it to the game's goroutine.
// With a P (GOMAXPROCS) per core, each such wake-up also wakes an idle
// thread that spins, finds nothing and sleeps again: one P instead of two
// cut the arena's CPU per ply in a Stockfish 1,000-node match by 45% on 2
// cores (docs/reference.md, "The arena's own cost, beside fastchess"). A game needs 0.2-0.4 ms
// of the arena per ply; at a few milliseconds per engine move one P keeps up
// with eight games with room to spare, and the engines keep the cores.
const gamesPerProc = 8

// limitProcs sets GOMAXPROCS to what games at once need, unless the
// GOMAXPROCS environment variable chose it, and returns the function that
// restores the previous value.
func limitProcs(games int, judged bool) (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	if judged {
		games *= 2
	}
	procs := min(runtime.GOMAXPROCS(0), (max(games, 1)+gamesPerProc-1)/gamesPerProc)
	old := runtime.GOMAXPROCS(procs)
	return func() { runtime.GOMAXPROCS(old) }
}
