package heuristic

import "arena/engines/board"

// termsEval is option eval_terms: PeSTO (material and piece-square tables)
// plus the positional terms that PeSTO leaves out and hand-crafted
// evaluations of engines of this strength have: mobility, the bishop pair,
// pawn structure (passed, doubled, isolated), rooks on open files and king
// safety. The weights are the customary textbook ones (mobility as in
// Fruit, by squares not attacked by enemy pawns, counted from a piece's
// typical number), not tuned on this engine; PeSTO's tables were tuned
// without these terms, so the passed-pawn bonus is kept small (the pawn
// tables already pay for advanced pawns). What the set buys is measured in
// games (docs/ablation.md).
type termsEval struct {
	*evalTables
	w *Weights
}

// Weights of the evaluation terms in centipawns, middlegame and endgame.
var (
	// mobilityWeight[pt] per safe square over mobilityCenter[pt].
	mobilityWeight = [6][2]int32{board.Knight: {4, 4}, board.Bishop: {5, 5}, board.Rook: {2, 4}, board.Queen: {1, 2}}
	mobilityCenter = [6]int32{board.Knight: 4, board.Bishop: 6, board.Rook: 7, board.Queen: 13}
	bishopPair     = [2]int32{30, 50}
	doubledPawn    = [2]int32{-10, -20} // for each pawn behind another of its side on its file
	isolatedPawn   = [2]int32{-10, -15}
	// passedPawn by the pawn's rank counted from its own side.
	passedPawn   = [8][2]int32{{0, 0}, {0, 5}, {5, 10}, {10, 20}, {20, 35}, {35, 60}, {55, 90}, {0, 0}}
	rookOpen     = [2]int32{25, 10} // no pawn on the rook's file
	rookSemiOpen = [2]int32{12, 6}  // no pawn of its own side there
	// kingAttackWeight[pt] per square of the enemy king's zone a piece
	// attacks; the middlegame penalty is the square of the sum over 4, from
	// two attacking pieces on, capped at kingDangerMax.
	kingAttackWeight = [6]int32{board.Knight: 2, board.Bishop: 2, board.Rook: 3, board.Queen: 5}
	kingDangerMax    = int32(500)
)

// Masks of files and of the squares in front of a pawn.
var (
	fileMask     [8]board.Bitboard
	adjacentMask [8]board.Bitboard // the files beside a file
	// frontSpan[c][sq]: the squares in front of sq, seen from side c, on
	// its file and the files beside it (where an enemy pawn stops a passer).
	frontSpan [2][64]board.Bitboard
)

func init() {
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			fileMask[f] |= board.SquareBB(board.Square(r*8 + f))
		}
	}
	for f := 0; f < 8; f++ {
		if f > 0 {
			adjacentMask[f] |= fileMask[f-1]
		}
		if f < 7 {
			adjacentMask[f] |= fileMask[f+1]
		}
	}
	for sq := board.Square(0); sq < 64; sq++ {
		files := fileMask[sq.File()] | adjacentMask[sq.File()]
		for r := 0; r < 8; r++ {
			row := board.Bitboard(0xff) << (8 * r)
			if r > sq.Rank() {
				frontSpan[board.White][sq] |= files & row
			}
			if r < sq.Rank() {
				frontSpan[board.Black][sq] |= files & row
			}
		}
	}
}

// Evaluate is PeSTO's tapered evaluation with the terms added to both
// phases, from the side to move's point of view.
func (e termsEval) Evaluate(p *board.Position) int32 {
	mg, eg, phase := e.sums(p)
	w, b := sideTerms(p, board.White, e.w, nil), sideTerms(p, board.Black, e.w, nil)
	return taper(p, mg+w.mg-b.mg, eg+w.eg-b.eg, phase)
}

// terms is a side's sum of terms in the middlegame and the endgame; with a
// tracer it also records which weights it added (Trace).
type terms struct {
	mg, eg int32
	tr     *tracer
}

func (t *terms) add(w *[2]int32, n int32) {
	t.mg += w[0] * n
	t.eg += w[1] * n
	if t.tr != nil {
		t.tr.add(&w[0], &w[1], n)
	}
}

// sideTerms returns side c's terms with weights w.
func sideTerms(p *board.Position, c board.Color, w *Weights, tr *tracer) (t terms) {
	t.tr = tr
	them := c.Other()
	own := p.Occupancy(c)
	occ := own | p.Occupancy(them)
	pawns, theirPawns := p.Pieces(c, board.Pawn), p.Pieces(them, board.Pawn)

	pawnGuarded := pawnAttacks(them, theirPawns)
	theirKing := p.Pieces(them, board.King).LSB()
	zone := board.Attacks(board.King, them, theirKing, 0) | board.SquareBB(theirKing)
	var attackers, weight int32
	for pt := board.Knight; pt <= board.Queen; pt++ {
		for b := p.Pieces(c, pt); b != 0; {
			sq := b.PopLSB()
			att := board.Attacks(pt, c, sq, occ)
			t.add(&w.Mobility[pt], int32((att&^own&^pawnGuarded).Count())-mobilityCenter[pt])
			if hits := int32((att & zone).Count()); hits > 0 {
				attackers++
				weight += kingAttackWeight[pt] * hits
			}
			if pt == board.Rook {
				switch file := fileMask[sq.File()]; {
				case file&(pawns|theirPawns) == 0:
					t.add(&w.RookOpen, 1)
				case file&pawns == 0:
					t.add(&w.RookSemiOpen, 1)
				}
			}
		}
	}
	if attackers >= 2 {
		t.mg += min(weight*weight/4, kingDangerMax)
	}
	if p.Pieces(c, board.Bishop).Count() >= 2 {
		t.add(&w.BishopPair, 1)
	}
	for b := pawns; b != 0; {
		sq := b.PopLSB()
		f := sq.File()
		if pawns&adjacentMask[f] == 0 {
			t.add(&w.IsolatedPawn, 1)
		}
		switch {
		case frontSpan[c][sq]&fileMask[f]&pawns != 0:
			t.add(&w.DoubledPawn, 1) // and not passed: its own pawn stops it
		case frontSpan[c][sq]&theirPawns == 0:
			rank := sq.Rank()
			if c == board.Black {
				rank = 7 - rank
			}
			t.add(&w.PassedPawn[rank], 1)
		}
	}
	return t
}

// pawnAttacks returns the squares c's pawns attack, all at once by shifts
// (a pawn on the a-file does not capture towards the h-file, nor one on the
// h-file towards the a-file).
func pawnAttacks(c board.Color, pawns board.Bitboard) board.Bitboard {
	west, east := pawns&^fileMask[0], pawns&^fileMask[7]
	if c == board.White {
		return west<<7 | east<<9
	}
	return west>>9 | east>>7
}
