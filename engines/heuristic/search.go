package heuristic

import (
	"context"
	"fmt"
	"time"

	"arena/engines"
	"arena/engines/board"
)

const (
	// maxDepth is the deepest iteration (and max_depth's maximum).
	maxDepth = 64
	// maxPly bounds the search stack: main search plus extensions plus
	// quiescence never go deeper than this from the root.
	maxPly = 128
	// mateValue is the score of delivering mate at the root; a mate found
	// ply plies from the root scores mateValue-ply (the thesis's 99999 for
	// checkmate, made distance-aware).
	mateValue int32 = 99999
	// mateBound: scores beyond it are mate scores.
	mateBound = mateValue - maxPly
	infinity  = mateValue + 1
	// checkEvery is how often (in nodes) the clock and the context are
	// consulted, as in the thesis.
	checkEvery = 2048
	// aspirationWindow is the half-width of the aspiration window in cp;
	// past aspirationMax a failing side is opened fully.
	aspirationWindow = 50
	aspirationMax    = 800
	// lmrFirstMove is the index (0-based) of the first move that may be
	// reduced: the 4th move.
	lmrFirstMove = 3
)

// searcher holds the whole search state, allocated once per engine, so a
// search allocates nothing per node: move lists, ordering scores, the PV and
// the killer and history tables are fixed arrays indexed by ply.
type searcher struct {
	cfg  *config
	eval Evaluator
	tt   transTable
	pos  *board.Position
	// inc is eval when it follows the search's moves, else nil.
	inc Incremental

	// keys holds the Zobrist keys of the game history (the start FEN and
	// every position after a game move), then of the current search path:
	// keys[rootIndex+ply] is the node at ply. It finds repetitions.
	keys      []uint64
	rootIndex int
	// nullFloor is the keys index of the first position after the latest
	// null move on the current path: no repetition reaches across it.
	nullFloor int

	nodes    int64
	seldepth int
	stopped  bool
	stop     engines.Stop // the node budget, the hard time limit and ctx
	rootBest board.Move   // best move of the last completed iteration

	moves   [maxPly + 1]board.MoveList
	scores  [maxPly + 1][256]int32
	pv      [maxPly + 2][maxPly + 2]board.Move
	pvLen   [maxPly + 2]int
	killers [maxPly + 1][2]board.Move
	history [2][64][64]int32
	// counters[piece][to] is the quiet move that last refuted the move of
	// that piece to that square.
	counters [16][64]board.Move
	// tried[ply] lists the quiet moves searched at ply without a cutoff,
	// which the history option penalises when a later move cuts off.
	tried [maxPly + 1][64]board.Move
}

func newSearcher(cfg *config, eval Evaluator) *searcher {
	inc, _ := eval.(Incremental)
	return &searcher{cfg: cfg, eval: eval, inc: inc}
}

// makeMove and unmakeMove make and take back a move of the search,
// keeping an incremental evaluation in step.
func (s *searcher) makeMove(m board.Move) {
	if s.inc != nil {
		s.inc.Push(s.pos, m)
	}
	s.pos.MakeMove(m)
}

func (s *searcher) unmakeMove() {
	s.pos.UnmakeMove()
	if s.inc != nil {
		s.inc.Pop()
	}
}

func (s *searcher) clearHeuristics() {
	s.killers = [maxPly + 1][2]board.Move{}
	s.history = [2][64][64]int32{}
	s.counters = [16][64]board.Move{}
}

// setPosition replays the game from its start FEN, recording the key of
// every position for repetition detection.
func (s *searcher) setPosition(gp engines.Position) error {
	fen := gp.StartFENOrDefault()
	p, err := board.ParseFEN(fen)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	s.keys = s.keys[:0]
	s.keys = append(s.keys, p.Hash())
	for i, uci := range gp.Moves {
		m, err := p.ParseMove(uci)
		if err != nil {
			return fmt.Errorf("position: move %d (%q) after FEN %q: %w", i+1, uci, fen, err)
		}
		p.MakeMove(m)
		s.keys = append(s.keys, p.Hash())
	}
	s.rootIndex = len(s.keys) - 1
	s.keys = append(s.keys, make([]uint64, maxPly+2)...)
	s.pos = p
	return nil
}

// run is iterative deepening on the position set by setPosition.
func (s *searcher) run(ctx context.Context, start time.Time, lim engines.Limits, info engines.InfoFunc) engines.Result {
	pos := s.pos
	soft, hard := lim.Budget(pos.SideToMove() == board.White)
	s.stop = engines.NewStop(ctx, start, lim, hard)
	s.nodes, s.seldepth, s.stopped = 0, 0, false
	s.nullFloor = 0
	s.rootBest = board.NullMove
	if s.inc != nil {
		s.inc.SetRoot(pos)
	}
	if !s.cfg.keepTT {
		s.tt.clear()
	}
	// Killers and history describe the previous search tree; starting
	// clean keeps a search's result a function of its input.
	s.clearHeuristics()

	infinite := lim.Unbounded()
	depthLimit := s.cfg.maxDepth
	switch {
	case lim.Depth > 0:
		depthLimit = min(lim.Depth, maxDepth)
	case infinite:
		depthLimit = maxDepth
	}

	// The first move in the thesis order is played if no iteration
	// completes, rather than nothing; NullMove means there is no legal move.
	fallback := s.firstOrderedMove()
	var res engines.Result
	score := int32(0)
	for depth := 1; depth <= depthLimit && fallback != board.NullMove; depth++ {
		if depth > 1 && soft > 0 && time.Since(start) >= soft {
			break
		}
		s.seldepth = 0
		v := s.searchRoot(depth, score)
		if s.stopped {
			break
		}
		score = v
		s.rootBest = s.pv[0][0]
		res = engines.Result{
			Move:     s.rootBest.String(),
			Score:    toScore(score),
			Depth:    depth,
			SelDepth: s.seldepth,
			PV:       s.pvStrings(),
		}
		if info != nil {
			info(engines.Info{Depth: depth, SelDepth: s.seldepth, Score: res.Score,
				Nodes: s.nodes, Time: time.Since(start), PV: res.PV})
		}
	}
	if s.rootBest == board.NullMove && fallback != board.NullMove {
		res.Move = fallback.String()
		res.PV = []string{res.Move}
	}
	if infinite && !s.stopped {
		// "go infinite" answers only when stopped, even if the search ran
		// out of depth first.
		<-ctx.Done()
	}
	if len(res.PV) > 1 {
		res.Ponder = res.PV[1]
	}
	res.Nodes = s.nodes
	res.Time = time.Since(start)
	return res
}

// searchRoot searches the root to depth, inside an aspiration window around
// prev when that option is on: a search that fails low or high is repeated
// with that side of the window twice as far out, and fully open once the
// widening passes aspirationMax.
func (s *searcher) searchRoot(depth int, prev int32) int32 {
	if !s.cfg.aspiration || depth < 2 || prev >= mateBound || prev <= -mateBound {
		return s.negamax(s.rootDepth(depth), 0, -infinity, infinity, false)
	}
	lo, hi := int32(aspirationWindow), int32(aspirationWindow)
	for {
		alpha, beta := prev-lo, prev+hi
		if lo > aspirationMax {
			alpha = -infinity
		}
		if hi > aspirationMax {
			beta = infinity
		}
		v := s.negamax(s.rootDepth(depth), 0, alpha, beta, false)
		switch {
		case s.stopped:
			return 0
		case v <= alpha && alpha > -infinity:
			lo *= 2
		case v >= beta && beta < infinity:
			hi *= 2
		default:
			return v
		}
	}
}

// firstOrderedMove returns the first legal move in the thesis move order
// (NullMove when there is none).
func (s *searcher) firstOrderedMove() board.Move {
	ml := &s.moves[0]
	s.pos.GenerateLegal(ml)
	if ml.Len == 0 {
		return board.NullMove
	}
	s.scoreMoves(0, ml, board.NullMove)
	return s.pickMove(0, ml, 0)
}
