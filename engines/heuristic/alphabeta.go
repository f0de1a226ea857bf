package heuristic

import (
	"arena/engines/board"
)

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
		n.eval = s.eval.Evaluate(pos)
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
	futile := !n.pv && !n.inCheck && s.futile(depth, alpha, n.eval)
	lateLimit := s.lateMoveLimit(n, alpha)
	quiets := 0 // quiet moves searched without a cutoff
	cost := s.moveCost(ml.Len)
	for i := 0; i < ml.Len; i++ {
		m := s.pickMove(ply, ml, i)
		quiet := !m.IsCapture() && !m.IsPromotion()
		// Forward pruning never skips the first move, nor a move that
		// gives check (known only once it is made).
		skip := false
		if i > 0 {
			skip = quiet && (futile || lateLimit > 0 && quiets >= lateLimit)
			if floor, ok := s.seeFloor(n, alpha, quiet); ok && !skip && !m.IsPromotion() {
				skip = !s.seeGE(m, floor)
			}
		}
		s.makeMove(m)
		givesCheck := pos.InCheck()
		if skip && !givesCheck {
			s.unmakeMove()
			continue
		}
		newDepth := depth - cost
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
		s.unmakeMove()
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
					s.rememberCutoff(ply, side, m, depth, s.tried[ply][:min(quiets, len(s.tried[ply]))])
				}
				s.tt.store(key, m, scoreToTT(beta, s.ttPly(ply)), depth, ttLower)
				return beta
			}
		}
		if quiet {
			if quiets < len(s.tried[ply]) {
				s.tried[ply][quiets] = m
			}
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
