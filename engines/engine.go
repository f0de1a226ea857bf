// Package engines defines the contract every chess engine in arena implements,
// in process (the built-in engines) or over UCI (external binaries), and the
// registry of built-in engines with their typed options.
//
// A position is handed to an engine the way UCI hands it: a start FEN plus the
// moves played since, in UCI notation. Engines therefore see the whole game
// history (needed for repetition detection) and the UCI server and client map
// onto the interface one to one.
//
// Stopping is done with the context: when ctx is cancelled (UCI "stop", a
// deadline, the arena shutting down) an engine returns the best move it has
// found so far without error, as a UCI engine answers "stop" with a bestmove.
//
// Options are layers: an option's default, under the preset the user chose
// (a Preset is a named set of option values declared in the Spec), under
// the values the user set. What travels is the user layer alone (Options
// holding only what was set): a config's options, the arena's --option
// arguments to "arena uci ENGINE" and every setoption the UCI server
// receives. Only at the end, where an engine is built, does Spec.Resolve
// stack the layers, so "preset strong, lmr false, max_depth 10" means
// exactly that whichever order the values arrived in, and a value equal to
// the default still beats the preset. Engines therefore never see presets
// and never need to tell "left at the default" from "set to the default";
// the resolved view is also what the arena shows.
package engines

import (
	"context"
	"fmt"
	"time"
)

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Position is a game to search: a start position and the moves played from it.
type Position struct {
	FEN   string   // empty means StartFEN
	Moves []string // UCI long algebraic, e.g. "e2e4", "e7e8q"
}

// StartFENOrDefault returns p.FEN, or StartFEN when it is empty.
func (p Position) StartFENOrDefault() string {
	if p.FEN == "" {
		return StartFEN
	}
	return p.FEN
}

// Limits bound one search. Zero fields are unset; with nothing set at all the
// search runs until the context is cancelled (UCI "go infinite").
type Limits struct {
	MoveTime  time.Duration
	Nodes     int64
	Depth     int
	WTime     time.Duration
	BTime     time.Duration
	WInc      time.Duration
	BInc      time.Duration
	MovesToGo int
	Infinite  bool
	// Overhead is kept back from the clock on every move (the engine's
	// Move Overhead option, set by the UCI server): time the GUI counts
	// and the engine does not see.
	Overhead time.Duration
}

// HasClock reports whether a game clock (wtime/btime) is set.
func (l Limits) HasClock() bool { return l.WTime > 0 || l.BTime > 0 }

// Unbounded reports whether l leaves the search unbounded: "go infinite",
// or a go with no depth, nodes, movetime or clock. The engine then answers
// only once ctx is cancelled, as a UCI engine holds its bestmove until
// "stop".
func (l Limits) Unbounded() bool {
	return l.Infinite || (l.MoveTime <= 0 && !l.HasClock() && l.Depth <= 0 && l.Nodes <= 0)
}

// Score is an evaluation from the side to move's point of view: centipawns,
// or, when Mate is non-zero, mate in Mate moves (negative: being mated), as in
// UCI "score cp" and "score mate".
type Score struct {
	CP   int
	Mate int
}

// IsMate reports whether the score is a mate score.
func (s Score) IsMate() bool { return s.Mate != 0 }

// String formats the score as UCI does ("cp 35", "mate -3").
func (s Score) String() string {
	if s.Mate != 0 {
		return fmt.Sprintf("mate %d", s.Mate)
	}
	return fmt.Sprintf("cp %d", s.CP)
}

// Info is a progress report during a search (a UCI "info" line).
type Info struct {
	Depth    int
	SelDepth int
	Score    Score
	Nodes    int64
	Time     time.Duration
	PV       []string
	String   string // free text ("info string ..."); other fields unset when this is used
}

// Result is the outcome of a search.
type Result struct {
	Move     string // UCI notation; empty when there is no legal move
	Ponder   string
	Score    Score
	Depth    int
	SelDepth int
	Nodes    int64
	Time     time.Duration // wall time of the search, from the start of thinking to the move
	PV       []string
}

// InfoFunc receives progress reports; it may be nil.
type InfoFunc func(Info)

// Engine is a chess engine. Implementations need not be safe for concurrent
// Search calls; one game drives one engine at a time.
type Engine interface {
	// Name identifies the engine (UCI "id name").
	Name() string
	// NewGame clears state that must not carry from one game to the next.
	NewGame()
	// Search finds a move for the side to move in pos within lim. On context
	// cancellation it returns the best move found so far and a nil error.
	Search(ctx context.Context, pos Position, lim Limits, info InfoFunc) (Result, error)
	// Close releases the engine's resources (processes, files).
	Close() error
}
