package nn

import (
	"fmt"
	"strings"
)

// Placement is a board's pieces by square, a1 = 0, b1 = 1, ..., h8 = 63:
// 0 is empty, 1..6 a white pawn, knight, bishop, rook, queen, king, and
// -1..-6 the black ones.
type Placement [64]int8

// PlaneIndex is the index in an Input of a piece of colour (0 white, 1
// black) and type (0 pawn .. 5 king) on square (a1 = 0 .. h8 = 63): plane
// colour*6 + type, row 7 - rank, column file.
func PlaneIndex(colour, pieceType, square int) int {
	return (colour*6+pieceType)*64 + (square ^ 56) // square^56 = (7-rank)*8 + file
}

// SetPlacement encodes p as board_to_tensor_optimized does: 1 where a piece
// stands, 0 elsewhere.
func (in *Input) SetPlacement(p *Placement) {
	*in = Input{}
	for sq, v := range p {
		switch {
		case v > 0 && v <= 6:
			in[PlaneIndex(0, int(v)-1, sq)] = 1
		case v < 0 && v >= -6:
			in[PlaneIndex(1, int(-v)-1, sq)] = 1
		}
	}
}

// ParsePlacement reads the piece placement (the first field) of a FEN or
// EPD. It checks only the placement's syntax; board.ParseFEN validates a
// whole position.
func ParsePlacement(fen string) (Placement, error) {
	var p Placement
	field, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	ranks := strings.Split(field, "/")
	if len(ranks) != 8 {
		return p, fmt.Errorf("fen %q: piece placement has %d ranks, expected 8 separated by '/'", fen, len(ranks))
	}
	for i, text := range ranks {
		rank, file := 7-i, 0
		for _, c := range text {
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			kind := strings.IndexRune("PNBRQK", c)
			colour := int8(1)
			if kind < 0 {
				kind, colour = strings.IndexRune("pnbrqk", c), -1
			}
			if kind < 0 {
				return p, fmt.Errorf("fen %q: rank %d: %q is not a piece letter (PNBRQK, pnbrqk) or 1-8", fen, rank+1, c)
			}
			if file >= 8 {
				return p, fmt.Errorf("fen %q: rank %d (%q) covers more than 8 squares", fen, rank+1, text)
			}
			p[rank*8+file] = colour * int8(kind+1)
			file++
		}
		if file != 8 {
			return p, fmt.Errorf("fen %q: rank %d (%q) covers %d squares, expected 8", fen, rank+1, text, file)
		}
	}
	return p, nil
}
