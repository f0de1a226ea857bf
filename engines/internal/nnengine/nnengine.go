// Package nnengine is what the three value-network engines (nn, mcts and
// supervised) share: their model and seed options, loading the network, the
// beginning and end of every search (Begin, Search.Finish), the game-end
// rules applied to an already generated move list, the mapping of a network
// value to centipawns and the per-search random source.
package nnengine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn"
	"arena/engines/nn/nets"
)

// Option names every value-network engine takes.
const (
	OptModel = "model"
	OptSeed  = "seed"
	// OptDraws is the game-end rules option of the searching engines
	// (mcts and supervised); DrawsOption describes it.
	OptDraws = "draws"
)

// DrawsOption is the option choosing the game-end rules a search applies
// (Status): "correct" the board's, "thesis" python-chess's is_game_over(),
// which the listings call.
func DrawsOption() engines.Option {
	return engines.Option{Name: OptDraws, Type: engines.Combo, Default: "correct", Vars: []string{"correct", "thesis"},
		Help: "correct: threefold repetition (the game history counts) and the fifty-move rule end a game in the search; " +
			"thesis: only fivefold and 75 moves do, as python-chess's is_game_over() in the listing"}
}

// Options returns the model and seed options, to be listed first by each
// engine. The model defaults to the shipped net defaultNet (nets.SelfPlay or
// nets.Supervised), so the default is declared by the engine's spec where
// `arena engines` and the resolved options show it; a model that cannot be
// loaded is an error, never a random mover (the thesis's arena silently
// fell back to random moves).
func Options(defaultNet, seedHelp string) []engines.Option {
	return []engines.Option{
		{Name: OptModel, Type: engines.String, Default: nets.Prefix + defaultNet,
			Help: "ValueNet weight file (.safetensors, or a PyTorch torch.save .pt checkpoint), or a shipped net: " +
				nets.Prefix + nets.SelfPlay + ", " + nets.Prefix + nets.Supervised + "; empty: the default (docs/models.md)"},
		{Name: OptSeed, Type: engines.Spin, Default: "0", Min: 0, Max: math.MaxInt32, Help: seedHelp},
	}
}

// LoadNet loads the model option of engine: a file, a shipped net
// ("builtin:NAME") or, when empty, the shipped net defaultNet (the same
// default its Options declared). The error names the engine, the option and
// the path.
func LoadNet(engine, path, defaultNet string) (*nn.Net, error) {
	if path == "" || strings.HasPrefix(path, nets.Prefix) {
		name := strings.TrimPrefix(path, nets.Prefix)
		if path == "" {
			name = defaultNet
		}
		net, _, err := nets.Load(name)
		if err != nil {
			return nil, fmt.Errorf("%s: option %s=%s: %w", engine, OptModel, path, err)
		}
		return net, nil
	}
	net, err := loadFile(path)
	if err != nil {
		// nn's errors name the path already ("model PATH: ..." or
		// "read model: open PATH: ...").
		return nil, fmt.Errorf("%s: option %s=%s: %w", engine, OptModel, path, err)
	}
	return net, nil
}

// Search is one search of a network engine, from Begin to Finish: the
// part of Engine.Search that is the same in every engine.
type Search struct {
	Pos   *board.Position // the position to search
	Start time.Time       // when the search began
}

// Begin starts a search of engine, which is closed when its net is gone:
// searching after Close and an invalid position are errors naming the
// engine.
func Begin(engine string, net *nn.Net, pos engines.Position) (Search, error) {
	start := time.Now()
	if net == nil {
		return Search{}, fmt.Errorf("%s: search after Close", engine)
	}
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		return Search{}, fmt.Errorf("%s: position: %w", engine, err)
	}
	return Search{Pos: p, Start: start}, nil
}

// Finish ends the search with res: it reports res as the final info line
// (when there is a move), holds the answer of an unbounded search (see
// engines.Limits.Unbounded) until ctx is cancelled, and sets res.Time.
func (s Search) Finish(ctx context.Context, lim engines.Limits, info engines.InfoFunc, res engines.Result) engines.Result {
	res.Time = time.Since(s.Start)
	if info != nil && res.Move != "" {
		info(engines.Info{Depth: res.Depth, SelDepth: res.SelDepth, Score: res.Score, Nodes: res.Nodes, Time: res.Time, PV: res.PV})
	}
	if lim.Unbounded() {
		<-ctx.Done()
		res.Time = time.Since(s.Start)
	}
	return res
}

// Status is board.Position.Status computed from the legal moves ml already
// generated in p, so a search that needs both generates them once. The rules
// are the board's: mate and stalemate first, then the fifty-move rule,
// threefold repetition (the game history counts) and insufficient material.
// With thesisDraws (draws=thesis) they are python-chess's is_game_over():
// the 75-move rule and fivefold repetition instead, reported as FiftyMoves
// and Threefold.
func Status(p *board.Position, ml *board.MoveList, thesisDraws bool) board.Status {
	moves, reps := 100, 2
	if thesisDraws {
		moves, reps = 150, 4
	}
	switch {
	case ml.Len == 0 && p.InCheck():
		return board.Checkmate
	case ml.Len == 0:
		return board.Stalemate
	case p.HalfmoveClock() >= moves:
		return board.FiftyMoves
	case p.RepetitionCount() >= reps:
		return board.Threefold
	case p.IsInsufficientMaterial():
		return board.InsufficientMaterial
	}
	return board.Ongoing
}

// maxValue keeps ValueToCP finite: the network's tanh reaches exactly 1 in
// float32 for large pre-activations.
const maxValue = 0.9999

// ValueToCP converts a value in [-1, 1] (an expected result, +1 a win for
// the side it is counted for) to centipawns as cp = atanh(v)/engines.WinScale,
// the inverse of lichess's winning-chances curve. A linear v*1000 would
// read a value of 0.5 (a 75% expected score) as five pawns; under this
// mapping 0.5 is 298 cp, 0.9 is 800 cp, and the largest reported value
// (|v| capped at 0.9999) is 2690 cp. The curve is the one the tracker's
// accuracy metric already assumes, so engine scores and judge scores read
// on the same scale.
func ValueToCP(v float64) int {
	v = max(-maxValue, min(maxValue, v))
	return int(math.Round(math.Atanh(v) / engines.WinScale))
}

// Rand is a seeded random source, re-seeded at the start of each search from
// the seed option and the position, so that a search's result depends only
// on its input (and, with tree reuse, on the searches before it since
// NewGame), never on how many searches the engine ran before.
type Rand struct {
	pcg rand.PCG
	*rand.Rand
}

// NewRand returns a source; call Reset before each search.
func NewRand() *Rand {
	r := &Rand{}
	r.Rand = rand.New(&r.pcg)
	return r
}

// Reset seeds the source from the seed option and the root position's
// Zobrist key.
func (r *Rand) Reset(seed int, key uint64) { r.pcg.Seed(uint64(seed), key) }
