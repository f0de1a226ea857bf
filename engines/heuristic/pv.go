package heuristic

import (
	"arena/engines"
	"arena/engines/board"
)

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
