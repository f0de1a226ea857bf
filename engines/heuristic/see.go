package heuristic

import "arena/engines/board"

// seeGE reports whether the static exchange on m's target square, each side
// recapturing with its least valuable attacker and free to stop when going
// on would lose material, gains the side to move at least threshold
// centipawns (seeValue). It is the threshold form of static exchange
// evaluation: the swap list is never built, the loop stops as soon as the
// outcome relative to threshold is known. Attackers uncovered behind a
// slider (x-rays) join as the pieces in front of them leave; pins are
// ignored, as usual. Castling is treated as a quiet move that risks
// nothing, an en passant capture as winning a pawn, and a promotion as a
// move of a pawn (what it can gain is left to the search).
func (s *searcher) seeGE(m board.Move, threshold int32) bool {
	if m.IsCastle() {
		return threshold <= 0
	}
	pos := s.pos
	from, to := m.From(), m.To()
	var captured int32
	switch {
	case m.IsEnPassant():
		captured = seeValue[board.Pawn]
	case m.IsCapture():
		captured = seeValue[pos.PieceAt(to).Type()]
	}
	// swap is what the side to move stands to gain over threshold if the
	// exchange stopped now (first after the capture, then after each
	// recapture from the point of view of the side that would recapture).
	swap := captured - threshold
	if swap < 0 {
		return false
	}
	swap = seeValue[pos.PieceAt(from).Type()] - swap
	if swap <= 0 {
		return true // even losing the moved piece for nothing, the threshold is met
	}
	occ := (pos.Occupancy(board.White) | pos.Occupancy(board.Black)) ^ board.SquareBB(from) | board.SquareBB(to)
	if m.IsEnPassant() {
		occ ^= board.SquareBB(to ^ 8) // the captured pawn is beside the target square
	}
	attackers := pos.AttackersTo(to, board.White, occ) | pos.AttackersTo(to, board.Black, occ)
	diagonal := pos.Pieces(board.White, board.Bishop) | pos.Pieces(board.Black, board.Bishop) |
		pos.Pieces(board.White, board.Queen) | pos.Pieces(board.Black, board.Queen)
	straight := pos.Pieces(board.White, board.Rook) | pos.Pieces(board.Black, board.Rook) |
		pos.Pieces(board.White, board.Queen) | pos.Pieces(board.Black, board.Queen)
	stm := pos.SideToMove()
	// res is 1 when the side to move meets the threshold if the exchange
	// stops here; each recapture hands the question to the other side.
	res := int32(1)
	for {
		stm = stm.Other()
		attackers &= occ
		mine := attackers & pos.Occupancy(stm)
		if mine == 0 {
			break
		}
		res ^= 1
		pt, sq := leastValuable(pos, stm, mine)
		if pt == board.King {
			// The king may recapture only if nothing defends the square.
			if attackers&pos.Occupancy(stm.Other()) != 0 {
				return res^1 != 0
			}
			return res != 0
		}
		if swap = seeValue[pt] - swap; swap < res {
			break
		}
		occ ^= board.SquareBB(sq)
		if pt == board.Pawn || pt == board.Bishop || pt == board.Queen {
			attackers |= board.Attacks(board.Bishop, stm, to, occ) & diagonal
		}
		if pt == board.Rook || pt == board.Queen {
			attackers |= board.Attacks(board.Rook, stm, to, occ) & straight
		}
	}
	return res != 0
}

// leastValuable returns the type and square of side's least valuable piece
// among attackers.
func leastValuable(pos *board.Position, side board.Color, attackers board.Bitboard) (board.PieceType, board.Square) {
	for pt := board.Pawn; pt < board.King; pt++ {
		if b := attackers & pos.Pieces(side, pt); b != 0 {
			return pt, b.LSB()
		}
	}
	return board.King, attackers.LSB()
}
