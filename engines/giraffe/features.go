package giraffe

import "arena/engines/board"

// Feature layout: 363 inputs in three groups, each contiguous so that the
// net's first layer can keep them apart (see the package documentation for
// the choices the seed leaves open).
const (
	// GlobalFeatures: material counts (10), side to move (1), each king's
	// coordinates (2+2) and the four castling rights.
	GlobalFeatures = 19
	// PieceFeatures: 32 piece slots (8 pawns, 1 queen, 2 rooks, 2 bishops,
	// 2 knights a side; kings are global) with presence, coordinates,
	// sliding mobility per direction, safe moves and the control of the
	// piece's square by each side, plus the castling rights again next to
	// the rooks.
	PieceFeatures = 216
	// SquareFeatures: for every square, the control by White and by Black
	// (the lowest-valued attacker of each side).
	SquareFeatures = 128
	// NumFeatures is the length of a feature vector.
	NumFeatures = GlobalFeatures + PieceFeatures + SquareFeatures
)

// Groups are the sizes of the feature groups, in vector order.
var Groups = []int{GlobalFeatures, PieceFeatures, SquareFeatures}

// seeValue is each piece type's value for the control features and the
// safe-move test (board.PieceType order: P N B R Q K).
var seeValue = [6]int{1, 3, 3, 5, 9, 20}

// control is the control value of a square whose lowest-valued attacker of
// one side is of type pt: (1.5 K - v) / 2 K, higher for a cheaper piece
// (pawn 0.725, knight and bishop 0.675, rook 0.625, queen 0.525, king
// 0.25); 0 when the side does not attack the square.
var control [7]float32

func init() {
	k := float32(seeValue[board.King])
	for pt := board.Pawn; pt <= board.King; pt++ {
		control[pt] = (1.5*k - float32(seeValue[pt])) / (2 * k)
	}
}

// attackMaps holds, for each side and square, the lowest-valued attacking
// piece type (board.NoPieceType when none) and the number of attackers.
type attackMaps struct {
	lva   [2][64]board.PieceType
	count [2][64]uint8
}

// compute fills the maps for p: pieces are visited from the most to the
// least valuable, so the last writer of a square is its cheapest attacker.
func (a *attackMaps) compute(p *board.Position) {
	occ := p.Occupancy(board.White) | p.Occupancy(board.Black)
	for c := board.White; c <= board.Black; c++ {
		for i := range a.lva[c] {
			a.lva[c][i] = board.NoPieceType
			a.count[c][i] = 0
		}
		for pt := board.King; ; pt-- {
			pieces := p.Pieces(c, pt)
			for pieces != 0 {
				att := board.Attacks(pt, c, pieces.PopLSB(), occ)
				for att != 0 {
					sq := att.PopLSB()
					a.lva[c][sq] = pt
					a.count[c][sq]++
				}
			}
			if pt == board.Pawn {
				break
			}
		}
	}
}

// ctrl is the control value of sq for side c.
func (a *attackMaps) ctrl(c board.Color, sq board.Square) float32 {
	return control[a.lva[c][sq]]
}

// safe reports whether a piece of type pt and colour c could stand on sq
// without being won at once, by a one-step exchange test: safe when the
// opponent does not attack sq, unsafe when it attacks with a cheaper piece,
// else safe only if another piece of c also covers sq (the moving piece
// counts itself among c's attackers).
func (a *attackMaps) safe(c board.Color, pt board.PieceType, sq board.Square) bool {
	opp := a.lva[c^1][sq]
	switch {
	case opp == board.NoPieceType:
		return true
	case seeValue[opp] < seeValue[pt]:
		return false
	}
	return a.lva[c][sq] != board.NoPieceType && a.count[c][sq] > 1
}

// directions are the sliding rays: the rook's (E, W, N, S), then the
// bishop's (NE, NW, SE, SW), as file and rank steps.
var directions = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// Extractor computes feature vectors. It keeps scratch space, so one
// Extractor serves one goroutine.
type Extractor struct {
	maps attackMaps
	out  []float32
	pos  *board.Position
	occ  board.Bitboard
}

// Features writes the NumFeatures features of p into dst (len(dst) must be
// at least NumFeatures) and returns dst[:NumFeatures].
func (x *Extractor) Features(p *board.Position, dst []float32) []float32 {
	dst = dst[:NumFeatures]
	x.maps.compute(p)
	x.out, x.pos = dst[:0], p
	x.occ = p.Occupancy(board.White) | p.Occupancy(board.Black)
	x.global()
	for c := board.White; c <= board.Black; c++ {
		x.pawns(c)
	}
	for c := board.White; c <= board.Black; c++ {
		queens := p.Pieces(c, board.Queen)
		sq, ok := board.Square(0), queens != 0
		if ok {
			sq = queens.LSB()
		}
		x.slot(c, board.Queen, sq, ok)
	}
	for _, pt := range []board.PieceType{board.Rook, board.Bishop, board.Knight} {
		for c := board.White; c <= board.Black; c++ {
			x.pair(c, pt)
			if pt == board.Rook {
				x.castling(c)
			}
		}
	}
	for sq := board.Square(0); sq < 64; sq++ {
		x.push(x.maps.ctrl(board.White, sq), x.maps.ctrl(board.Black, sq))
	}
	return dst
}

func (x *Extractor) push(v ...float32) { x.out = append(x.out, v...) }

func b2f(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// global writes the global group.
func (x *Extractor) global() {
	p := x.pos
	for c := board.White; c <= board.Black; c++ {
		x.push(float32(p.Pieces(c, board.Queen).Count()), float32(p.Pieces(c, board.Rook).Count())/2,
			float32(p.Pieces(c, board.Bishop).Count())/2, float32(p.Pieces(c, board.Knight).Count())/2,
			float32(p.Pieces(c, board.Pawn).Count())/8)
	}
	x.push(b2f(p.SideToMove() == board.White))
	for c := board.White; c <= board.Black; c++ {
		k := p.Pieces(c, board.King).LSB()
		x.push(coord(k.File()), coord(k.Rank()))
		x.castling(c)
	}
}

func (x *Extractor) castling(c board.Color) {
	x.push(b2f(x.pos.HasCastlingRight(c, true)), b2f(x.pos.HasCastlingRight(c, false)))
}

func coord(v int) float32 { return float32(v) / 7 }

// pawns writes side c's eight pawn slots: a pawn goes to the slot of its
// file, or, when that is taken, to the nearest free slot (lower file first
// on a tie).
func (x *Extractor) pawns(c board.Color) {
	var slot [8]board.Square
	var used [8]bool
	pawns := x.pos.Pieces(c, board.Pawn)
	var later board.Bitboard
	for b := pawns; b != 0; {
		sq := b.PopLSB()
		if f := sq.File(); !used[f] {
			slot[f], used[f] = sq, true
		} else {
			later |= board.SquareBB(sq)
		}
	}
	for later != 0 {
		sq := later.PopLSB()
		best, dist := -1, 8
		for i := range used {
			if d := abs(sq.File() - i); !used[i] && d < dist {
				best, dist = i, d
			}
		}
		slot[best], used[best] = sq, true
	}
	for i := range slot {
		x.slot(c, board.Pawn, slot[i], used[i])
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// pair writes side c's two slots of piece type pt (rook, bishop, knight):
// a single piece takes the first slot on files a-d and the second on e-h;
// of two or more, the two on the lowest squares are taken, ordered by file
// (further pieces, from promotions, show only in the material counts).
func (x *Extractor) pair(c board.Color, pt board.PieceType) {
	pieces := x.pos.Pieces(c, pt)
	var a, b board.Square
	var hasA, hasB bool
	switch pieces.Count() {
	case 0:
	case 1:
		sq := pieces.LSB()
		if sq.File() < 4 {
			a, hasA = sq, true
		} else {
			b, hasB = sq, true
		}
	default:
		a = pieces.PopLSB()
		b = pieces.PopLSB()
		hasA, hasB = true, true
		if a.File() > b.File() {
			a, b = b, a
		}
	}
	x.slot(c, pt, a, hasA)
	x.slot(c, pt, b, hasB)
}

// slot writes one piece slot: presence, file and rank; for sliders the
// distance to the first piece or the edge along each of their directions;
// for pieces other than pawns the number of safe moves (to an empty or
// enemy-occupied square that passes attackMaps.safe); then
// White's and Black's control of the piece's square (its lowest-valued
// defender and attacker). An empty slot is all zeros.
func (x *Extractor) slot(c board.Color, pt board.PieceType, sq board.Square, exists bool) {
	x.push(b2f(exists))
	if exists {
		x.push(coord(sq.File()), coord(sq.Rank()))
	} else {
		x.push(0, 0)
	}
	dirs := directions[:0]
	switch pt {
	case board.Rook:
		dirs = directions[:4]
	case board.Bishop:
		dirs = directions[4:]
	case board.Queen:
		dirs = directions[:]
	}
	safe, own := 0, x.pos.Occupancy(c)
	for _, d := range dirs {
		n := 0
		for f, r := sq.File()+d[0], sq.Rank()+d[1]; exists && f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d[0], r+d[1] {
			n++
			to := board.NewSquare(f, r)
			if !own.Has(to) && x.maps.safe(c, pt, to) {
				safe++
			}
			if x.occ.Has(to) {
				break
			}
		}
		x.push(float32(n) / 7)
	}
	if pt == board.Knight && exists {
		att := board.Attacks(board.Knight, c, sq, x.occ) &^ own
		for att != 0 {
			if x.maps.safe(c, pt, att.PopLSB()) {
				safe++
			}
		}
	}
	if pt != board.Pawn {
		x.push(float32(safe) / 16)
	}
	if exists {
		x.push(x.maps.ctrl(board.White, sq), x.maps.ctrl(board.Black, sq))
	} else {
		x.push(0, 0)
	}
}
