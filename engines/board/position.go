package board

// Castling-right bits.
const (
	castleWK uint8 = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// state packs the halfmove clock (bits 0-31), the castling rights (32-35)
// and the en passant square (40-46), so that MakeMove saves and UnmakeMove
// restores them as one word, always written whole (no partial-store stalls).
type state uint64

func newState(halfmove int32, castle uint8, ep Square) state {
	return state(uint32(halfmove)) | state(castle&15)<<32 | state(ep&127)<<40
}

func (s state) halfmove() int32 { return int32(uint32(s)) }
func (s state) castle() uint8   { return uint8(s>>32) & 15 }
func (s state) ep() Square      { return Square(s>>40) & 127 }

// undo is what MakeMove saves to restore a position exactly; hash is also the
// key of the position before the move, which is how repetitions are found.
// move holds the Move in its low 24 bits, the moving piece in bits 24-27 and
// the captured piece in bits 28-31: UnmakeMove gets everything from one load
// instead of waiting for the board.
type undo struct {
	hash uint64
	st   state
	move Move
}

const (
	undoPieceShift    = 24
	undoCapturedShift = 28
	undoMoveMask      = 1<<undoPieceShift - 1
)

// initialHistory is the undo capacity a position allocates at its first
// move: enough for a long game plus a deep search, so that the stack never
// grows again in practice. A position only parsed allocates none: the arena
// checks every line of an opening book at its start (twice: the config, then
// the run), which took 10 MB for a book of 100 lines when ParseFEN allocated
// the history.
const initialHistory = 1024

// Position is a chess position with its history since the root FEN. The
// per-piece bitboards are indexed by Piece; board is the mailbox view of the
// same information. MakeMove pushes onto hist, which is allocated once.
type Position struct {
	pieceBB [16]Bitboard
	board   [64]Piece
	hash    uint64
	// st holds the halfmove clock, castling rights and en passant square
	// (NoSquare unless a pawn of the side to move could capture there).
	st  state
	ply int
	// The move number is derived from the root's, so make/unmake need not
	// maintain it.
	rootFullmove int32
	rootSide     Color
	hist         []undo
}

// StartFEN is the standard initial position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// NewPosition returns the standard initial position.
func NewPosition() *Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("board: start FEN rejected: " + err.Error())
	}
	return p
}

// Clone returns an independent copy, history included (repetition detection
// keeps working on the copy).
func (p *Position) Clone() *Position {
	c := *p
	c.hist = make([]undo, p.ply+initialHistory/4)
	copy(c.hist, p.hist[:p.ply])
	return &c
}

// SideToMove returns the side to move.
func (p *Position) SideToMove() Color { return p.stm() }

// stm is the side to move, derived from the ply count (null moves included)
// so that make/unmake need not store it.
func (p *Position) stm() Color { return (p.rootSide ^ Color(p.ply)) & 1 }

// PieceAt returns the piece on sq, NoPiece if empty.
func (p *Position) PieceAt(sq Square) Piece { return p.board[sq&63] }

// Pieces returns the squares of c's pieces of type pt.
func (p *Position) Pieces(c Color, pt PieceType) Bitboard { return p.pieceBB[MakePiece(c, pt)&15] }

// Occupancy returns the squares of c's pieces.
func (p *Position) Occupancy(c Color) Bitboard { return p.occupancy(c) }

// occupancy is derived rather than stored: make/unmake then update one
// bitboard per piece moved, and generation computes it once per node.
func (p *Position) occupancy(c Color) Bitboard {
	b := p.pieceBB[Piece(c&1)<<3:][:8]
	return b[1] | b[2] | b[3] | b[4] | b[5] | b[6]
}

// Hash returns the Zobrist key of the position (pieces, side to move,
// castling rights and a capturable en passant square).
func (p *Position) Hash() uint64 { return p.hash }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.st.halfmove()) }

// FullmoveNumber returns the FEN move number.
func (p *Position) FullmoveNumber() int { return int(p.rootFullmove) + (p.ply+int(p.rootSide))/2 }

// Ply returns the number of moves (null moves included) made since the root.
func (p *Position) Ply() int { return p.ply }

// CastlingRights returns the rights in FEN notation ("KQkq", "-").
func (p *Position) CastlingRights() string { return castleString(p.st.castle()) }

// EnPassant returns the en passant square, NoSquare if there is none. As in
// X-FEN, it is only set when a pawn of the side to move stands next to the
// double-pushed pawn.
func (p *Position) EnPassant() Square { return p.st.ep() }

// LastMove returns the last move made, NullMove at the root or after a null
// move.
func (p *Position) LastMove() Move {
	if p.ply == 0 {
		return NullMove
	}
	return p.hist[p.ply-1].move & undoMoveMask
}

func (p *Position) kingSq(c Color) Square { return p.pieceBB[MakePiece(c, King)].LSB() }

// attackersTo returns the pieces of colour by that attack sq given occupancy occ.
func (p *Position) attackersTo(sq Square, by Color, occ Bitboard) Bitboard {
	b := &p.pieceBB
	base := Piece(by) << 3
	queens := b[base|Piece(Queen+1)]
	return (pawnAttacks[by^1][sq]&b[base|Piece(Pawn+1)] |
		knightAttacks[sq]&b[base|Piece(Knight+1)] |
		kingAttacks[sq]&b[base|Piece(King+1)] |
		bishopAttacks(sq, occ)&(b[base|Piece(Bishop+1)]|queens) |
		rookAttacks(sq, occ)&(b[base|Piece(Rook+1)]|queens))
}

// AttackersTo returns the pieces of colour by that attack sq when the
// board's occupancy is occ (a static exchange removes pieces from occ to
// uncover x-ray attackers behind them).
func (p *Position) AttackersTo(sq Square, by Color, occ Bitboard) Bitboard {
	return p.attackersTo(sq&63, by&1, occ)
}

// IsAttacked reports whether sq is attacked by a piece of colour by.
func (p *Position) IsAttacked(sq Square, by Color) bool {
	return p.attackersTo(sq, by, p.occupancy(White)|p.occupancy(Black)) != 0
}

// InCheck reports whether the side to move is in check.
func (p *Position) InCheck() bool {
	return p.IsAttacked(p.kingSq(p.stm()), p.stm()^1)
}

func (p *Position) putPiece(pc Piece, sq Square) {
	p.board[sq] = pc
	p.pieceBB[pc] |= SquareBB(sq)
}

// computeHash derives the Zobrist key from scratch (FEN parsing, tests).
func (p *Position) computeHash() uint64 {
	var h uint64
	for sq := A1; sq <= H8; sq++ {
		if pc := p.board[sq]; pc != NoPiece {
			h ^= zobPiece[pc][sq]
		}
	}
	if p.stm() == Black {
		h ^= zobSide
	}
	h ^= zobCastle[p.st.castle()] ^ zobEPSquare[p.st.ep()]
	return h
}
