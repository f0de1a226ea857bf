package board

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	fens := []string{
		StartFEN,
		kiwipete,
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 0 3",
		"4k3/8/8/8/8/8/8/4K3 b - - 99 250",
	}
	for _, fen := range fens {
		p := mustFEN(t, fen)
		if got := p.FEN(); got != fen {
			t.Errorf("ParseFEN(%q).FEN() = %q", fen, got)
		}
		if got := p.Clone().FEN(); got != fen {
			t.Errorf("Clone of %q: FEN %q", fen, got)
		}
	}
}

func TestFENNormalisation(t *testing.T) {
	cases := []struct{ in, out string }{
		// Clocks may be omitted, as in EPD.
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", StartFEN},
		// An en passant square no pawn can capture on is dropped (X-FEN), so it
		// does not split repetitions.
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
			"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
		// Castling letters in any order; extra spaces.
		{"r3k2r/8/8/8/8/8/8/R3K2R  w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
	}
	for _, c := range cases {
		if got := mustFEN(t, c.in).FEN(); got != c.out {
			t.Errorf("ParseFEN(%q).FEN() = %q, expected %q", c.in, got, c.out)
		}
	}
	a := mustFEN(t, cases[1].in)
	b := mustFEN(t, cases[1].out)
	if a.Hash() != b.Hash() {
		t.Errorf("an uncapturable en passant square changes the hash")
	}
}

func TestFENErrors(t *testing.T) {
	const placement = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
	cases := []struct {
		fen  string
		want []string // substrings of the error
	}{
		{"", []string{"has 0 fields, expected 6"}},
		{placement + " w KQkq - 0", []string{"has 5 fields"}},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", []string{"field 1 (piece placement)", "has 7 ranks, expected 8"}},
		{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []string{"field 1 (piece placement)", "rank 7 has 'x'"}},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []string{"field 1 (piece placement)", `rank 6 has '9', expected a piece letter`}},
		{"rnbqkbnr/pppppppp/8p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []string{"field 1 (piece placement)", `rank 6 "8p" covers more than 8 files`}},
		{"rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", []string{"field 1 (piece placement)", `rank 6 "7" covers 7 files, expected 8`}},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1", []string{"field 1 (piece placement)", "white has 2 kings, expected exactly 1"}},
		{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", []string{"field 1 (piece placement)", "black has 0 kings"}},
		{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", []string{"field 1 (piece placement)", "pawn on rank 8"}},
		{placement + " x KQkq - 0 1", []string{`field 2 (side to move) "x": expected "w" or "b"`}},
		{placement + " w KQx - 0 1", []string{`field 3 (castling) "KQx": expected a combination of KQkq or "-"`}},
		{placement + " w KK - 0 1", []string{`field 3 (castling) "KK": expected a combination of KQkq or "-"`}},
		{placement + " w  - 0 1", []string{"has 5 fields"}},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w K - 0 1", []string{`field 3 (castling) "K"`, "needs the white king on e1 and a rook on h1"}},
		{placement + " w KQkq e9 0 1", []string{`field 4 (en passant) "e9": expected a square`}},
		{placement + " w KQkq e3 0 1", []string{`field 4 (en passant) "e3": expected a square on rank 6 with white to move`}},
		{placement + " w KQkq e6 0 1", []string{`field 4 (en passant) "e6": expected a black pawn on e5`}},
		{placement + " w KQkq - -1 1", []string{`field 5 (halfmove clock) "-1": expected a non-negative integer`}},
		{placement + " w KQkq - x 1", []string{`field 5 (halfmove clock) "x"`}},
		{placement + " w KQkq - 0 0", []string{`field 6 (fullmove number) "0": expected a positive integer`}},
		{"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", []string{`field 2 (side to move) "w": the side not to move (black) is in check`}},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.fen)
		if err == nil {
			t.Errorf("ParseFEN(%q) accepted an invalid FEN", c.fen)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, fmt.Sprintf("fen %q", c.fen)) {
			t.Errorf("ParseFEN(%q) error %q does not start by naming the FEN", c.fen, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("ParseFEN(%q) error %q does not contain %q", c.fen, msg, w)
			}
		}
	}
}

// A parsed position allocates its history at its first move, not before:
// parsing a book's lines to check them costs no history each (it was 48 KB
// a line), and the first move still works, as does a game longer than the
// first allocation.
func TestParseFENAllocatesHistoryAtFirstMove(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		if _, err := ParseFEN(StartFEN); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if perFEN := (after.TotalAlloc - before.TotalAlloc) / 100; perFEN > 2048 {
		t.Errorf("ParseFEN allocated %d bytes a position, want under 2 KB (no history)", perFEN)
	}
	p, err := ParseFEN(StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	knights := []string{"g1f3", "g8f6", "f3g1", "f6g8"}
	for i := range 2*initialHistory + 8 {
		m, err := p.ParseMove(knights[i%4])
		if err != nil {
			t.Fatalf("ply %d: %v", i, err)
		}
		p.MakeMove(m)
	}
	if p.FEN() != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2056 1029" {
		t.Errorf("after %d plies of knight moves: %s", 2*initialHistory+8, p.FEN())
	}
	if n := p.RepetitionCount(); n < 2 {
		t.Errorf("RepetitionCount %d after hundreds of repetitions, want at least 2", n)
	}
}
