// Package random is the built-in "random" engine: it plays a uniformly
// random legal move. It is the baseline a trained network must beat (the
// thesis's arena fell back to random moves silently; here it is an engine
// one names on purpose).
//
// The move depends only on the seed option and the position (its Zobrist
// key and ply), so games against deterministic engines replay exactly.
package random

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"arena/engines"
	"arena/engines/board"
)

// Name is the registry name of the engine.
const Name = "random"

func init() {
	engines.Register(engines.Spec{
		Name:        Name,
		Description: "uniformly random legal moves (a baseline), seeded",
		Options: []engines.Option{{Name: "seed", Type: engines.Spin, Default: "0", Min: 0, Max: math.MaxInt32,
			Help: "random seed: the move is a function of the seed and the position"}},
		New: func(opts engines.Options) (engines.Engine, error) { return New(opts) },
	})
}

// Engine is the random mover.
type Engine struct {
	seed  uint64
	moves board.MoveList
}

// New builds the engine from resolved options.
func New(opts engines.Options) (*Engine, error) {
	return &Engine{seed: uint64(opts.Int("seed"))}, nil
}

// Name identifies the engine.
func (e *Engine) Name() string { return Name }

// NewGame does nothing: the engine has no state.
func (e *Engine) NewGame() {}

// Close does nothing.
func (e *Engine) Close() error { return nil }

// Search picks a legal move of pos at random; it ignores the limits except
// that "go infinite" answers once ctx is cancelled.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	start := time.Now()
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		return engines.Result{}, fmt.Errorf("%s: position: %w", Name, err)
	}
	p.GenerateLegal(&e.moves)
	res := engines.Result{Depth: 1, Nodes: int64(e.moves.Len)}
	if e.moves.Len > 0 {
		rng := rand.New(rand.NewPCG(e.seed, p.Hash()^uint64(len(pos.Moves))))
		res.Move = e.moves.Moves[rng.IntN(e.moves.Len)].String()
		res.PV = []string{res.Move}
	}
	// Without any limit (or "go infinite") UCI expects the answer only after "stop".
	if lim.Unbounded() {
		<-ctx.Done()
	}
	res.Time = time.Since(start)
	if info != nil && res.Move != "" {
		info(engines.Info{Depth: 1, Nodes: res.Nodes, Time: res.Time, PV: res.PV})
	}
	return res, nil
}
