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
	eval *evalTables
	tt   transTable
	pos  *board.Position

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

func newSearcher(cfg *config) *searcher {
	return &searcher{cfg: cfg, eval: newEvalTables(cfg.pst)}
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
		return s.negamax(depth, 0, -infinity, infinity, false)
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
		v := s.negamax(depth, 0, alpha, beta, false)
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

// pvStrings returns the principal variation of the last completed
// iteration: the triangular PV, continued from the transposition table where
// a table hit cut it short (with a table kept between moves the line is
// often cut at the first ply). Table moves are checked for legality and the
// line stops at a repeated position.
func (s *searcher) pvStrings() []string {
	pos := s.pos
	line := make([]string, 0, s.pvLen[0]+8)
	made := 0
	seen := map[uint64]bool{pos.Hash(): true}
	for made < s.pvLen[0] {
		m := s.pv[0][made]
		line = append(line, m.String())
		pos.MakeMove(m)
		made++
		seen[pos.Hash()] = true
	}
	for made < maxDepth {
		e, ok := s.tt.probe(pos.Hash())
		if !ok || e.move == board.NullMove || !s.isLegal(made, e.move) {
			break
		}
		line = append(line, e.move.String())
		pos.MakeMove(e.move)
		made++
		if seen[pos.Hash()] {
			break
		}
		seen[pos.Hash()] = true
	}
	for ; made > 0; made-- {
		pos.UnmakeMove()
	}
	return line
}

// isLegal reports whether m is legal in the current position, using the
// move list of ply (free outside the search).
func (s *searcher) isLegal(ply int, m board.Move) bool {
	ml := &s.moves[ply]
	s.pos.GenerateLegal(ml)
	for _, l := range ml.Moves[:ml.Len] {
		if l == m {
			return true
		}
	}
	return false
}

// ttPly is the ply by which mate scores are made relative to the stored
// node: none for the listing's flat mate score, which it stores as is.
func (s *searcher) ttPly(ply int) int {
	if s.cfg.whiteMate {
		return 0
	}
	return ply
}

// toScore converts an internal score to the UCI convention: mate in moves
// (negative when being mated), centipawns otherwise. The listing's flat
// mate score (mate_score=thesis) has no distance and is reported as the
// centipawns it is, cp 99999 or cp -99999.
func toScore(v int32) engines.Score {
	switch {
	case v >= mateBound && v < mateValue:
		return engines.Score{Mate: int(mateValue-v+1) / 2}
	case v <= -mateBound && v > -mateValue:
		return engines.Score{Mate: -int(mateValue+v) / 2}
	}
	return engines.Score{CP: int(v)}
}

// enter counts a node and reports whether the search must stop: the node
// limit is checked at every node (so the count stops exactly there), the
// clock and the context every checkEvery nodes.
func (s *searcher) enter() bool {
	if s.stopped {
		// Unwinding: re-searches that follow a stopped search return at
		// once without counting.
		return true
	}
	s.nodes++
	if s.stop.NodesSpent(s.nodes) || s.nodes&(checkEvery-1) == 0 && s.stop.Interrupted() {
		s.stopped = true
	}
	return s.stopped
}

// clamp bounds a score to the window, as a fail-hard search returns.
func clamp(v, alpha, beta int32) int32 {
	return max(alpha, min(v, beta))
}

// isDraw reports a draw by the fifty-move rule, repetition or insufficient
// material for the node at keys index idx (not the root).
func (s *searcher) isDraw(idx int) bool {
	pos := s.pos
	hmc := pos.HalfmoveClock()
	if hmc >= 100 {
		// Mate on the move that completes the fifty moves still counts.
		if !pos.InCheck() {
			return true
		}
		ml := &s.moves[idx-s.rootIndex]
		pos.GenerateLegal(ml)
		return ml.Len > 0
	}
	if hmc >= 4 {
		key := s.keys[idx]
		lo := max(idx-hmc, s.nullFloor, 0)
		seen := 0
		for i := idx - 4; i >= lo; i -= 2 {
			if s.keys[i] != key {
				continue
			}
			// A repetition inside the search is a draw (the side that
			// could avoid it chose not to); with the game history it
			// takes a third occurrence.
			if i >= s.rootIndex {
				return true
			}
			if seen++; seen >= 2 {
				return true
			}
		}
	}
	occ := pos.Occupancy(board.White) | pos.Occupancy(board.Black)
	return occ.Count() <= 4 && pos.IsInsufficientMaterial()
}

// noMovesScore is the score of a node without legal moves for its side to
// move: 0 for stalemate; for checkmate -(mateValue-ply), or with
// mate_score=thesis the listing's White-relative -99999 if White is mated
// else +99999, which tells a mated Black it has won.
func (s *searcher) noMovesScore(inCheck bool, ply int) int32 {
	switch {
	case !inCheck:
		return 0
	case !s.cfg.whiteMate:
		return -(mateValue - int32(ply))
	case s.pos.SideToMove() == board.White:
		return -mateValue
	}
	return mateValue
}

// isThesisDraw is python-chess's is_game_over(claim_draw=False) apart from
// checkmate and stalemate, which the caller sees from the move list:
// insufficient material, the seventy-five-move rule (unless the move that
// reached it mated) and fivefold repetition, the game history and the
// search path counting alike.
func (s *searcher) isThesisDraw(idx int) bool {
	pos := s.pos
	occ := pos.Occupancy(board.White) | pos.Occupancy(board.Black)
	if occ.Count() <= 4 && pos.IsInsufficientMaterial() {
		return true
	}
	hmc := pos.HalfmoveClock()
	if hmc >= 150 {
		ml := &s.moves[idx-s.rootIndex]
		pos.GenerateLegal(ml)
		return ml.Len > 0 || !pos.InCheck()
	}
	if hmc < 16 {
		return false
	}
	key, seen := s.keys[idx], 0
	for i := idx - 4; i >= max(idx-hmc, 0); i -= 2 {
		if s.keys[i] == key {
			if seen++; seen >= 4 {
				return true
			}
		}
	}
	return false
}

// negamax is fail-hard alpha-beta: the result is always within
// [alpha, beta].
func (s *searcher) negamax(depth, ply int, alpha, beta int32, allowNull bool) int32 {
	pos := s.pos
	idx := s.rootIndex + ply
	key := pos.Hash()
	s.keys[idx] = key
	s.pvLen[ply] = 0
	if ply > 0 && !s.cfg.thesisDraws && s.isDraw(idx) {
		s.enter()
		return clamp(0, alpha, beta)
	}
	if depth <= 0 || ply >= maxPly {
		return s.quiescence(ply, alpha, beta)
	}
	if ply > 0 && s.cfg.thesisDraws && s.isThesisDraw(idx) {
		s.enter()
		return clamp(0, alpha, beta)
	}
	if s.enter() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}

	ttMove := board.NullMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		if ply > 0 && int(e.depth) >= depth {
			v := scoreFromTT(e.score, s.ttPly(ply))
			switch {
			case e.flag == ttExact:
				return clamp(v, alpha, beta)
			case e.flag == ttLower && v >= beta:
				return beta
			case e.flag == ttUpper && v <= alpha:
				return alpha
			}
		}
	}
	if ply == 0 && s.rootBest != board.NullMove {
		ttMove = s.rootBest
	}

	inCheck := pos.InCheck()
	n := node{depth: depth, ply: ply, pv: beta-alpha > 1, inCheck: inCheck}
	if !inCheck && (s.cfg.nullMove || s.cfg.futility || s.cfg.razoring) {
		n.eval = s.eval.evaluate(pos)
		if v, ok := s.pruneNode(depth, ply, idx, alpha, beta, n.eval, n.pv, allowNull); ok {
			return v
		}
	}
	if s.cfg.iir && depth >= iirMinDepth && ttMove == board.NullMove {
		n.depth--
	}

	ml := &s.moves[ply]
	pos.GenerateLegal(ml)
	if ml.Len == 0 {
		return clamp(s.noMovesScore(inCheck, ply), alpha, beta)
	}
	s.scoreMoves(ply, ml, ttMove)
	return s.searchMoves(&n, key, alpha, beta)
}

// node is what the move loop needs to know about the node it searches.
type node struct {
	depth, ply  int
	pv, inCheck bool
	eval        int32 // static eval, when a pruning option needs it and not in check
}

// searchMoves searches the moves of s.moves[n.ply] (already scored) and
// stores the result in the table.
func (s *searcher) searchMoves(n *node, key uint64, alpha, beta int32) int32 {
	pos := s.pos
	depth, ply := n.depth, n.ply
	side := pos.SideToMove()
	ml := &s.moves[ply]
	origAlpha := alpha
	best := board.NullMove
	reduceLate := s.cfg.lmr && depth >= 3 && !n.inCheck
	prune := !n.pv && !n.inCheck && s.futile(depth, alpha, n.eval)
	quiets := 0
	for i := 0; i < ml.Len; i++ {
		m := s.pickMove(ply, ml, i)
		quiet := !m.IsCapture() && !m.IsPromotion()
		pos.MakeMove(m)
		givesCheck := pos.InCheck()
		if prune && i > 0 && quiet && !givesCheck {
			pos.UnmakeMove()
			continue
		}
		newDepth := depth - 1
		if s.cfg.checkExt && givesCheck {
			newDepth++
		}
		var v int32
		if i == 0 {
			v = -s.negamax(newDepth, ply+1, -beta, -alpha, true)
		} else {
			fullSearch := true
			if reduceLate && i >= lmrFirstMove && quiet && !givesCheck && s.scores[ply][i] < scoreHash {
				r := lmrReduction(depth, i, n.pv, s.scores[ply][i] >= scoreCounter)
				v = -s.negamax(newDepth-r, ply+1, -alpha-1, -alpha, true)
				fullSearch = v > alpha
			}
			if fullSearch {
				if s.cfg.pvs {
					v = -s.negamax(newDepth, ply+1, -alpha-1, -alpha, true)
					if v > alpha && v < beta {
						v = -s.negamax(newDepth, ply+1, -beta, -alpha, true)
					}
				} else {
					v = -s.negamax(newDepth, ply+1, -beta, -alpha, true)
				}
			}
		}
		pos.UnmakeMove()
		if s.stopped {
			return 0
		}
		if v > alpha {
			alpha = v
			best = m
			s.pv[ply][0] = m
			copy(s.pv[ply][1:], s.pv[ply+1][:s.pvLen[ply+1]])
			s.pvLen[ply] = 1 + s.pvLen[ply+1]
			if alpha >= beta {
				if quiet {
					s.rememberCutoff(ply, side, m, depth, s.tried[ply][:quiets])
				}
				s.tt.store(key, m, scoreToTT(beta, s.ttPly(ply)), depth, ttLower)
				return beta
			}
		}
		if quiet && quiets < len(s.tried[ply]) {
			s.tried[ply][quiets] = m
			quiets++
		}
	}
	if alpha > origAlpha {
		s.tt.store(key, best, scoreToTT(alpha, s.ttPly(ply)), depth, ttExact)
	} else {
		s.tt.store(key, board.NullMove, scoreToTT(alpha, s.ttPly(ply)), depth, ttUpper)
	}
	return alpha
}

// hasPieces reports whether side has a piece other than pawns and the king
// (null-move pruning is unsound in pawn endings, where zugzwang is common).
func (s *searcher) hasPieces(side board.Color) bool {
	p := s.pos
	return p.Occupancy(side)&^(p.Pieces(side, board.Pawn)|p.Pieces(side, board.King)) != 0
}

// quiescence searches captures (and promotions) only, standing pat on the
// static evaluation, fail-hard. With quiescence=thesis it is the listing's:
// legal captures only, standing pat on its evaluate, which tests for mate
// and game over first (thesisStand).
func (s *searcher) quiescence(ply int, alpha, beta int32) int32 {
	s.pvLen[ply] = 0
	if s.enter() {
		return 0
	}
	if ply > s.seldepth {
		s.seldepth = ply
	}
	pos := s.pos
	ml := &s.moves[ply]
	var stand int32
	if s.cfg.thesisQuies {
		var over bool
		if stand, over = s.thesisStand(ply); over {
			return clamp(stand, alpha, beta)
		}
	} else {
		stand = s.eval.evaluate(pos)
	}
	if ply >= maxPly {
		return clamp(stand, alpha, beta)
	}
	if stand >= beta {
		return beta
	}
	if stand > alpha {
		alpha = stand
	}
	pos.GenerateCaptures(ml)
	if s.cfg.thesisQuies {
		// python-chess's generate_legal_captures: no quiet promotions.
		n := 0
		for _, m := range ml.Moves[:ml.Len] {
			if m.IsCapture() {
				ml.Moves[n] = m
				n++
			}
		}
		ml.Len = n
	}
	s.scoreMoves(ply, ml, board.NullMove)
	for i := 0; i < ml.Len; i++ {
		m := s.pickMove(ply, ml, i)
		if s.qsSkip(m, stand, alpha) {
			continue
		}
		pos.MakeMove(m)
		v := -s.quiescence(ply+1, -beta, -alpha)
		pos.UnmakeMove()
		if s.stopped {
			return 0
		}
		if v >= beta {
			return beta
		}
		if v > alpha {
			alpha = v
		}
	}
	return alpha
}

// thesisStand is the listing's evaluate: the mate score (noMovesScore) on
// checkmate, 0 when the game is over by its rules (stalemate, or
// isThesisDraw at the node where the main search handed over; after a
// capture neither the 75-move rule nor a repetition can apply), else the
// static evaluation. over reports a game end.
func (s *searcher) thesisStand(ply int) (v int32, over bool) {
	pos := s.pos
	ml := &s.moves[ply]
	pos.GenerateLegal(ml)
	if ml.Len == 0 {
		return s.noMovesScore(pos.InCheck(), ply), true
	}
	if s.cfg.thesisDraws && ply > 0 && s.isThesisDraw(s.rootIndex+ply) {
		return 0, true
	}
	return s.eval.evaluate(pos), false
}
