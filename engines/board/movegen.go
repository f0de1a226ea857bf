package board

// Piece indices within a colour (Piece = colour<<3 | index).
const (
	pawnIdx   = Piece(Pawn + 1)
	knightIdx = Piece(Knight + 1)
	bishopIdx = Piece(Bishop + 1)
	rookIdx   = Piece(Rook + 1)
	queenIdx  = Piece(Queen + 1)
	kingIdx   = Piece(King + 1)
)

// GenerateLegal replaces the contents of ml with the legal moves. Moves are
// legal by construction (check evasion mask, pin rays, king destinations
// tested against the board without the king), so MakeMove needs no test.
func (p *Position) GenerateLegal(ml *MoveList) { ml.Len = p.generate(ml, false) }

// GenerateCaptures replaces the contents of ml with the legal captures
// (en passant included) and all legal promotions, captures or not, under-
// promotions included: the moves a quiescence search looks at. In check
// these are only the captures and promotions that answer the check, so a
// search should use GenerateLegal at nodes in check.
func (p *Position) GenerateCaptures(ml *MoveList) { ml.Len = p.generate(ml, true) }

// captureFlag returns flagCapture when sq is in opp.
func captureFlag(opp Bitboard, sq Square) Move { return Move(opp>>(sq&63)&1) << 15 }

// generate writes the legal moves (or, tactical, the captures and
// promotions) to ml and returns how many. It is the move generator's hot
// path: the helpers take the moves array and the count n and return the new
// count, so nothing is allocated and no slice header is rebuilt.
func (p *Position) generate(ml *MoveList, tactical bool) int {
	us := p.stm()
	them := us ^ 1
	ub, tb := Piece(us)<<3, Piece(them)<<3
	own, opp := p.occupancy(us), p.occupancy(them)
	occ := own | opp
	ksq := p.pieceBB[ub|kingIdx].LSB() & 63
	moves := &ml.Moves

	eRQ := p.pieceBB[tb|rookIdx] | p.pieceBB[tb|queenIdx]
	eBQ := p.pieceBB[tb|bishopIdx] | p.pieceBB[tb|queenIdx]
	checkers := knightAttacks[ksq]&p.pieceBB[tb|knightIdx] |
		pawnAttacks[us][ksq]&p.pieceBB[tb|pawnIdx] |
		rookAttacks(ksq, occ)&eRQ | bishopAttacks(ksq, occ)&eBQ

	n := p.genKing(moves, 0, ksq, them, own, opp, occ, tactical)
	if checkers.more() {
		return int(n)
	}

	// checkMask: where a non-king move must land (anywhere when not in check,
	// else on the checker or between it and the king).
	checkMask := ^Bitboard(0)
	if checkers != 0 {
		checkMask = between[ksq][checkers.LSB()&63] | checkers
	}
	var pinned Bitboard
	snipers := rookAttacks(ksq, opp)&eRQ | bishopAttacks(ksq, opp)&eBQ
	for snipers != 0 {
		s := snipers.PopLSB()
		b := between[ksq][s&63] & occ
		if b&own != 0 && !b.more() {
			pinned |= b
		}
	}

	pieceMask := ^own & checkMask
	if tactical {
		pieceMask &= opp
	}
	n = p.genPieces(moves, n, ub, ksq, pinned, pieceMask, opp, occ)

	pawns := p.pieceBB[ub|pawnIdx]
	n = p.genPawns(moves, n, pawns&^pinned, checkMask, opp, occ, tactical)
	for bb := pawns & pinned; bb != 0; {
		from := bb.PopLSB()
		n = p.genPawns(moves, n, SquareBB(from), checkMask&line[ksq][from&63], opp, occ, tactical)
	}

	if p.st.ep() != NoSquare {
		n = p.genEnPassant(moves, n, pawns, ksq, occ, checkers, eRQ, eBQ)
	}

	if checkers == 0 && !tactical && p.st.castle() != 0 {
		n = p.genCastling(moves, n, occ)
	}
	return int(n)
}

// genKing adds the king's moves from ksq. A destination is safe if no enemy
// attacks it once the king has left its square (so it cannot step back along
// a checking ray). n is a uint8 here and in the other helpers so that
// indexing the 256-entry array needs no bounds check.
func (p *Position) genKing(moves *[maxMoves]Move, n uint8, ksq Square, them Color, own, opp, occ Bitboard, tactical bool) uint8 {
	targets := kingAttacks[ksq] &^ own
	if tactical {
		targets &= opp
	}
	occNoKing := occ ^ SquareBB(ksq)
	for targets != 0 {
		to := targets.PopLSB()
		if p.attackersTo(to, them, occNoKing) == 0 {
			moves[n] = newMove(ksq, to, captureFlag(opp, to))
			n++
		}
	}
	return n
}

// genPieces adds the knight, bishop, rook and queen moves of the side whose
// pieces are at ub that land in mask; pinned pieces stay on their pin ray
// (a pinned knight never moves).
func (p *Position) genPieces(moves *[maxMoves]Move, n uint8, ub Piece, ksq Square, pinned, mask, opp, occ Bitboard) uint8 {
	bb := p.pieceBB[ub|knightIdx] &^ pinned
	for bb != 0 {
		from := bb.PopLSB()
		att := knightAttacks[from&63] & mask
		for att != 0 {
			to := att.PopLSB()
			moves[n] = newMove(from, to, captureFlag(opp, to))
			n++
		}
	}
	bb = p.pieceBB[ub|bishopIdx] | p.pieceBB[ub|queenIdx]
	for bb != 0 {
		from := bb.PopLSB()
		att := bishopAttacks(from, occ) & mask
		if pinned.Has(from) {
			att &= line[ksq][from&63]
		}
		for att != 0 {
			to := att.PopLSB()
			moves[n] = newMove(from, to, captureFlag(opp, to))
			n++
		}
	}
	bb = p.pieceBB[ub|rookIdx] | p.pieceBB[ub|queenIdx]
	for bb != 0 {
		from := bb.PopLSB()
		att := rookAttacks(from, occ) & mask
		if pinned.Has(from) {
			att &= line[ksq][from&63]
		}
		for att != 0 {
			to := att.PopLSB()
			moves[n] = newMove(from, to, captureFlag(opp, to))
			n++
		}
	}
	return n
}

// genPawns adds the pushes, captures and promotions of pawns whose
// destinations must lie in mask (check evasion and pin ray).
func (p *Position) genPawns(moves *[maxMoves]Move, n uint8, pawns, mask, opp, occ Bitboard, tactical bool) uint8 {
	var push1, push2, capL, capR, lastRank Bitboard
	// Origin = destination - delta (mod 256 for Black's negative deltas).
	var up, upL, upR Square
	if p.stm() == White {
		push1 = pawns << 8 &^ occ
		push2 = (push1 & rank3) << 8 &^ occ
		capL = (pawns &^ fileA) << 7 & opp
		capR = (pawns &^ fileH) << 9 & opp
		lastRank = rank8
		up, upL, upR = 8, 7, 9
	} else {
		push1 = pawns >> 8 &^ occ
		push2 = (push1 & rank6) >> 8 &^ occ
		capL = (pawns &^ fileA) >> 9 & opp
		capR = (pawns &^ fileH) >> 7 & opp
		lastRank = rank1
		up, upL, upR = 256-8, 256-9, 256-7
	}
	push1 &= mask
	push2 &= mask
	capL &= mask
	capR &= mask

	for b := push1 & lastRank; b != 0; {
		to := b.PopLSB()
		n = addPromotions(moves, n, to-up, to, 0)
	}
	for b := capL & lastRank; b != 0; {
		to := b.PopLSB()
		n = addPromotions(moves, n, to-upL, to, flagCapture)
	}
	for b := capR & lastRank; b != 0; {
		to := b.PopLSB()
		n = addPromotions(moves, n, to-upR, to, flagCapture)
	}
	for b := capL &^ lastRank; b != 0; {
		to := b.PopLSB()
		moves[n] = newMove(to-upL, to, flagCapture)
		n++
	}
	for b := capR &^ lastRank; b != 0; {
		to := b.PopLSB()
		moves[n] = newMove(to-upR, to, flagCapture)
		n++
	}
	if tactical {
		return n
	}
	for b := push1 &^ lastRank; b != 0; {
		to := b.PopLSB()
		moves[n] = newMove(to-up, to, 0)
		n++
	}
	for b := push2; b != 0; {
		to := b.PopLSB()
		moves[n] = newMove(to-2*up, to, flagDoublePush)
		n++
	}
	return n
}

// addPromotions adds the four promotions, queen first (best first for search).
func addPromotions(moves *[maxMoves]Move, n uint8, from, to Square, flags Move) uint8 {
	m := newMove(from, to, flags)
	moves[n] = m | Move(Queen)<<promoShift
	moves[n+1] = m | Move(Rook)<<promoShift
	moves[n+2] = m | Move(Bishop)<<promoShift
	moves[n+3] = m | Move(Knight)<<promoShift
	return n + 4
}

// genEnPassant tests each en passant capture by replaying it on the
// occupancy: both pawns leave their rank at once, which a pin test on a
// single piece would miss, and the capture may answer a check by the pawn.
func (p *Position) genEnPassant(moves *[maxMoves]Move, n uint8, pawns Bitboard, ksq Square, occ, checkers, eRQ, eBQ Bitboard) uint8 {
	to := p.st.ep()
	capSq := to ^ 8
	them := p.stm() ^ 1
	tb := Piece(them) << 3
	// Knight and pawn checks other than by the captured pawn stay unanswered.
	if checkers&(p.pieceBB[tb|knightIdx]|p.pieceBB[tb|pawnIdx])&^SquareBB(capSq) != 0 {
		return n
	}
	for b := pawnAttacks[them][to&63] & pawns; b != 0; {
		from := b.PopLSB()
		occ2 := occ ^ SquareBB(from) ^ SquareBB(capSq) | SquareBB(to)
		if rookAttacks(ksq, occ2)&eRQ == 0 && bishopAttacks(ksq, occ2)&eBQ == 0 {
			moves[n] = newMove(from, to, flagCapture|flagEnPassant)
			n++
		}
	}
	return n
}

// castling describes one castling move: the right, the king's destination,
// the squares that must be empty and those the king crosses or lands on,
// which must not be attacked.
var castling = [2][2]struct {
	right     uint8
	kingFrom  Square
	kingTo    Square
	empty     Bitboard
	safe      [2]Square
	rook, rTo Square
}{
	{{castleWK, E1, G1, SquareBB(F1) | SquareBB(G1), [2]Square{F1, G1}, H1, F1},
		{castleWQ, E1, C1, SquareBB(B1) | SquareBB(C1) | SquareBB(D1), [2]Square{D1, C1}, A1, D1}},
	{{castleBK, E8, G8, SquareBB(F8) | SquareBB(G8), [2]Square{F8, G8}, H8, F8},
		{castleBQ, E8, C8, SquareBB(B8) | SquareBB(C8) | SquareBB(D8), [2]Square{D8, C8}, A8, D8}},
}

func (p *Position) genCastling(moves *[maxMoves]Move, n uint8, occ Bitboard) uint8 {
	them := p.stm() ^ 1
	for i := range castling[p.stm()&1] {
		c := &castling[p.stm()&1][i]
		if p.st.castle()&c.right != 0 && occ&c.empty == 0 &&
			p.attackersTo(c.safe[0], them, occ) == 0 && p.attackersTo(c.safe[1], them, occ) == 0 {
			moves[n] = newMove(c.kingFrom, c.kingTo, flagCastle)
			n++
		}
	}
	return n
}
