package board

// castleMask[sq] keeps the rights that survive a move from or to sq: moving
// the king or a rook, or capturing a rook on its home square, loses rights.
var castleMask [64]uint8

// castleRook[kingTo] gives the rook's origin and destination for the castling
// move whose king lands on kingTo.
var castleRook [64][2]Square

func init() {
	for sq := range castleMask {
		castleMask[sq] = 15
	}
	for _, side := range castling {
		for _, c := range side {
			castleMask[c.kingFrom] &^= c.right
			castleMask[c.rook] &^= c.right
			castleRook[c.kingTo] = [2]Square{c.rook, c.rTo}
		}
	}
}

// growHistory doubles the undo stack; it only happens in games (or searches)
// longer than the initial capacity.
func (p *Position) growHistory() {
	h := make([]undo, 2*len(p.hist)+initialHistory)
	copy(h, p.hist)
	p.hist = h
}

// MakeMove plays m, which must be legal in this position (from
// GenerateLegal, GenerateCaptures or ParseMove). It does not allocate.
func (p *Position) MakeMove(m Move) {
	if p.ply >= len(p.hist) {
		p.growHistory()
	}
	u := &p.hist[p.ply]
	p.ply++
	from, to := m.From(), m.To()
	us := p.side
	pc := p.board[from]
	captured := p.board[to]
	// Field by field: a composite literal is built on the stack and copied
	// with wide loads that stall on store forwarding.
	u.hash = p.hash
	u.move = m
	u.halfmove = p.halfmove
	u.captured = captured
	u.castle = p.castle
	u.ep = p.ep

	h := p.hash ^ zobSide ^ zobPiece[pc&15][from] ^ zobPiece[pc&15][to]
	if p.ep != NoSquare {
		h ^= zobEP[p.ep&7]
		p.ep = NoSquare
	}
	p.halfmove++
	fromTo := SquareBB(from) | SquareBB(to)
	p.pieceBB[pc&15] ^= fromTo
	p.occ[us&1] ^= fromTo
	p.board[from] = NoPiece
	p.board[to] = pc
	if captured != NoPiece {
		toBB := SquareBB(to)
		p.pieceBB[captured&15] ^= toBB
		p.occ[(us^1)&1] ^= toBB
		h ^= zobPiece[captured&15][to]
		p.halfmove = 0
	}
	if pc&7 == pawnIdx {
		p.halfmove = 0
		if m&specialPawnFlags != 0 {
			switch {
			case m&promoMask != 0:
				promo := MakePiece(us, m.Promotion())
				toBB := SquareBB(to)
				p.pieceBB[pc&15] ^= toBB
				p.pieceBB[promo&15] ^= toBB
				p.board[to] = promo
				h ^= zobPiece[pc&15][to] ^ zobPiece[promo&15][to]
			case m&flagEnPassant != 0:
				capSq := to ^ 8
				enemy := pc ^ 8
				capBB := SquareBB(capSq)
				p.pieceBB[enemy&15] ^= capBB
				p.occ[(us^1)&1] ^= capBB
				p.board[capSq] = NoPiece
				h ^= zobPiece[enemy&15][capSq]
			default: // double push
				epSq := (from + to) >> 1
				if pawnAttacks[us&1][epSq&63]&p.pieceBB[(pc^8)&15] != 0 {
					p.ep = epSq
					h ^= zobEP[epSq&7]
				}
			}
		}
	} else if m&flagCastle != 0 {
		r := castleRook[to]
		rook := MakePiece(us, Rook)
		rBB := SquareBB(r[0]) | SquareBB(r[1])
		p.pieceBB[rook&15] ^= rBB
		p.occ[us&1] ^= rBB
		p.board[r[0]&63] = NoPiece
		p.board[r[1]&63] = rook
		h ^= zobPiece[rook&15][r[0]&63] ^ zobPiece[rook&15][r[1]&63]
	}
	if p.castle != 0 {
		if c := p.castle & castleMask[from] & castleMask[to]; c != p.castle {
			h ^= zobCastle[p.castle&15] ^ zobCastle[c&15]
			p.castle = c
		}
	}
	p.side = us ^ 1
	p.hash = h
}

// UnmakeMove takes back the last MakeMove (not a null move: see
// UnmakeNullMove).
func (p *Position) UnmakeMove() {
	p.ply--
	u := &p.hist[p.ply]
	m := u.move
	us := p.side ^ 1
	p.side = us
	from, to := m.From(), m.To()
	toBB := SquareBB(to)
	pc := p.board[to]
	if m&promoMask != 0 {
		pawn := MakePiece(us, Pawn)
		p.pieceBB[pc&15] ^= toBB
		p.pieceBB[pawn&15] ^= toBB
		pc = pawn
	}
	fromTo := SquareBB(from) | toBB
	p.pieceBB[pc&15] ^= fromTo
	p.occ[us&1] ^= fromTo
	p.board[from] = pc
	captured := u.captured
	p.board[to] = captured
	if captured != NoPiece {
		p.pieceBB[captured&15] ^= toBB
		p.occ[(us^1)&1] ^= toBB
	}
	if m&(flagEnPassant|flagCastle) != 0 {
		if m&flagEnPassant != 0 {
			capSq := to ^ 8
			enemy := pc ^ 8
			capBB := SquareBB(capSq)
			p.pieceBB[enemy&15] ^= capBB
			p.occ[(us^1)&1] ^= capBB
			p.board[capSq] = enemy
		} else {
			r := castleRook[to]
			rook := MakePiece(us, Rook)
			rBB := SquareBB(r[0]) | SquareBB(r[1])
			p.pieceBB[rook&15] ^= rBB
			p.occ[us&1] ^= rBB
			p.board[r[1]&63] = NoPiece
			p.board[r[0]&63] = rook
		}
	}
	p.hash = u.hash
	p.castle = u.castle
	p.ep = u.ep
	p.halfmove = u.halfmove
}

// MakeNullMove passes the turn (for null-move pruning). It must not be
// played in check, and is taken back with UnmakeNullMove. Repetition
// detection does not look past it.
func (p *Position) MakeNullMove() {
	if p.ply >= len(p.hist) {
		p.growHistory()
	}
	p.hist[p.ply] = undo{hash: p.hash, move: NullMove, halfmove: p.halfmove,
		castle: p.castle, ep: p.ep}
	p.ply++
	h := p.hash ^ zobSide
	if p.ep != NoSquare {
		h ^= zobEP[p.ep&7]
		p.ep = NoSquare
	}
	p.halfmove++
	p.side ^= 1
	p.hash = h
}

// UnmakeNullMove takes back MakeNullMove.
func (p *Position) UnmakeNullMove() {
	p.ply--
	u := &p.hist[p.ply]
	p.side ^= 1
	p.hash = u.hash
	p.ep = u.ep
	p.halfmove = u.halfmove
}
