package board

// Attack queries for evaluation features (engines/giraffe builds attack and
// defence maps from them); the move generator uses the unexported tables
// directly.

// Attacks returns the squares a piece of type pt and colour c on sq attacks
// when the board's occupancy is occ (pawns: their two capture squares).
func Attacks(pt PieceType, c Color, sq Square, occ Bitboard) Bitboard {
	sq &= 63
	switch pt {
	case Pawn:
		return pawnAttacks[c&1][sq]
	case Knight:
		return knightAttacks[sq]
	case Bishop:
		return bishopAttacks(sq, occ)
	case Rook:
		return rookAttacks(sq, occ)
	case Queen:
		return bishopAttacks(sq, occ) | rookAttacks(sq, occ)
	case King:
		return kingAttacks[sq]
	}
	return 0
}

// HasCastlingRight reports whether side c may still castle on the king's
// side (kingSide) or the queen's side.
func (p *Position) HasCastlingRight(c Color, kingSide bool) bool {
	bit := castleWK
	if !kingSide {
		bit = castleWQ
	}
	if c == Black {
		bit <<= 2
	}
	return p.st.castle()&bit != 0
}
