// Package mcts is the thesis's Monte Carlo tree search engine with a value
// network at the leaves, "mcts" (THESIS.md 1.4, listing figures 2.34-2.38),
// with optional improvements.
//
// With default options it is the thesis engine. Every simulation
//   - selects from the root while the node is fully expanded and not a
//     game end, by UCT: the child maximising q + u with q = value_sum/visits
//     and u = 1.41*sqrt(ln(parent visits)/visits);
//   - expands one untried move of that node, chosen at random (a seeded
//     generator), unless the node is a game end;
//   - evaluates the new node: 1, -1 or 0 from the result if the game is over
//     there, else the value network's output (good for White when positive);
//   - backs the value up to the root, adding to each node's value_sum from
//     the point of view of the player who moved into the node.
//
// The move played is the most visited root child (the robust child).
//
// Options switch on improvements, each off by default:
//   - batch N: N leaves are selected with virtual loss (an evaluation under
//     way counts as a lost visit of every node on its path, steering the
//     next selections elsewhere) and evaluated in one network call; a leaf
//     reached twice in one batch ends the batch early;
//   - reuse_tree: the subtree of the new position is kept when it follows
//     the previous search's position in the same game;
//   - mate_detection: game ends are proven values, as in MCTS-Solver: a node
//     whose mover mates, or whose every reply loses, is a proven win or loss;
//     proven nodes are not searched further, proven losing moves are not
//     selected, and a proven root ends the search with its mate score.
//
// Reporting: nodes are simulations; depth and seldepth are the deepest
// leaf of the search (plies from the root); the score is the played move's
// q in centipawns (see nnengine.ValueToCP), or a mate score when proven; the
// PV follows the most visited children.
//
// Limits: nodes is the number of simulations (exactly); depth stops once a
// leaf that deep was evaluated; movetime and the clock give a time budget
// (engines.Limits.Budget's target); with no limit the search runs until
// cancelled. At least one simulation is always run, so a legal move is
// always returned.
//
// The tree lives in a node pool allocated once per engine and reused, so a
// simulation allocates nothing.
package mcts

import (
	"context"
	"strconv"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/nnengine"
	"arena/engines/nn"
	"arena/engines/nn/nets"
)

// Name is the registry name of the engine.
const Name = "mcts"

// defaultNet is the shipped net used when the model option is not set:
// the self-play net (the thesis's NN_Reinforced net drove its MCTS engine).
const defaultNet = nets.SelfPlay

// Option names.
const (
	optBatch         = "batch"
	optReuseTree     = "reuse_tree"
	optMateDetection = "mate_detection"
)

// maxBatch is the largest batch option.
const maxBatch = 256

// exploration is the thesis's UCT constant c.
const exploration = 1.41

func init() {
	opts := nnengine.Options(defaultNet, "seeds the choice of the untried move to expand (re-seeded from the position at every search, "+
		"so a search depends only on its input)")
	opts = append(opts,
		engines.Option{Name: optBatch, Type: engines.Spin, Default: "1", Min: 1, Max: maxBatch,
			Help: "leaves evaluated per network call, selected with virtual loss; 1 = thesis"},
		engines.Option{Name: optReuseTree, Type: engines.Check, Default: "false",
			Help: "keep the subtree of the new position from the previous search of the game"},
		engines.Option{Name: optMateDetection, Type: engines.Check, Default: "false",
			Help: "prove mates in the tree (MCTS-Solver): proven wins are played, proven losses avoided, a proven root stops the search"},
		nnengine.DrawsOption(),
	)
	engines.Register(engines.Spec{
		Name:        Name,
		Description: "thesis MCTS with value-network leaves (UCT c=1.41, robust child); batched leaves, tree reuse and mate proofs as options (model: the shipped self-play net by default)",
		Options:     opts,
		Presets: []engines.Preset{{Name: "thesis", Help: "the listing's MCTS: one leaf per network call, no tree reuse, no mate proofs, python-chess's game ends",
			Values: map[string]string{optBatch: "1", optReuseTree: "false", optMateDetection: "false", nnengine.OptDraws: "thesis"}}},
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// config is the resolved engine configuration.
type config struct {
	seed          int
	batch         int
	reuseTree     bool
	mateDetection bool
	thesisDraws   bool
}

// Engine is the MCTS engine. It is not safe for concurrent searches.
type Engine struct {
	cfg  config
	net  *nn.Net
	eval *nn.Evaluator
	rng  *nnengine.Rand

	t, spare *tree // spare receives the kept subtree under reuse_tree

	// The game of the tree's root, for reuse_tree.
	rootFEN   string
	rootMoves []string

	pos    *board.Position
	ml     board.MoveList // scratch
	inputs []nn.Input
	values []float32
	leaves []leaf

	// Statistics of the running search.
	sims     int64
	selDepth int
}

// leaf is a simulation waiting for its value.
type leaf struct {
	node  int32
	depth int
	// value is the leaf's value for its mover when known without the
	// network (a game end or a proven node); input is the index in inputs
	// otherwise.
	value float64
	input int
}

// New builds the engine from resolved options; the model is loaded now, and
// a missing or unreadable model is an error naming the path.
func New(opts engines.Options) (*Engine, error) {
	net, err := nnengine.LoadNet(Name, opts[nnengine.OptModel], defaultNet)
	if err != nil {
		return nil, err
	}
	cfg := config{
		seed:          opts.Int(nnengine.OptSeed),
		batch:         max(1, min(maxBatch, opts.Int(optBatch))),
		reuseTree:     opts.Bool(optReuseTree),
		mateDetection: opts.Bool(optMateDetection),
		thesisDraws:   opts[nnengine.OptDraws] == "thesis",
	}
	e := &Engine{
		cfg:    cfg,
		net:    net,
		eval:   net.NewEvaluator(),
		rng:    nnengine.NewRand(),
		t:      newTree(),
		inputs: make([]nn.Input, cfg.batch),
		values: make([]float32, cfg.batch),
		leaves: make([]leaf, 0, cfg.batch),
	}
	if cfg.reuseTree {
		e.spare = newTree()
	}
	return e, nil
}

// Net is the engine's network (for arena bench).
func (e *Engine) Net() *nn.Net { return e.net }

// Name identifies the engine and the improvements switched on.
func (e *Engine) Name() string {
	name := "mcts (thesis"
	if e.cfg.batch > 1 {
		name += ",batch=" + strconv.Itoa(e.cfg.batch)
	}
	if e.cfg.reuseTree {
		name += "," + optReuseTree
	}
	if e.cfg.mateDetection {
		name += "," + optMateDetection
	}
	return name + ")"
}

// NewGame drops the tree.
func (e *Engine) NewGame() {
	e.t.reset()
	e.rootFEN, e.rootMoves = "", nil
}

// Close releases the tree and the network.
func (e *Engine) Close() error {
	e.net, e.eval, e.t, e.spare = nil, nil, nil, nil
	return nil
}

// Search runs simulations from pos within lim; see the package
// documentation. It returns an error only for an invalid position or after
// Close.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	s, err := nnengine.Begin(Name, e.net, pos)
	if err != nil {
		return engines.Result{}, err
	}
	e.pos = s.Pos
	e.pos.GenerateLegal(&e.ml)
	if e.ml.Len == 0 {
		e.t.reset()
		e.rootFEN, e.rootMoves = "", nil
		return s.Finish(ctx, lim, info, engines.Result{}), nil
	}
	e.setRoot(pos)
	e.rng.Reset(e.cfg.seed, e.pos.Hash())
	return s.Finish(ctx, lim, info, e.run(ctx, s.Start, lim, info)), nil
}

// setRoot makes the tree's root the position of pos: the subtree reached by
// the moves played since the previous search under reuse_tree, else a new
// root.
func (e *Engine) setRoot(pos engines.Position) {
	fen := pos.StartFENOrDefault()
	if r, ok := e.reusable(fen, pos.Moves); ok {
		if r != 0 {
			e.t.compactInto(e.spare, r)
			e.t, e.spare = e.spare, e.t
		}
		// The game goes on from here even if the tree took the node for a
		// draw by rule (a GUI may ask for a move in a claimable draw).
		e.t.nodes[0].kind = ongoing
	} else {
		e.t.reset()
		e.t.add(none, board.NullMove, ongoing)
	}
	if e.cfg.reuseTree {
		e.rootFEN = fen
		e.rootMoves = append(e.rootMoves[:0], pos.Moves...)
	}
}

// reusable finds the node of the game (fen, moves) in the tree kept from the
// previous search: that search's game followed by the moves since.
func (e *Engine) reusable(fen string, moves []string) (int32, bool) {
	if !e.cfg.reuseTree || len(e.t.nodes) == 0 || fen != e.rootFEN || len(moves) < len(e.rootMoves) {
		return 0, false
	}
	for i, m := range e.rootMoves {
		if moves[i] != m {
			return 0, false
		}
	}
	p, err := board.FromGame(fen, e.rootMoves)
	if err != nil {
		return 0, false
	}
	n := int32(0)
	for _, s := range moves[len(e.rootMoves):] {
		m, err := p.ParseMove(s)
		if err != nil {
			return 0, false
		}
		c := e.t.nodes[n].firstChild
		for c != none && e.t.nodes[c].move != m {
			c = e.t.nodes[c].nextSibling
		}
		if c == none {
			return 0, false
		}
		p.MakeMove(m)
		n = c
	}
	return n, true
}
