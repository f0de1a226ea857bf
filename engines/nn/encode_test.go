package nn

import (
	"strings"
	"testing"

	"arena/engines/board"
)

func TestPlaneIndex(t *testing.T) {
	for _, c := range []struct {
		colour, piece, square, want int
	}{
		{0, 0, 12, 0*64 + 6*8 + 4},  // white pawn e2: plane 0, row 7-1, column 4
		{1, 5, 60, 11*64 + 0*8 + 4}, // black king e8: plane 11, row 0
		{0, 3, 0, 3*64 + 7*8 + 0},   // white rook a1: plane 3, row 7, column 0
		{1, 4, 59, 10*64 + 3},       // black queen d8
	} {
		if got := PlaneIndex(c.colour, c.piece, c.square); got != c.want {
			t.Errorf("PlaneIndex(%d, %d, %d) = %d, want %d", c.colour, c.piece, c.square, got, c.want)
		}
	}
}

func TestEncodeStartPosition(t *testing.T) {
	var in Input
	in.SetPosition(board.NewPosition())
	// Row 6 of plane 0 (white pawns) and row 1 of plane 6 (black pawns) are
	// full; the white king (plane 5) is at row 7, column 4.
	for col := range 8 {
		if in[0*64+6*8+col] != 1 || in[6*64+1*8+col] != 1 {
			t.Fatalf("pawn rows not set at column %d", col)
		}
	}
	if in[5*64+7*8+4] != 1 || in[11*64+0*8+4] != 1 {
		t.Error("kings not on e1 (plane 5 row 7 col 4) and e8 (plane 11 row 0 col 4)")
	}
	var sum float32
	for _, v := range in {
		sum += v
	}
	if sum != 32 {
		t.Errorf("%v ones, want 32", sum)
	}
	// SetPosition clears what was there before.
	p, err := board.ParseFEN("8/8/4k3/8/8/4K3/8/8 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	in.SetPosition(p)
	sum = 0
	for _, v := range in {
		sum += v
	}
	if sum != 2 {
		t.Errorf("after re-encoding two kings: %v ones", sum)
	}
}

func TestParsePlacementErrors(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"8/8/8/8/8/8/8 w - - 0 1", "has 7 ranks"},
		{"8/8/8/8/8/8/8/7 w - - 0 1", "rank 1 (\"7\") covers 7 squares"},
		{"8P/8/8/8/8/8/8/8 w - - 0 1", "rank 8 (\"8P\") covers more than 8 squares"},
		{"8/8/8/8/8/8/8/44x w - - 0 1", `'x' is not a piece letter`},
		{"8/8/8/8/8/8/8/9", `'9' is not a piece letter`},
	} {
		_, err := ParsePlacement(c.fen)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParsePlacement(%q): error %v, expected one containing %q", c.fen, err, c.want)
		}
	}
	p, err := ParsePlacement("4k3/8/8/8/8/8/8/R3K2r")
	if err != nil {
		t.Fatal(err)
	}
	if p[0] != 4 || p[4] != 6 || p[7] != -4 || p[60] != -6 {
		t.Errorf("placement a1 %d e1 %d h1 %d e8 %d, want 4 6 -4 -6", p[0], p[4], p[7], p[60])
	}
}
