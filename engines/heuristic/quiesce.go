package heuristic

import (
	"arena/engines/board"
)

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
		stand = s.eval.Evaluate(pos)
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
		s.makeMove(m)
		v := -s.quiescence(ply+1, -beta, -alpha)
		s.unmakeMove()
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
	return s.eval.Evaluate(pos), false
}
