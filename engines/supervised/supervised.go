// Package supervised is the thesis's supervised-learning engine,
// "supervised" (THESIS.md 1.4, listing figures 3.8-3.10): minimax with
// alpha-beta pruning to a fixed depth (2 by default) over the value network.
//
// As in the listing, values are from White's point of view, White
// maximising: a position is worth net*10, a checkmate -9999 when White is
// mated and +9999 when Black is, any other game end 0; the root's moves are
// tried captures first (a stable sort, otherwise in the generation order
// shuffled by the seed, which therefore decides between moves of exactly
// equal value), the other nodes' moves in generation order; an interior node
// returns its best child value (fail-soft) and stops at the first child that
// makes beta <= alpha.
//
// Differences from the listing, none of which changes the move at the
// default depth: a mate found ply plies from the root is worth 9999-ply, so
// at depth 3 or more the engine prefers the shortest mate and reports its
// distance (at depth 2 every mate is at the same ply for each side); game
// ends include threefold repetition and the fifty-move rule, as the board
// declares them; and leaves are evaluated in batches where that cannot
// change the search: at a node whose children are leaves and whose window
// cannot be cut (the maximising side facing beta = +infinity, the minimising
// side alpha = -infinity, as under the first root move), all its children go
// to the network in one call. Elsewhere a cut may come after any child, so
// the children are evaluated one at a time as the listing does.
//
// Nodes are counted as the listing counts them: one per minimax call, so
// every interior node below the root and every leaf visited, the root
// itself not. Depth is the search depth. The score is the root value for
// the side to move: a mate score for a mate found, else net*10 read back
// as a network value and converted to centipawns (nnengine.ValueToCP).
//
// Limits: depth (go depth N) replaces the depth option; nodes, movetime,
// the clock (engines.Limits.Budget's hard limit) and cancellation abort the
// search, which then plays the best of the root moves searched completely,
// or the first root move in its order if none was.
package supervised

import (
	"context"
	"fmt"
	"math"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/nnengine"
	"arena/engines/nn"
	"arena/engines/nn/nets"
)

// Name is the registry name of the engine.
const Name = "supervised"

// defaultNet is the shipped net used when the model option is not set:
// the supervised net, trained as the thesis's SL net.
const defaultNet = nets.Supervised

const (
	optDepth     = "depth"
	defaultDepth = 2
	// maxDepth is the depth option's maximum: every ply multiplies the
	// work by the branching factor, and depth 6 already takes minutes.
	maxDepth = 8
)

const (
	// mateValue is the listing's checkmate value; a mate ply plies from
	// the root is worth mateValue-ply.
	mateValue = 9999
	// infinity is the listing's initial window and best value.
	infinity = 99999
	// netScale is the listing's leaf scale: net(x) * 10.
	netScale = 10
)

// maxMoves is the most legal moves a position can have.
const maxMoves = len(board.MoveList{}.Moves)

func init() {
	opts := nnengine.Options(defaultNet, "orders the root moves before the captures-first sort, so it decides between moves of exactly equal value; the engine is otherwise deterministic")
	opts = append(opts, engines.Option{Name: optDepth, Type: engines.Spin, Default: fmt.Sprint(defaultDepth), Min: 1, Max: maxDepth,
		Help: "search depth in plies when go gives none (the thesis searches 2)"}, nnengine.DrawsOption())
	engines.Register(engines.Spec{
		Name:        Name,
		Description: "thesis supervised engine: depth-2 alpha-beta minimax over net*10, checkmate +-9999, captures first at the root (model: the shipped supervised net by default)",
		Options:     opts,
		Presets: []engines.Preset{{Name: "thesis", Help: "the listing's depth 2 and python-chess's game ends",
			Values: map[string]string{optDepth: fmt.Sprint(defaultDepth), nnengine.OptDraws: "thesis"}}},
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// Engine is the supervised engine. It is not safe for concurrent searches.
type Engine struct {
	net         *nn.Net
	eval        *nn.Evaluator
	seed        int
	depth       int
	thesisDraws bool // draws=thesis: python-chess's game ends
	rng         *nnengine.Rand

	pos   *board.Position
	moves [maxDepth + 1]board.MoveList // per ply
	reply board.MoveList               // scratch: a leaf's legal moves

	// A batch of leaves: the children of one node.
	inputs []nn.Input
	values []float32
	leaf   []float64 // per child: its value, the network's once evaluated
	input  []int     // per child: its index in inputs, or -1 for a game end

	pv    [maxDepth + 2][maxDepth + 2]board.Move
	pvLen [maxDepth + 2]int

	nodes   int64
	stopped bool
	stop    engines.Stop // the node budget, the hard time limit and ctx
}

// New builds the engine from resolved options; the model is loaded now, and
// a missing or unreadable model is an error naming the path.
func New(opts engines.Options) (*Engine, error) {
	net, err := nnengine.LoadNet(Name, opts[nnengine.OptModel], defaultNet)
	if err != nil {
		return nil, err
	}
	depth := opts.Int(optDepth)
	if depth < 1 || depth > maxDepth {
		depth = defaultDepth
	}
	return &Engine{
		net:         net,
		eval:        net.NewEvaluator(),
		seed:        opts.Int(nnengine.OptSeed),
		depth:       depth,
		thesisDraws: opts[nnengine.OptDraws] == "thesis",
		rng:         nnengine.NewRand(),
		inputs:      make([]nn.Input, maxMoves),
		values:      make([]float32, maxMoves),
		leaf:        make([]float64, maxMoves),
		input:       make([]int, maxMoves),
	}, nil
}

// Net is the engine's network (for arena bench).
func (e *Engine) Net() *nn.Net { return e.net }

// Name identifies the engine and its depth.
func (e *Engine) Name() string { return fmt.Sprintf("supervised (depth %d)", e.depth) }

// NewGame does nothing: the engine keeps no state between moves.
func (e *Engine) NewGame() {}

// Close releases the network.
func (e *Engine) Close() error {
	e.net, e.eval = nil, nil
	return nil
}

// Search runs the minimax search of pos within lim; see the package
// documentation. It returns an error only for an invalid position or after
// Close.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	s, err := nnengine.Begin(Name, e.net, pos)
	if err != nil {
		return engines.Result{}, err
	}
	e.pos = s.Pos
	depth := e.depth
	if lim.Depth > 0 {
		depth = min(lim.Depth, maxDepth)
	}
	_, hard := lim.Budget(s.Pos.SideToMove() == board.White)
	e.stop = engines.NewStop(ctx, s.Start, lim, hard)
	e.nodes, e.stopped = 0, false
	return s.Finish(ctx, lim, info, e.root(depth)), nil
}

// root searches the root moves, captures first.
func (e *Engine) root(depth int) engines.Result {
	p := e.pos
	ml := &e.moves[0]
	p.GenerateLegal(ml)
	if ml.Len == 0 {
		return engines.Result{}
	}
	moves := ml.Moves[:ml.Len]
	e.rng.Reset(e.seed, p.Hash())
	e.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	capturesFirst(moves)

	maximizing := p.SideToMove() == board.White
	best := float64(infinity)
	if maximizing {
		best = -infinity
	}
	alpha, beta := float64(-infinity), float64(infinity)
	bestMove := board.NullMove
	e.pvLen[0] = 0
	if depth == 1 {
		best, bestMove = e.leaves(0, alpha, beta, maximizing)
	} else {
		for _, m := range moves {
			p.MakeMove(m)
			v := e.minimax(depth-1, 1, alpha, beta, !maximizing)
			p.UnmakeMove()
			if e.stopped {
				break
			}
			if maximizing && v > best || !maximizing && v < best {
				best, bestMove = v, m
				e.setPV(0, m)
			}
			if maximizing {
				alpha = max(alpha, best)
			} else {
				beta = min(beta, best)
			}
		}
	}
	if bestMove == board.NullMove {
		// Stopped before the first root move was searched.
		bestMove, best = moves[0], 0
		e.pvLen[0] = 0
		e.setPV(0, bestMove)
	}
	pv := make([]string, e.pvLen[0])
	for i, m := range e.pv[0][:e.pvLen[0]] {
		pv[i] = m.String()
	}
	res := engines.Result{Move: pv[0], Score: e.score(best), Depth: depth, SelDepth: depth, Nodes: e.nodes, PV: pv}
	if len(pv) > 1 {
		res.Ponder = pv[1]
	}
	return res
}

// capturesFirst is Python's sorted(moves, key=is_capture, reverse=True): a
// stable partition with the captures in front.
func capturesFirst(moves []board.Move) {
	var quiet [maxMoves]board.Move
	n, q := 0, 0
	for _, m := range moves {
		if m.IsCapture() {
			moves[n] = m
			n++
		} else {
			quiet[q] = m
			q++
		}
	}
	copy(moves[n:], quiet[:q])
}

// score converts a root value (White's point of view) to the side to move's
// score.
func (e *Engine) score(v float64) engines.Score {
	if e.pos.SideToMove() == board.Black {
		v = -v
	}
	if math.Abs(v) > mateValue-maxDepth-1 {
		plies := mateValue - int(math.Abs(v))
		if v > 0 {
			return engines.Score{Mate: (plies + 1) / 2}
		}
		return engines.Score{Mate: -plies / 2}
	}
	return engines.Score{CP: nnengine.ValueToCP(v / netScale)}
}

// setPV makes m followed by the child's line the line at ply.
func (e *Engine) setPV(ply int, m board.Move) {
	e.pv[ply][0] = m
	n := copy(e.pv[ply][1:], e.pv[ply+1][:e.pvLen[ply+1]])
	e.pvLen[ply] = n + 1
}

// checkStop sets stopped when a limit is reached.
func (e *Engine) checkStop() bool {
	if e.stop.Check(e.nodes) {
		e.stopped = true
	}
	return e.stopped
}

// minimax is the listing's minimax at the position after ply moves from the
// root, depth plies from the leaves.
func (e *Engine) minimax(depth, ply int, alpha, beta float64, maximizing bool) float64 {
	if e.checkStop() {
		return 0
	}
	e.nodes++
	e.pvLen[ply] = 0
	p := e.pos
	ml := &e.moves[ply]
	p.GenerateLegal(ml)
	if st := nnengine.Status(p, ml, e.thesisDraws); st != board.Ongoing {
		return e.gameEnd(st, ply)
	}
	if depth == 1 {
		v, _ := e.leaves(ply, alpha, beta, maximizing)
		return v
	}
	best := float64(infinity)
	if maximizing {
		best = -infinity
	}
	for _, m := range ml.Moves[:ml.Len] {
		p.MakeMove(m)
		v := e.minimax(depth-1, ply+1, alpha, beta, !maximizing)
		p.UnmakeMove()
		if e.stopped {
			return 0
		}
		if maximizing && v > best || !maximizing && v < best {
			best = v
			e.setPV(ply, m)
		}
		if maximizing {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		if beta <= alpha {
			break
		}
	}
	return best
}

// gameEnd is the listing's evaluation of a finished game: the mated side
// loses 9999 (less the distance from the root), a draw is 0.
func (e *Engine) gameEnd(st board.Status, ply int) float64 {
	if st != board.Checkmate {
		return 0
	}
	if e.pos.SideToMove() == board.White {
		return -float64(mateValue - ply)
	}
	return float64(mateValue - ply)
}

// leaves searches the node at ply (whose moves are in e.moves[ply]) when its
// children are leaves, and returns its value and best move. The children
// are visited, and counted, exactly as minimax visits them at depth 0; only
// the network calls are grouped (see the package documentation). When the
// search is stopped it returns the best of the children visited.
func (e *Engine) leaves(ply int, alpha, beta float64, maximizing bool) (float64, board.Move) {
	p := e.pos
	moves := e.moves[ply].Moves[:e.moves[ply].Len]
	// No child value can reach beta = +infinity (or alpha = -infinity),
	// so every child will be visited: evaluate them all at once.
	batch := maximizing && beta >= infinity || !maximizing && alpha <= -infinity
	k := 0
	if batch {
		for i, m := range moves {
			p.MakeMove(m)
			k = e.prepareLeaf(i, ply+1, k)
			p.UnmakeMove()
		}
		e.eval.EvaluateBatch(e.inputs[:k], e.values[:k])
	}
	best := float64(infinity)
	if maximizing {
		best = -infinity
	}
	bestMove := board.NullMove
	for i, m := range moves {
		if e.checkStop() {
			break
		}
		e.nodes++
		if !batch {
			p.MakeMove(m)
			if e.prepareLeaf(i, ply+1, 0) == 1 {
				e.values[0] = e.eval.Evaluate(&e.inputs[0])
			}
			p.UnmakeMove()
		}
		v := e.leaf[i]
		if e.input[i] >= 0 {
			v = float64(e.values[e.input[i]]) * netScale
		}
		if maximizing && v > best || !maximizing && v < best {
			best, bestMove = v, m
			e.pvLen[ply+1] = 0
			e.setPV(ply, m)
		}
		if maximizing {
			alpha = max(alpha, v)
		} else {
			beta = min(beta, v)
		}
		if beta <= alpha {
			break
		}
	}
	return best, bestMove
}

// prepareLeaf looks at child i, the position after ply moves: a game end
// gets its value in e.leaf[i], any other position is encoded into
// e.inputs[k]. It returns the number of inputs used.
func (e *Engine) prepareLeaf(i, ply, k int) int {
	p := e.pos
	p.GenerateLegal(&e.reply)
	if st := nnengine.Status(p, &e.reply, e.thesisDraws); st != board.Ongoing {
		e.leaf[i], e.input[i] = e.gameEnd(st, ply), -1
		return k
	}
	e.inputs[k].SetPosition(p)
	e.input[i] = k
	return k + 1
}
