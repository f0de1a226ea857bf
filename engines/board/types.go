// Package board is a fast bitboard chess board: legal move generation with
// pins and check masks, make/unmake without heap allocation, incremental
// Zobrist hashing, FEN, game-end detection and perft.
//
// Sliding attacks use fancy magic bitboards whose multipliers are found at
// init from a fixed seed, so the tables are identical on every run.
package board

import "math/bits"

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposite side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// PieceType is a kind of piece regardless of colour.
type PieceType uint8

// Piece types; NoPieceType marks "none" (e.g. a move without promotion).
const (
	Pawn PieceType = iota
	Knight
	Bishop
	Rook
	Queen
	King
	NoPieceType
)

// String returns the lower-case letter of the piece type ("p", "n", ...), or
// "-" for NoPieceType.
func (pt PieceType) String() string {
	if pt >= NoPieceType {
		return "-"
	}
	return string("pnbrqk"[pt])
}

// Piece is a coloured piece or NoPiece. The encoding is colour<<3 | (type+1),
// so that the zero value is NoPiece and a Piece indexes the per-piece
// bitboards directly.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of colour c and type pt.
func MakePiece(c Color, pt PieceType) Piece { return Piece(c)<<3 | Piece(pt+1) }

// Color returns the colour of a piece (White for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Type returns the type of a piece, NoPieceType for NoPiece.
func (p Piece) Type() PieceType { return pieceTypeOf[p&15] }

var pieceTypeOf = [16]PieceType{
	NoPieceType, Pawn, Knight, Bishop, Rook, Queen, King, NoPieceType,
	NoPieceType, Pawn, Knight, Bishop, Rook, Queen, King, NoPieceType,
}

// String returns the FEN letter of the piece (upper case for White), or "."
// for NoPiece.
func (p Piece) String() string {
	if p.Type() == NoPieceType {
		return "."
	}
	s := p.Type().String()
	if p.Color() == White {
		return string(s[0] - 'a' + 'A')
	}
	return s
}

// Square is a board square, A1 = 0, B1 = 1, ..., H8 = 63.
type Square uint8

// The squares.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 8*iota + 0, 8*iota + 1, 8*iota + 2, 8*iota + 3, 8*iota + 4, 8*iota + 5, 8*iota + 6, 8*iota + 7
	A2, B2, C2, D2, E2, F2, G2, H2
	A3, B3, C3, D3, E3, F3, G3, H3
	A4, B4, C4, D4, E4, F4, G4, H4
	A5, B5, C5, D5, E5, F5, G5, H5
	A6, B6, C6, D6, E6, F6, G6, H6
	A7, B7, C7, D7, E7, F7, G7, H7
	A8, B8, C8, D8, E8, F8, G8, H8
)

// NoSquare marks "no square" (e.g. no en passant square).
const NoSquare Square = 64

// NewSquare returns the square on file (0 = a) and rank (0 = 1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns the file, 0 (a) to 7 (h).
func (sq Square) File() int { return int(sq & 7) }

// Rank returns the rank, 0 (first) to 7 (eighth).
func (sq Square) Rank() int { return int(sq >> 3) }

// String returns the algebraic name ("e4"), or "-" for NoSquare.
func (sq Square) String() string {
	if sq >= NoSquare {
		return "-"
	}
	return string([]byte{'a' + byte(sq&7), '1' + byte(sq>>3)})
}

// Bitboard is a set of squares, bit i standing for Square i.
type Bitboard uint64

// SquareBB returns the bitboard holding only sq.
func SquareBB(sq Square) Bitboard { return 1 << (sq & 63) }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// Has reports whether sq is in the set.
func (b Bitboard) Has(sq Square) bool { return b&SquareBB(sq) != 0 }

// LSB returns the lowest square of a non-empty set (64 for an empty one).
func (b Bitboard) LSB() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// PopLSB removes the lowest square from a non-empty set and returns it.
func (b *Bitboard) PopLSB() Square {
	sq := Square(bits.TrailingZeros64(uint64(*b)))
	*b &= *b - 1
	return sq
}

// more reports whether the set holds more than one square.
func (b Bitboard) more() bool { return b&(b-1) != 0 }

// Move is a move packed into 32 bits: from (bits 0-5), to (6-11), promotion
// piece type (12-14, 0 when none since a pawn is never a promotion piece) and
// flag bits for captures, en passant, castling and double pawn pushes, so that
// the accessors need no position and MakeMove tests one word for the rare
// special cases.
type Move uint32

// NullMove is the zero Move: no move (also what MakeNullMove stands for).
const NullMove Move = 0

const (
	promoShift            = 12
	flagCapture      Move = 1 << 15
	flagEnPassant    Move = 1 << 16
	flagCastle       Move = 1 << 17
	flagDoublePush   Move = 1 << 18
	promoMask        Move = 7 << promoShift
	specialPawnFlags      = promoMask | flagEnPassant | flagDoublePush
	maxMoves              = 256
)

func newMove(from, to Square, flags Move) Move { return Move(from) | Move(to)<<6 | flags }

// From returns the origin square.
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square (for castling, the king's destination).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the piece type promoted to, NoPieceType if none.
func (m Move) Promotion() PieceType {
	if m&promoMask == 0 {
		return NoPieceType
	}
	return PieceType(m >> promoShift & 7)
}

// IsPromotion reports whether the move promotes a pawn.
func (m Move) IsPromotion() bool { return m&promoMask != 0 }

// IsCapture reports whether the move captures, en passant included.
func (m Move) IsCapture() bool { return m&flagCapture != 0 }

// IsEnPassant reports whether the move is an en passant capture.
func (m Move) IsEnPassant() bool { return m&flagEnPassant != 0 }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { return m&flagCastle != 0 }

// String returns the move in UCI notation ("e2e4", "e7e8q", "0000" for
// NullMove).
func (m Move) String() string {
	if m == NullMove {
		return "0000"
	}
	var b [5]byte
	from, to := m.From(), m.To()
	b[0], b[1] = 'a'+byte(from&7), '1'+byte(from>>3)
	b[2], b[3] = 'a'+byte(to&7), '1'+byte(to>>3)
	if m.IsPromotion() {
		b[4] = "pnbrqk"[m.Promotion()]
		return string(b[:5])
	}
	return string(b[:4])
}

// MoveList is a fixed-size move buffer, so generation needs no allocation;
// no legal chess position has more than 218 moves.
type MoveList struct {
	Moves [maxMoves]Move
	Len   int
}

// Slice returns the generated moves (a view of ml.Moves).
func (ml *MoveList) Slice() []Move { return ml.Moves[:ml.Len] }
