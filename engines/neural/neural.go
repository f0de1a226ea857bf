// Package neural is the thesis's 1-ply neural engine "nn" (THESIS.md 1.4):
// every legal move is played, all the resulting positions are encoded and
// evaluated by the value network in one batch, and White takes the move with
// the highest value, Black the lowest.
//
// Differences from the listing, all about positions the network need not
// judge: a move that mates is always chosen (the listing asked the network
// about the mated position), and a move into a position that is drawn by
// rule (stalemate, fifty-move rule, threefold repetition, insufficient
// material) is valued 0, exactly.
//
// Nodes are the number of legal moves (the positions looked at), depth is 1.
// The score is the chosen move's value from the side to move's point of view,
// in centipawns via nnengine.ValueToCP, or "mate 1".
package neural

import (
	"context"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/nnengine"
	"arena/engines/nn"
	"arena/engines/nn/nets"
)

// Name is the registry name of the engine.
const Name = "nn"

// defaultNet is the shipped net used when the model option is not set:
// the self-play net (the thesis's NN_Reinforced net drove its 1-ply engine).
const defaultNet = nets.SelfPlay

func init() {
	engines.Register(engines.Spec{
		Name:        Name,
		Description: "thesis 1-ply value-network engine: one batched inference over all legal moves (model: the shipped self-play net by default)",
		Options: append(nnengine.Options(defaultNet, "orders the legal moves before evaluation, so it decides between moves of exactly "+
			"equal value (mostly several mating moves); the engine is otherwise deterministic"),
			engines.Option{Name: optGameEnds, Type: engines.Combo, Default: "correct", Vars: []string{"correct", "thesis"},
				Help: "correct: a move that mates is always played and a move into a draw by rule is worth 0; thesis: the network values every move, as the listing does"}),
		Presets: []engines.Preset{{Name: "thesis", Help: "the listing's engine: the network values every move",
			Values: map[string]string{optGameEnds: "thesis"}}},
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// maxMoves is the most legal moves a position can have (a MoveList's size).
const maxMoves = len(board.MoveList{}.Moves)

// optGameEnds switches the listing's behaviour: the network values every
// move, mates and draws by rule included.
const optGameEnds = "game_ends"

// mateRank ranks a mating move above every network value, which may itself
// round to exactly 1 in float32.
const mateRank = 2

// Engine is the 1-ply engine. It is not safe for concurrent searches.
type Engine struct {
	net  *nn.Net
	eval *nn.Evaluator
	seed int
	// askNet: game_ends=thesis, the network values mates and draws too.
	askNet bool
	rng    *nnengine.Rand

	moves  board.MoveList // the root's legal moves, in the order tried
	reply  board.MoveList // scratch: a child's legal moves
	inputs []nn.Input     // encoded children needing the network
	values []float32      // their values, White's point of view
	which  []int          // inputs[k] is the child of moves.Moves[which[k]]
	ranks  []float64      // per move: value for the side to move, or mateRank
}

// New builds the engine from resolved options; the model is loaded now, and
// a missing or unreadable model is an error naming the path.
func New(opts engines.Options) (*Engine, error) {
	net, err := nnengine.LoadNet(Name, opts[nnengine.OptModel], defaultNet)
	if err != nil {
		return nil, err
	}
	return &Engine{
		net:    net,
		eval:   net.NewEvaluator(),
		seed:   opts.Int(nnengine.OptSeed),
		askNet: opts[optGameEnds] == "thesis",
		rng:    nnengine.NewRand(),
		inputs: make([]nn.Input, maxMoves),
		values: make([]float32, maxMoves),
		which:  make([]int, maxMoves),
		ranks:  make([]float64, maxMoves),
	}, nil
}

// Net is the engine's network (for arena bench).
func (e *Engine) Net() *nn.Net { return e.net }

// Name identifies the engine.
func (e *Engine) Name() string { return "nn (1-ply)" }

// NewGame does nothing: the engine keeps no state between moves.
func (e *Engine) NewGame() {}

// Close releases the network.
func (e *Engine) Close() error {
	e.net, e.eval = nil, nil
	return nil
}

// Search evaluates every legal move of pos. A node limit smaller than the
// number of legal moves evaluates only that many moves (the first ones in
// the seeded order). Time and depth limits need no checking: the search is
// one inference. Without any limit it answers once ctx is cancelled, as "go
// infinite" requires.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	s, err := nnengine.Begin(Name, e.net, pos)
	if err != nil {
		return engines.Result{}, err
	}
	return s.Finish(ctx, lim, info, e.search(s.Pos, lim)), nil
}

func (e *Engine) search(p *board.Position, lim engines.Limits) engines.Result {
	p.GenerateLegal(&e.moves)
	n := e.moves.Len
	if n == 0 {
		return engines.Result{}
	}
	moves := e.moves.Moves[:n]
	e.rng.Reset(e.seed, p.Hash())
	e.rng.Shuffle(n, func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	if lim.Nodes > 0 && lim.Nodes < int64(n) {
		n = int(lim.Nodes)
		moves = moves[:n]
	}
	white := p.SideToMove() == board.White
	k := 0
	for i, m := range moves {
		p.MakeMove(m)
		st := board.Ongoing
		if !e.askNet {
			p.GenerateLegal(&e.reply)
			st = nnengine.Status(p, &e.reply, false)
		}
		switch {
		case st == board.Checkmate:
			e.ranks[i] = mateRank
		case st.IsDraw():
			e.ranks[i] = 0
		default:
			e.inputs[k].SetPosition(p)
			e.which[k] = i
			k++
		}
		p.UnmakeMove()
	}
	e.eval.EvaluateBatch(e.inputs[:k], e.values[:k])
	for j, v := range e.values[:k] {
		if !white {
			v = -v
		}
		e.ranks[e.which[j]] = float64(v)
	}
	best := 0
	for i := 1; i < n; i++ {
		if e.ranks[i] > e.ranks[best] {
			best = i
		}
	}
	move := moves[best].String()
	score := engines.Score{CP: nnengine.ValueToCP(e.ranks[best])}
	if e.ranks[best] == mateRank {
		score = engines.Score{Mate: 1}
	}
	return engines.Result{Move: move, Score: score, Depth: 1, SelDepth: 1, Nodes: int64(n), PV: []string{move}}
}
