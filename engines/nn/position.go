package nn

import "arena/engines/board"

// SetPosition encodes a board position (only its pieces, as the thesis does).
func (in *Input) SetPosition(p *board.Position) {
	*in = Input{}
	for c := board.White; c <= board.Black; c++ {
		for pt := board.Pawn; pt <= board.King; pt++ {
			bb := p.Pieces(c, pt)
			for bb != 0 {
				sq := bb.PopLSB()
				in[PlaneIndex(int(c), int(pt), int(sq))] = 1
			}
		}
	}
}
