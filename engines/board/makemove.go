package board

// castleMask[sq] keeps the rights that survive a move from or to sq: moving
// the king or a rook, or capturing a rook on its home square, loses rights.
var castleMask [64]uint8

// clockKeep[pc] masks the halfmove clock after a move of pc: 0 (restart)
// for pawns, all ones for other pieces.
var clockKeep [16]uint32

// castleRook[kingTo] gives the rook's origin and destination for the castling
// move whose king lands on kingTo.
var castleRook [64][2]Square

func init() {
	for sq := range castleMask {
		castleMask[sq] = 15
	}
	for pc := range clockKeep {
		if Piece(pc).Type() != Pawn {
			clockKeep[pc] = ^uint32(0)
		}
	}
	for _, side := range castling {
		for _, c := range side {
			castleMask[c.kingFrom] &^= c.right
			castleMask[c.rook] &^= c.right
			castleRook[c.kingTo] = [2]Square{c.rook, c.rTo}
		}
	}
}

// growHistory allocates the undo stack at a position's first move and
// doubles it in games (or searches) longer than that. Not inlined, to keep
// MakeMove small.
//
//go:noinline
func (p *Position) growHistory() {
	h := make([]undo, 2*len(p.hist)+initialHistory)
	copy(h, p.hist)
	p.hist = h
}

// MakeMove plays m, which must be legal in this position (from
// GenerateLegal, GenerateCaptures or ParseMove). It does not allocate.
//
// Captures, pawn moves and castling-right updates are frequent and
// unpredictable in a search, so they are handled without branches: an empty
// destination "captures" NoPiece, whose Zobrist keys are zero and whose
// bitboard slot (pieceBB[NoPiece]) is scratch space nothing reads.
func (p *Position) MakeMove(m Move) {
	ply := p.ply
	if uint(ply) >= uint(len(p.hist)) {
		p.growHistory()
	}
	u := &p.hist[ply]
	p.ply = ply + 1
	// Indices are kept as masked uints: no bounds checks, no re-extension.
	from := uint(m) & 63
	to := uint(m>>6) & 63
	pc := uint(p.board[from]) & 15
	captured := uint(p.board[to]) & 15
	h := p.hash
	st := p.st
	u.hash = h
	u.st = st
	u.move = m | Move(pc)<<undoPieceShift | Move(captured)<<undoCapturedShift

	castle := uint(st>>32) & 15
	newCastle := castle & uint(castleMask[from]) & uint(castleMask[to])
	h ^= zobSide ^ zobEPSquare[uint(st>>40)&127] ^ zobCastle[castle] ^ zobCastle[newCastle] ^
		zobPiece[pc][from] ^ zobPiece[pc][to] ^ zobPiece[captured][to]
	// The clock restarts on captures (captured > 0) and pawn moves; the en
	// passant square is cleared (makeSpecial sets a new one).
	halfmove := (uint32(st) + 1) & clockKeep[pc] &^ -uint32((captured+15)>>4)
	p.st = state(halfmove) | state(newCastle)<<32 | state(NoSquare)<<40

	toBB := Bitboard(1) << to
	fromTo := Bitboard(1)<<from | toBB
	p.pieceBB[pc] ^= fromTo
	p.pieceBB[captured] ^= toBB
	p.board[from] = NoPiece
	p.board[to] = Piece(pc)
	if m&(specialPawnFlags|flagCastle) != 0 {
		h = p.makeSpecial(m, Piece(pc), h)
	}
	p.hash = h
}

// makeSpecial finishes promotions, en passant, double pushes and castling
// after the piece itself has moved; it returns the updated hash.
func (p *Position) makeSpecial(m Move, pc Piece, h uint64) uint64 {
	from, to := m.From(), m.To()
	us := pc.Color() & 1
	switch {
	case m&promoMask != 0:
		promo := MakePiece(us, m.Promotion()) & 15
		toBB := SquareBB(to)
		p.pieceBB[pc] ^= toBB
		p.pieceBB[promo] ^= toBB
		p.board[to] = promo
		h ^= zobPiece[pc][to] ^ zobPiece[promo][to]
	case m&flagEnPassant != 0:
		capSq := to ^ 8
		enemy := (pc ^ 8) & 15
		capBB := SquareBB(capSq)
		p.pieceBB[enemy] ^= capBB
		p.board[capSq] = NoPiece
		h ^= zobPiece[enemy][capSq]
	case m&flagDoublePush != 0:
		// The en passant square is kept only if an enemy pawn can use it.
		epSq := (from + to) >> 1
		if pawnAttacks[us][epSq&63]&p.pieceBB[(pc^8)&15] != 0 {
			p.st = p.st&^(127<<40) | state(epSq)<<40
			h ^= zobEP[epSq&7]
		}
	default: // castling: the king has moved, now the rook
		r := castleRook[to]
		rook := MakePiece(us, Rook) & 15
		rBB := SquareBB(r[0]) | SquareBB(r[1])
		p.pieceBB[rook] ^= rBB
		p.board[r[0]&63] = NoPiece
		p.board[r[1]&63] = rook
		h ^= zobPiece[rook][r[0]&63] ^ zobPiece[rook][r[1]&63]
	}
	return h
}

// UnmakeMove takes back the last MakeMove (not a null move: see
// UnmakeNullMove).
func (p *Position) UnmakeMove() {
	ply := p.ply - 1
	p.ply = ply
	u := &p.hist[ply]
	m := u.move
	from := uint(m) & 63
	to := uint(m>>6) & 63
	pc := uint(m>>undoPieceShift) & 15
	captured := uint(m>>undoCapturedShift) & 15
	toBB := Bitboard(1) << to
	fromTo := Bitboard(1)<<from | toBB
	p.pieceBB[pc] ^= fromTo
	p.pieceBB[captured] ^= toBB
	p.board[from] = Piece(pc)
	p.board[to] = Piece(captured)
	if m&(promoMask|flagEnPassant|flagCastle) != 0 {
		p.unmakeSpecial(m, Piece(pc))
	}
	p.hash = u.hash
	p.st = u.st
}

// unmakeSpecial takes back the rest of promotions, en passant and castling
// once the moving piece is back on its square.
func (p *Position) unmakeSpecial(m Move, pc Piece) {
	to := m.To()
	if m&promoMask != 0 {
		// The pawn's bitboard got the destination bit back; the promoted
		// piece is still there.
		promo := (pc&8 | Piece(m.Promotion()+1)) & 15
		toBB := SquareBB(to)
		p.pieceBB[pc&15] ^= toBB
		p.pieceBB[promo] ^= toBB
		return
	}
	if m&flagEnPassant != 0 {
		capSq := to ^ 8
		enemy := (pc ^ 8) & 15
		capBB := SquareBB(capSq)
		p.pieceBB[enemy] ^= capBB
		p.board[capSq&63] = enemy
		return
	}
	r := castleRook[to]
	rook := (pc&8 | rookIdx) & 15
	rBB := SquareBB(r[0]) | SquareBB(r[1])
	p.pieceBB[rook] ^= rBB
	p.board[r[1]&63] = NoPiece
	p.board[r[0]&63] = rook
}

// MakeNullMove passes the turn (for null-move pruning). It must not be
// played in check, and is taken back with UnmakeNullMove. Repetition
// detection does not look past it.
func (p *Position) MakeNullMove() {
	if p.ply >= len(p.hist) {
		p.growHistory()
	}
	p.hist[p.ply] = undo{hash: p.hash, st: p.st, move: NullMove}
	p.ply++
	p.hash ^= zobSide ^ zobEPSquare[p.st.ep()]
	p.st = newState(p.st.halfmove()+1, p.st.castle(), NoSquare)
}

// UnmakeNullMove takes back MakeNullMove.
func (p *Position) UnmakeNullMove() {
	p.ply--
	u := &p.hist[p.ply]
	p.hash = u.hash
	p.st = u.st
}
