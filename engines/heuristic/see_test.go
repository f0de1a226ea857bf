package heuristic

import (
	"testing"

	"arena/engines/board"
)

// seeOf returns the exact static exchange value of move uci in fen: the
// largest threshold seeGE meets.
func seeOf(t *testing.T, fen, uci string) int32 {
	t.Helper()
	pos, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	s := &searcher{pos: pos}
	lo, hi := int32(-3000), int32(3000) // seeGE(lo) holds, seeGE(hi) does not
	if !s.seeGE(m, lo) || s.seeGE(m, hi) {
		t.Fatalf("%s %s: value outside [%d, %d)", fen, uci, lo, hi)
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if s.seeGE(m, mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func TestSEE(t *testing.T) {
	p, n, r, q := seeValue[board.Pawn], seeValue[board.Knight], seeValue[board.Rook], seeValue[board.Queen]
	for _, tc := range []struct {
		name, fen, move string
		want            int32
	}{
		{"undefended pawn", "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", p},
		{"queen takes a defended pawn", "4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5", p - q},
		{"pawn takes a defended knight", "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", n - p},
		{"x-ray: the second rook recaptures", "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", p},
		{"no x-ray without the second rook", "4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", p - r},
		{"x-ray through the pawn: bishop behind it", "4k3/8/8/3p4/4P3/5B2/8/4K3 w - - 0 1", "e4d5", p},
		{"quiet move onto a pawn-attacked square", "4k3/8/3p4/8/8/5N2/8/4K3 w - - 0 1", "f3e5", -n},
		{"quiet move to a safe square", "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", "f3e5", 0},
		{"the king may not recapture a defended piece", "4k3/8/8/8/b2q4/8/8/3RK3 b - - 0 1", "d4d1", r},
		{"the king recaptures an undefended piece", "4k3/8/8/8/3q4/8/8/3RK3 b - - 0 1", "d4d1", r - q},
		{"en passant wins a pawn", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "d5e6", p},
		{"castling risks nothing", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},
	} {
		if got := seeOf(t, tc.fen, tc.move); got != tc.want {
			t.Errorf("%s: SEE of %s in %s = %d, want %d", tc.name, tc.move, tc.fen, got, tc.want)
		}
	}
}
