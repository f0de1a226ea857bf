package board

import (
	"fmt"
	"strconv"
	"strings"

	"arena/internal/clip"
)

var fenFieldNames = [6]string{"piece placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"}

// fenError names the FEN, the field (1-based, as in the FEN standard) and the
// offending value, then says what was expected.
func fenError(fen string, field int, value, format string, args ...any) error {
	return fmt.Errorf("fen %q: field %d (%s) %q: %s", clip.String(fen), field+1, fenFieldNames[field], clip.String(value), fmt.Sprintf(format, args...))
}

// ParseFEN parses a position in Forsyth-Edwards Notation. The two clock
// fields may be omitted (as in EPD); they then default to 0 and 1. Besides
// syntax it checks what the move generator relies on: one king per side, no
// pawn on the first or last rank, the side not to move not in check, castling
// rights backed by king and rook on their home squares, and an en passant
// square behind a pawn that has just double-pushed.
func ParseFEN(fen string) (*Position, error) {
	fields := strings.Fields(fen)
	if len(fields) != 4 && len(fields) != 6 {
		return nil, fmt.Errorf("fen %q: has %d fields, expected 6 (placement, side, castling, en passant, halfmove clock, fullmove number) or the first 4", clip.String(fen), len(fields))
	}
	p := &Position{rootFullmove: 1} // the history comes with the first move
	if err := p.parsePlacement(fen, fields[0]); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		p.rootSide = White
	case "b":
		p.rootSide = Black
	default:
		return nil, fenError(fen, 1, fields[1], `expected "w" or "b"`)
	}
	castle, err := p.parseCastling(fen, fields[2])
	if err != nil {
		return nil, err
	}
	ep, err := p.parseEnPassant(fen, fields[3])
	if err != nil {
		return nil, err
	}
	halfmove := int32(0)
	if len(fields) == 6 {
		n, err := strconv.ParseInt(fields[4], 10, 32)
		if err != nil || n < 0 {
			return nil, fenError(fen, 4, fields[4], "expected a non-negative integer")
		}
		halfmove = int32(n)
		n, err = strconv.ParseInt(fields[5], 10, 32)
		if err != nil || n < 1 {
			return nil, fenError(fen, 5, fields[5], "expected a positive integer")
		}
		p.rootFullmove = int32(n)
	}
	if p.IsAttacked(p.kingSq(p.stm()^1), p.stm()) {
		return nil, fenError(fen, 1, fields[1], "the side not to move (%s) is in check", p.stm()^1)
	}
	p.st = newState(halfmove, castle, ep)
	p.hash = p.computeHash()
	return p, nil
}

func (p *Position) parsePlacement(fen, s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return fenError(fen, 0, s, "has %d ranks, expected 8 separated by '/'", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for _, c := range row {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
			} else {
				pc, ok := pieceFromLetter(c)
				if !ok {
					return fenError(fen, 0, s, "rank %d has %q, expected a piece letter (PNBRQK, pnbrqk) or a digit 1-8", rank+1, c)
				}
				if file < 8 {
					if pc.Type() == Pawn && (rank == 0 || rank == 7) {
						return fenError(fen, 0, s, "pawn on rank %d, expected pawns on ranks 2-7 only", rank+1)
					}
					p.putPiece(pc, NewSquare(file, rank))
				}
				file++
			}
			if file > 8 {
				return fenError(fen, 0, s, "rank %d %q covers more than 8 files", rank+1, clip.String(row))
			}
		}
		if file != 8 {
			return fenError(fen, 0, s, "rank %d %q covers %d files, expected 8", rank+1, clip.String(row), file)
		}
	}
	for _, c := range [2]Color{White, Black} {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fenError(fen, 0, s, "%s has %d kings, expected exactly 1", c, n)
		}
	}
	return nil
}

func pieceFromLetter(c rune) (Piece, bool) {
	i := strings.IndexRune("PNBRQKpnbrqk", c)
	if i < 0 {
		return NoPiece, false
	}
	return MakePiece(Color(i/6), PieceType(i%6)), true
}

// castleRequirements lists, per right, the king and rook squares it needs.
var castleRequirements = [4]struct {
	letter     byte
	right      uint8
	king, rook Square
	color      Color
}{
	{'K', castleWK, E1, H1, White},
	{'Q', castleWQ, E1, A1, White},
	{'k', castleBK, E8, H8, Black},
	{'q', castleBQ, E8, A8, Black},
}

func (p *Position) parseCastling(fen, s string) (uint8, error) {
	var castle uint8
	if s == "-" {
		return 0, nil
	}
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte("KQkq", s[i])
		if j < 0 || castle&castleRequirements[j].right != 0 {
			return 0, fenError(fen, 2, s, `expected a combination of KQkq or "-"`)
		}
		r := castleRequirements[j]
		if p.board[r.king] != MakePiece(r.color, King) || p.board[r.rook] != MakePiece(r.color, Rook) {
			return 0, fenError(fen, 2, s, "right %c needs the %s king on %s and a rook on %s", r.letter, r.color, r.king, r.rook)
		}
		castle |= r.right
	}
	return castle, nil
}

func castleString(c uint8) string {
	if c == 0 {
		return "-"
	}
	var b []byte
	for _, r := range castleRequirements {
		if c&r.right != 0 {
			b = append(b, r.letter)
		}
	}
	return string(b)
}

// parseEnPassant validates the square and keeps it only when a pawn of the
// side to move could capture there, so that positions differing only in an
// unusable en passant square hash (and repeat) alike.
func (p *Position) parseEnPassant(fen, s string) (Square, error) {
	if s == "-" {
		return NoSquare, nil
	}
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fenError(fen, 3, s, `expected a square such as "e3" or "-"`)
	}
	sq := NewSquare(int(s[0]-'a'), int(s[1]-'1'))
	wantRank, pawnSq, from := 5, sq-8, sq+8
	if p.stm() == Black {
		wantRank, pawnSq, from = 2, sq+8, sq-8
	}
	if sq.Rank() != wantRank {
		return NoSquare, fenError(fen, 3, s, "expected a square on rank %d with %s to move", wantRank+1, p.stm())
	}
	if p.board[pawnSq] != MakePiece(p.stm()^1, Pawn) || p.board[sq] != NoPiece || p.board[from] != NoPiece {
		return NoSquare, fenError(fen, 3, s, "expected a %s pawn on %s that has just moved from %s over the empty %s", p.stm()^1, pawnSq, from, sq)
	}
	if pawnAttacks[p.stm()^1][sq]&p.Pieces(p.stm(), Pawn) == 0 {
		return NoSquare, nil
	}
	return sq, nil
}

// FEN returns the position in Forsyth-Edwards Notation. The en passant field
// is set only when a capture there is possible for some pawn (X-FEN style).
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.board[NewSquare(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if p.stm() == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(castleString(p.st.castle()))
	b.WriteByte(' ')
	b.WriteString(p.st.ep().String())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.st.halfmove())))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.FullmoveNumber()))
	return b.String()
}
