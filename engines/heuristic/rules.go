package heuristic

import (
	"arena/engines/board"
)

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
