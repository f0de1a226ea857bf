package heuristic

import "arena/engines/board"

// Move-ordering keys. The thesis orders the hash move (key 10000) before
// captures (victim*10 - attacker + 1000, at most 1090) before everything
// else (0). The same relative order is kept with the bands widened so that
// killer moves and history scores fit between captures and the rest.
const (
	scoreHash    int32 = 1 << 30
	scoreCapture int32 = 1 << 29 // + the thesis's MVV-LVA key
	scoreKiller  int32 = 1 << 28 // + 1 for the first killer
	scoreCounter int32 = 1<<28 - 1
	// historyMax bounds history scores (well below scoreCounter): each
	// update moves an entry towards +-historyMax by a fraction of the
	// distance left ("history gravity"), so recent cutoffs weigh more than
	// old ones and no entry overflows.
	historyMax int32 = 1 << 14
)

// mvvLVAValue is the thesis's approximate piece value for MVV-LVA, indexed
// by board.PieceType: P=1 N=3 B=3 R=5 Q=9 K=0.
var mvvLVAValue = [7]int32{1, 3, 3, 5, 9, 0, 0}

// scoreMoves fills s.scores[ply] with the ordering key of every move.
func (s *searcher) scoreMoves(ply int, ml *board.MoveList, hashMove board.Move) {
	pos := s.pos
	sc := &s.scores[ply]
	side := pos.SideToMove()
	k0, k1, cm := board.NullMove, board.NullMove, board.NullMove
	if s.cfg.killers {
		k0, k1 = s.killers[ply][0], s.killers[ply][1]
	}
	if s.cfg.counter {
		cm = s.counterMove()
	}
	for i, m := range ml.Moves[:ml.Len] {
		var v int32
		switch {
		case m == hashMove:
			v = scoreHash
		case m.IsCapture():
			attacker := pos.PieceAt(m.From()).Type()
			victim := board.Pawn // en passant: the victim is not on the target square
			if !m.IsEnPassant() {
				victim = pos.PieceAt(m.To()).Type()
			}
			v = scoreCapture + mvvLVAValue[victim]*10 - mvvLVAValue[attacker] + 1000
		case m == k0:
			v = scoreKiller + 1
		case m == k1:
			v = scoreKiller
		case m == cm:
			v = scoreCounter
		case s.cfg.history:
			v = s.history[side][m.From()][m.To()]
		}
		sc[i] = v
	}
}

// pickMove moves the best remaining move to index i and returns it. Taking
// the first of equal keys and shifting the others keeps their generation
// order, so the sequence is the thesis's stable descending sort, computed
// lazily because most nodes cut off after a move or two.
func (s *searcher) pickMove(ply int, ml *board.MoveList, i int) board.Move {
	sc := &s.scores[ply]
	best := i
	for j := i + 1; j < ml.Len; j++ {
		if sc[j] > sc[best] {
			best = j
		}
	}
	if best != i {
		m, v := ml.Moves[best], sc[best]
		copy(ml.Moves[i+1:best+1], ml.Moves[i:best])
		copy(sc[i+1:best+1], sc[i:best])
		ml.Moves[i], sc[i] = m, v
	}
	return ml.Moves[i]
}

// counterMove is the counter-move table's answer to the move that led to
// the current position (NullMove at the root of the game or after a null
// move).
func (s *searcher) counterMove() board.Move {
	prev := s.pos.LastMove()
	if prev == board.NullMove {
		return board.NullMove
	}
	return s.counters[s.pos.PieceAt(prev.To())&15][prev.To()]
}

// rememberCutoff records a quiet move that caused a beta cutoff in the
// killer, counter-move and history tables (when those options are on);
// tried are the quiet moves searched before it at this node, which lose
// history.
func (s *searcher) rememberCutoff(ply int, side board.Color, m board.Move, depth int, tried []board.Move) {
	if s.cfg.killers && s.killers[ply][0] != m {
		s.killers[ply][1] = s.killers[ply][0]
		s.killers[ply][0] = m
	}
	if s.cfg.counter {
		if prev := s.pos.LastMove(); prev != board.NullMove {
			s.counters[s.pos.PieceAt(prev.To())&15][prev.To()] = m
		}
	}
	if s.cfg.history {
		bonus := int32(min(depth*depth, 400))
		s.updateHistory(side, m, bonus)
		for _, q := range tried {
			s.updateHistory(side, q, -bonus)
		}
	}
}

// updateHistory adds bonus (scaled) to m's history with gravity towards
// +-historyMax.
func (s *searcher) updateHistory(side board.Color, m board.Move, bonus int32) {
	h := &s.history[side][m.From()][m.To()]
	b := bonus * 32
	*h += b - *h*max(b, -b)/historyMax
}
