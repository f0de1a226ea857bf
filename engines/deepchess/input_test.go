package deepchess

import (
	"slices"
	"testing"

	"arena/engines/board"
)

func TestActiveStartPosition(t *testing.T) {
	p := board.NewPosition()
	got := Active(p, nil)
	if len(got) != 32+1+4 {
		t.Fatalf("start position: %d active inputs, want 37 (32 pieces, White to move, 4 castling rights)", len(got))
	}
	want := []int32{
		0*64 + 8, 0*64 + 15, // white pawns a2, h2
		1*64 + 1, 1*64 + 6, // white knights b1, g1
		5*64 + 4,             // white king e1
		6*64 + 48, 6*64 + 55, // black pawns a7, h7
		9*64 + 56, 9*64 + 63, // black rooks a8, h8
		11*64 + 60,              // black king e8
		768, 769, 770, 771, 772, // White to move, KQkq
	}
	for _, i := range want {
		if !slices.Contains(got, i) {
			t.Errorf("start position: input %d not set; active %v", i, got)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("active inputs not ascending: %v", got)
	}
}

func TestActiveSideAndCastling(t *testing.T) {
	// Black to move, White may castle short and Black long only.
	p, err := board.ParseFEN("r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	got := Active(p, nil)
	want := []int32{3*64 + 7, 5*64 + 4, 9*64 + 56, 11*64 + 60, 769, 772}
	if !slices.Equal(got, want) {
		t.Fatalf("active inputs %v, want %v (Rh1, Ke1, ra8, ke8, K, q; no side-to-move bit for Black)", got, want)
	}
	x := make([]float32, Inputs)
	Encode(p, x)
	n := 0
	for i, v := range x {
		if v != 0 && v != 1 {
			t.Fatalf("input %d = %v, want 0 or 1", i, v)
		}
		n += int(v)
	}
	if n != len(want) || x[768] != 0 || x[772] != 1 {
		t.Errorf("Encode: %d ones, side bit %v, q bit %v; want %d, 0, 1", n, x[768], x[772], len(want))
	}
}

func TestActiveFollowsMoves(t *testing.T) {
	p := board.NewPosition()
	for _, uci := range []string{"e2e4", "e7e5", "e1e2"} {
		m, err := p.ParseMove(uci)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
	}
	got := Active(p, nil)
	// After Ke2 White has lost both rights and Black is to move.
	for _, i := range []int32{768, 769, 770} {
		if slices.Contains(got, i) {
			t.Errorf("input %d set after 1.e4 e5 2.Ke2; active %v", i, got)
		}
	}
	for _, i := range []int32{0*64 + 28, 6*64 + 36, 5*64 + 12, 771, 772} {
		if !slices.Contains(got, i) {
			t.Errorf("input %d not set after 1.e4 e5 2.Ke2; active %v", i, got)
		}
	}
}
