package deepchess

import "arena/engines/board"

// Move-ordering keys, the heuristic engine's scheme (engines/heuristic,
// order.go) without its history tables: the best move found for the
// position by an earlier iteration, then captures by MVV-LVA, promotions,
// the two killer moves of the ply, then the rest in generation order.
const (
	keyBest    int32 = 1 << 30
	keyCapture int32 = 1 << 29
	keyPromo   int32 = 1 << 28
	keyKiller  int32 = 1 << 27
)

// mvvLVA is the thesis's piece value for MVV-LVA, by board.PieceType.
var mvvLVA = [7]int32{1, 3, 3, 5, 9, 0, 0}

// order sorts ml by the keys, stably, so the search tries the moves most
// likely to cut first: with positions as bounds every cut saves head
// evaluations and, below it, Pos2Vec passes. With tactical set only the
// captures and promotions are keyed (quiescence).
func (s *searcher) order(ply int, ml *board.MoveList, tactical bool) {
	p := s.pos
	keys := &s.keys[ply]
	best := s.bestOf[p.Hash()]
	k0, k1 := s.killers[ply][0], s.killers[ply][1]
	for i, m := range ml.Moves[:ml.Len] {
		var k int32
		switch {
		case m == best && !tactical:
			k = keyBest
		case m.IsCapture():
			victim := board.Pawn // en passant: the victim is not on the target square
			if !m.IsEnPassant() {
				victim = p.PieceAt(m.To()).Type()
			}
			k = keyCapture + mvvLVA[victim]*10 - mvvLVA[p.PieceAt(m.From()).Type()]
		case m.IsPromotion():
			k = keyPromo
		case tactical:
		case m == k0:
			k = keyKiller + 1
		case m == k1:
			k = keyKiller
		}
		keys[i] = k
	}
	// Insertion sort: stable, and the lists are short.
	for i := 1; i < ml.Len; i++ {
		m, k := ml.Moves[i], keys[i]
		j := i
		for ; j > 0 && keys[j-1] < k; j-- {
			ml.Moves[j], keys[j] = ml.Moves[j-1], keys[j-1]
		}
		ml.Moves[j], keys[j] = m, k
	}
}
