package giraffe

import (
	"math"
	"testing"

	"arena/engines/board"
)

// Offsets of the slots in the feature vector, worked out by hand from the
// layout the package documentation gives.
const (
	offWhitePawns = GlobalFeatures      // 8 slots of 5
	offBlackPawns = offWhitePawns + 8*5 // 8 slots of 5
	offWhiteQueen = offBlackPawns + 8*5 // 14
	offBlackQueen = offWhiteQueen + 14  // 14
	offWhiteRooks = offBlackQueen + 14  // 2 slots of 10, then 2 castling rights
	offBlackRooks = offWhiteRooks + 22  // the same
	offWhiteBish  = offBlackRooks + 22  // 2 slots of 10
	offBlackBish  = offWhiteBish + 20   //
	offWhiteKnts  = offBlackBish + 20   // 2 slots of 6
	offBlackKnts  = offWhiteKnts + 12   //
	offSquares    = offBlackKnts + 12   // 64 x (white, black)
	ctrlPawn      = float32(0.725)      // (30 - 1) / 40
	ctrlMinor     = float32(0.675)      // (30 - 3) / 40
	ctrlRook      = float32(0.625)      // (30 - 5) / 40
	ctrlKing      = float32(0.25)       // (30 - 20) / 40
	seventh       = float32(1.0 / 7)    // one step of a coordinate
	sixteenth     = float32(1.0 / 16)   // one safe move
	eighth        = float32(1.0 / 8)    // one pawn
	half          = float32(0.5)        // one of two rooks, bishops, knights
	sq            = offSquares          // square group start, for readability
	d2, e2, f3    = 11, 12, 21          // square indices (a1 = 0)
	d5            = 35                  //
)

func features(t *testing.T, fen string) []float32 {
	t.Helper()
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	var x Extractor
	buf := make([]float32, NumFeatures+5)
	for i := range buf {
		buf[i] = -7 // every feature must be written
	}
	f := x.Features(p, buf)
	if len(f) != NumFeatures || len(x.out) != NumFeatures {
		t.Fatalf("%s: %d features written, %d returned, expected %d", fen, len(x.out), len(f), NumFeatures)
	}
	for i, v := range f {
		// Material counts pass 1 only after promotions.
		if v < 0 || v > 1 && i >= 10 {
			t.Errorf("%s: feature %d = %v, expected a value in [0, 1]", fen, i, v)
		}
	}
	for i := NumFeatures; i < len(buf); i++ {
		if buf[i] != -7 {
			t.Fatalf("%s: wrote past the vector at %d", fen, i)
		}
	}
	return f
}

func expect(t *testing.T, name string, f []float32, want map[int]float32) {
	t.Helper()
	for i, w := range want {
		if math.Abs(float64(f[i]-w)) > 1e-6 {
			t.Errorf("%s: feature %d = %v, expected %v", name, i, f[i], w)
		}
	}
}

func TestFeatureCount(t *testing.T) {
	if NumFeatures != 363 || GlobalFeatures+PieceFeatures+SquareFeatures != 363 {
		t.Fatalf("%d features (%d+%d+%d), the seed has 363", NumFeatures, GlobalFeatures, PieceFeatures, SquareFeatures)
	}
}

func TestFeaturesStartPosition(t *testing.T) {
	f := features(t, board.StartFEN)
	expect(t, "start", f, map[int]float32{
		// material: Q R B N P for White then Black, side to move, kings, castling
		0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 9: 1, 10: 1,
		11: 4 * seventh, 12: 0, 13: 1, 14: 1, 15: 4 * seventh, 16: 1, 17: 1, 18: 1,
		// a2 pawn: present, file a, rank 2, defended by the a1 rook, not attacked
		offWhitePawns: 1, offWhitePawns + 1: 0, offWhitePawns + 2: seventh,
		offWhitePawns + 3: ctrlRook, offWhitePawns + 4: 0,
		// h7 pawn (Black's eighth slot): defended by the h8 rook
		offBlackPawns + 35: 1, offBlackPawns + 36: 1, offBlackPawns + 37: 6 * seventh,
		offBlackPawns + 38: 0, offBlackPawns + 39: ctrlRook,
		// d1 queen: rays E W N S NE NW SE SW stop on the neighbours; no
		// move at all; defended by the king only
		offWhiteQueen: 1, offWhiteQueen + 1: 3 * seventh, offWhiteQueen + 2: 0,
		offWhiteQueen + 3: seventh, offWhiteQueen + 4: seventh, offWhiteQueen + 5: seventh, offWhiteQueen + 6: 0,
		offWhiteQueen + 7: seventh, offWhiteQueen + 8: seventh, offWhiteQueen + 9: 0, offWhiteQueen + 10: 0,
		offWhiteQueen + 11: 0, offWhiteQueen + 12: ctrlKing, offWhiteQueen + 13: 0,
		offBlackQueen + 1: 3 * seventh, offBlackQueen + 2: 1, offBlackQueen + 13: ctrlKing,
		// castling rights beside the rooks
		offWhiteRooks + 20: 1, offWhiteRooks + 21: 1, offBlackRooks + 20: 1,
		// b1 knight: a3 and c3 are safe moves; defended by the a1 rook
		offWhiteKnts: 1, offWhiteKnts + 1: seventh, offWhiteKnts + 3: 2 * sixteenth, offWhiteKnts + 4: ctrlRook,
		offWhiteKnts + 6: 1, offWhiteKnts + 7: 6 * seventh, offWhiteKnts + 9: 2 * sixteenth,
		// squares: d2 and e2 are covered by a knight at best, f3 by pawns
		sq + 2*d2: ctrlMinor, sq + 2*d2 + 1: 0, sq + 2*e2: ctrlMinor, sq + 2*f3: ctrlPawn, sq + 2*f3 + 1: 0,
		sq + 2*(f3+24) + 1: ctrlPawn, // f6 for Black
	})
}

func TestFeaturesHandPosition(t *testing.T) {
	// White: Ke1, Rd4, pawns a2 b2 a3; Black: Ke8, pawn e6; Black to move.
	f := features(t, "4k3/8/4p3/8/3R4/P7/PP6/4K3 b - - 0 1")
	expect(t, "hand", f, map[int]float32{
		0: 0, 1: half, 2: 0, 3: 0, 4: 3 * eighth, 5: 0, 6: 0, 9: eighth,
		10: 0, 13: 0, 14: 0, 17: 0, 18: 0,
		// pawns: a2 to slot a, b2 to slot b, a3 to the nearest free slot, c;
		// a3 is defended by the b2 pawn
		offWhitePawns: 1, offWhitePawns + 2: seventh,
		offWhitePawns + 5: 1, offWhitePawns + 6: seventh, offWhitePawns + 7: seventh,
		offWhitePawns + 10: 1, offWhitePawns + 11: 0, offWhitePawns + 12: 2 * seventh, offWhitePawns + 13: ctrlPawn,
		offWhitePawns + 15: 0, offWhitePawns + 16: 0, offWhitePawns + 17: 0,
		// Black's e6 pawn sits in the e slot (index 4)
		offBlackPawns + 20: 1, offBlackPawns + 21: 4 * seventh, offBlackPawns + 22: 5 * seventh, offBlackPawns: 0,
		// a single rook on the d file takes the first slot: rays E 4, W 3,
		// N 4, S 3; of its 14 moves d5 (pawn), d7 and d8 (king, the rook
		// alone covers them) are unsafe
		offWhiteRooks: 1, offWhiteRooks + 1: 3 * seventh, offWhiteRooks + 2: 3 * seventh,
		offWhiteRooks + 3: 4 * seventh, offWhiteRooks + 4: 3 * seventh, offWhiteRooks + 5: 4 * seventh, offWhiteRooks + 6: 3 * seventh,
		offWhiteRooks + 7: 11 * sixteenth, offWhiteRooks + 8: 0, offWhiteRooks + 9: 0,
		offWhiteRooks + 10: 0, offWhiteRooks + 13: 0, offWhiteRooks + 17: 0,
		offWhiteQueen: 0, offWhiteQueen + 3: 0,
		// d5: White's rook against Black's pawn
		sq + 2*d5: ctrlRook, sq + 2*d5 + 1: ctrlPawn,
	})
}

func TestFeaturesPairSlots(t *testing.T) {
	// A lone white knight on the g file takes the second slot; two black
	// bishops are ordered by file (h6 on the lower square, c8 on the lower
	// file); a promoted third white rook shows only in the material count.
	f := features(t, "2b1k3/8/7b/8/8/8/8/RR2K1NR w - - 0 1")
	expect(t, "pairs", f, map[int]float32{
		1: 1.5, 7: 1,
		offWhiteKnts: 0, offWhiteKnts + 6: 1, offWhiteKnts + 7: 6 * seventh,
		offBlackBish: 1, offBlackBish + 1: 2 * seventh, offBlackBish + 2: 1,
		offBlackBish + 10: 1, offBlackBish + 11: 1, offBlackBish + 12: 5 * seventh,
		offWhiteRooks + 1: 0, offWhiteRooks + 11: seventh,
	})
}

func TestLowestAttacker(t *testing.T) {
	// e5 is attacked by White's queen (e2), knight (f3) and pawn (d4): the
	// pawn is the cheapest; Black covers it with a rook (e8) and a bishop (c7).
	p, err := board.ParseFEN("4r1k1/2b5/8/8/3P4/5N2/4Q3/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var m attackMaps
	m.compute(p)
	e5 := board.NewSquare(4, 4)
	if m.lva[board.White][e5] != board.Pawn || m.count[board.White][e5] != 3 {
		t.Errorf("White on e5: %v x%d, expected pawn x3", m.lva[board.White][e5], m.count[board.White][e5])
	}
	if m.lva[board.Black][e5] != board.Bishop || m.count[board.Black][e5] != 2 {
		t.Errorf("Black on e5: %v x%d, expected bishop x2", m.lva[board.Black][e5], m.count[board.Black][e5])
	}
	if h1 := board.NewSquare(7, 0); m.lva[board.White][h1] != board.NoPieceType {
		t.Errorf("White on h1: %v, expected no attacker", m.lva[board.White][h1])
	}
}

func BenchmarkFeatures(b *testing.B) {
	p, _ := board.ParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8")
	var x Extractor
	buf := make([]float32, NumFeatures)
	for b.Loop() {
		x.Features(p, buf)
	}
}
