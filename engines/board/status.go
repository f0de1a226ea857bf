package board

import (
	"fmt"
	"strings"
)

// Status is the state of a game in a position.
type Status uint8

// Game states. Checkmate and Stalemate take precedence over the draw rules
// (a mate delivered on the 100th ply stands).
const (
	Ongoing Status = iota
	Checkmate
	Stalemate
	FiftyMoves
	Threefold
	InsufficientMaterial
)

var statusNames = [...]string{"ongoing", "checkmate", "stalemate", "fifty-move rule", "threefold repetition", "insufficient material"}

// String returns a lower-case description ("checkmate", "fifty-move rule").
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// IsDraw reports whether the status is a draw.
func (s Status) IsDraw() bool { return s >= Stalemate }

// Status returns Checkmate or Stalemate when the side to move has no legal
// move, else a draw by the fifty-move rule (100 plies without capture or pawn
// move), threefold repetition or insufficient material, else Ongoing.
func (p *Position) Status() Status {
	var ml MoveList
	p.GenerateLegal(&ml)
	switch {
	case ml.Len == 0 && p.InCheck():
		return Checkmate
	case ml.Len == 0:
		return Stalemate
	case p.st.halfmove() >= 100:
		return FiftyMoves
	case p.RepetitionCount() >= 2:
		return Threefold
	case p.IsInsufficientMaterial():
		return InsufficientMaterial
	}
	return Ongoing
}

// RepetitionCount returns how many earlier positions in the history equal
// this one (same pieces, side to move, castling and en passant rights). Only
// positions since the last capture, pawn move or null move can repeat it,
// and positions before the root FEN are unknown. 2 means threefold.
func (p *Position) RepetitionCount() int {
	limit := max(p.ply-int(p.st.halfmove()), 0)
	count := 0
	for i := p.ply - 1; i >= limit; i-- {
		if p.hist[i].move&undoMoveMask == NullMove {
			break
		}
		if (p.ply-i)&1 == 0 && p.hist[i].hash == p.hash {
			count++
		}
	}
	return count
}

// IsInsufficientMaterial reports a dead position by material: no pawns,
// rooks or queens, and either a single minor piece on the board or only
// bishops all on squares of one colour (KvK, KBvK, KNvK, KB vs KB with
// same-coloured bishops).
func (p *Position) IsInsufficientMaterial() bool {
	b := &p.pieceBB
	heavy := b[pawnIdx] | b[rookIdx] | b[queenIdx] | b[8|pawnIdx] | b[8|rookIdx] | b[8|queenIdx]
	if heavy != 0 {
		return false
	}
	knights := b[knightIdx] | b[8|knightIdx]
	bishops := b[bishopIdx] | b[8|bishopIdx]
	if (knights | bishops).Count() <= 1 {
		return true
	}
	const darkSquares Bitboard = 0xAA55AA55AA55AA55
	return knights == 0 && (bishops&darkSquares == 0 || bishops&^darkSquares == 0)
}

// ParseMove returns the legal move written in UCI notation ("e2e4",
// "e7e8q", castling as the king's move "e1g1").
func (p *Position) ParseMove(uci string) (Move, error) {
	if len(uci) < 4 || len(uci) > 5 || !validSquare(uci[0:2]) || !validSquare(uci[2:4]) {
		return NullMove, fmt.Errorf("move %q: expected UCI notation: from-square, to-square and an optional promotion piece (e.g. \"e2e4\", \"e7e8q\")", uci)
	}
	from := NewSquare(int(uci[0]-'a'), int(uci[1]-'1'))
	to := NewSquare(int(uci[2]-'a'), int(uci[3]-'1'))
	promo := NoPieceType
	if len(uci) == 5 {
		i := strings.IndexByte("nbrq", uci[4])
		if i < 0 {
			return NullMove, fmt.Errorf("move %q: promotion piece %q: expected one of n, b, r, q", uci, uci[4])
		}
		promo = Knight + PieceType(i)
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	needsPromotion := false
	for _, m := range ml.Slice() {
		if m.From() != from || m.To() != to {
			continue
		}
		if m.Promotion() == promo {
			return m, nil
		}
		needsPromotion = m.IsPromotion()
	}
	switch {
	case needsPromotion && promo == NoPieceType:
		return NullMove, fmt.Errorf("move %q: a promotion needs the piece to promote to (e.g. %sq) in %s", uci, uci, p.FEN())
	case promo != NoPieceType && !needsPromotion:
		return NullMove, fmt.Errorf("move %q: not a promotion, expected no promotion letter, in %s", uci, p.FEN())
	}
	return NullMove, fmt.Errorf("move %q: %s in %s", uci, p.illegalReason(from), p.FEN())
}

// illegalReason explains why no legal move starts on from.
func (p *Position) illegalReason(from Square) string {
	pc := p.board[from]
	switch {
	case pc == NoPiece:
		return fmt.Sprintf("no piece on %s", from)
	case pc.Color() != p.stm():
		return fmt.Sprintf("the piece on %s is %s's, %s is to move", from, pc.Color(), p.stm())
	case p.InCheck():
		return "not a legal move (the side to move is in check)"
	}
	return "not a legal move"
}

func validSquare(s string) bool {
	return s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
}

// FromGame returns the position after playing moves (UCI notation) from fen,
// with the history needed for repetition detection.
func FromGame(fen string, moves []string) (*Position, error) {
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	for i, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return nil, fmt.Errorf("moves[%d] %q: %w", i, s, err)
		}
		p.MakeMove(m)
	}
	return p, nil
}
