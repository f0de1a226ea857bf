// Package deepchess is the engine of DeepChess (David, Netanyahu and Wolf
// 2016; seed 004, Hejl 2017): a net that never scores a position but
// compares two, and an alpha-beta search built on comparisons.
//
// The net. Pos2Vec maps the 773-bit position (12 x 64 piece squares, side
// to move, four castling rights; Active) through ReLU layers to a vector;
// the head takes two vectors side by side and says, by a 2-way softmax,
// which position is better for White. It is trained on pairs: one position
// from a game White won and one from a game Black won (dctrain). The two
// parts are separate mlp models in one directory, because the search runs
// them separately.
//
// The search. Alpha-beta whose bounds are positions: a White node raises
// alpha to a child's value when the head says it is better for White, a
// Black node lowers beta likewise, and a node is cut when alpha is no worse
// than beta. Values are leaves: the positions lines end in (after a
// capture-only quiescence search whose stand pat is the position itself),
// or game ends, which rank outside all positions (mates, by distance) or
// against a position's colour-flipped mirror (draws: a position is better
// than a draw when the net prefers it to its mirror). Every position's
// vector is computed once per search and kept by hash, so a comparison
// costs only the head (Hejl found that a transposition table costing extra
// comparisons lost more than it saved, so values are never stored; the
// table here holds only vectors and best moves for ordering). Moves are
// ordered as the heuristic engine orders them: the previous iteration's
// best move, MVV-LVA captures, promotions, killers. The reported score is
// the root value's mirror comparison read as an expected result.
package deepchess

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn/nets"
)

// Name is the registry name of the engine.
const Name = "deepchess"

// Option names.
const (
	OptNet      = "net"
	OptMaxDepth = "max_depth"
	OptQDepth   = "qdepth"
)

func init() {
	engines.Register(engines.Spec{
		Name:        Name,
		Description: "DeepChess: alpha-beta over position comparisons by a Siamese net (Pos2Vec + comparison head); the shipped net by default",
		Options: []engines.Option{
			{Name: OptNet, Type: engines.String, Default: nets.Prefix + nets.DeepChess,
				Help: "net directory written by 'arena train deepchess' (pos2vec.safetensors, head.safetensors), or builtin:deepchess"},
			{Name: OptMaxDepth, Type: engines.Spin, Default: "64", Min: 1, Max: MaxDepth,
				Help: "deepest iteration (depth and time limits stop it sooner)"},
			{Name: OptQDepth, Type: engines.Spin, Default: "4", Min: 0, Max: 32,
				Help: "plies of captures and promotions searched past the depth, the position itself as stand pat (0: none)"},
		},
		New: func(opts engines.Options) (engines.Engine, error) { return New(opts) },
	})
}

// LoadNet reads the net named by the net option: a directory or the
// shipped net.
func LoadNet(name string) (*Net, error) {
	var m *Models
	var err error
	if strings.HasPrefix(name, nets.Prefix) {
		if strings.TrimPrefix(name, nets.Prefix) != nets.DeepChess {
			return nil, fmt.Errorf("%s: option %s: no shipped net %q (expected %s%s)", Name, OptNet, name, nets.Prefix, nets.DeepChess)
		}
		m, _, err = ParseModels(nets.DeepChessFiles())
	} else {
		m, _, err = LoadModels(name)
	}
	if err == nil {
		var n *Net
		if n, err = m.Compile(); err == nil {
			return n, nil
		}
	}
	return nil, fmt.Errorf("%s: option %s=%s: %w", Name, OptNet, name, err)
}

// Engine is the DeepChess engine. It is not safe for concurrent searches.
type Engine struct {
	net *Net
	s   *searcher
}

// New builds the engine from resolved options, loading the net now.
func New(opts engines.Options) (*Engine, error) {
	net, err := LoadNet(opts[OptNet])
	if err != nil {
		return nil, err
	}
	return &Engine{net: net, s: &searcher{ev: net.NewEvaluator(), qdepth: opts.Int(OptQDepth), maxDepth: opts.Int(OptMaxDepth)}}, nil
}

// Name identifies the engine.
func (e *Engine) Name() string { return "DeepChess" }

// NewGame does nothing: every search starts from a clean state.
func (e *Engine) NewGame() {}

// Close releases the net.
func (e *Engine) Close() error {
	e.net, e.s = nil, nil
	return nil
}

// Search runs iterative deepening on pos within lim (see the package doc).
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	start := time.Now()
	if e.s == nil {
		return engines.Result{}, fmt.Errorf("%s: search after Close", Name)
	}
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		return engines.Result{}, fmt.Errorf("%s: position: %w", Name, err)
	}
	e.s.pos = p
	res := e.s.run(ctx, start, lim, info)
	if lim.Unbounded() {
		<-ctx.Done() // "go infinite" answers only when stopped
	}
	res.Time = time.Since(start)
	return res, nil
}

// Stats are the last search's counts, for benchmarks: positions evaluated
// by Pos2Vec and comparisons by the head.
func (e *Engine) Stats() (vectors int, comparisons int64) {
	return e.s.store.len(), e.s.comparisons
}
