package deepchess

import (
	"strings"

	"arena/engines/board"
)

// Inputs is the width of DeepChess's position input: 12 x 64 piece
// squares, the side to move and the four castling rights.
const Inputs = 12*64 + 1 + 4

// Input offsets: planes 0-5 are White's pawn, knight, bishop, rook, queen
// and king, 6-11 Black's, each 64 squares a1 = 0 ... h8 = 63.
const (
	inputSide   = 12 * 64 // 1 when White is to move
	inputCastle = inputSide + 1
)

// castleLetters are the castling rights in input order.
const castleLetters = "KQkq"

// Active appends to dst the indices of the inputs that are 1 in p, in
// ascending order, and returns it: the 773 bits are so sparse (at most 37
// set) that the net reads them as a list.
func Active(p *board.Position, dst []int32) []int32 {
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.King; pt++ {
			base := int32(int(c)*6+int(pt)) * 64
			for bb := p.Pieces(c, pt); bb != 0; {
				dst = append(dst, base+int32(bb.PopLSB()))
			}
		}
	}
	if p.SideToMove() == board.White {
		dst = append(dst, inputSide)
	}
	rights := p.CastlingRights()
	for i := range len(castleLetters) {
		if strings.IndexByte(rights, castleLetters[i]) >= 0 {
			dst = append(dst, int32(inputCastle+i))
		}
	}
	return dst
}

// Encode writes the 773 inputs of p into dst (len Inputs) as 0/1 floats.
func Encode(p *board.Position, dst []float32) {
	clear(dst[:Inputs])
	var buf [40]int32
	for _, i := range Active(p, buf[:0]) {
		dst[i] = 1
	}
}
