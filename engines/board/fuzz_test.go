package board

import (
	"strings"
	"testing"
)

// FuzzParseFEN: any string either fails with an error or gives a position
// the move generator can work with, whose FEN reads back to the same FEN.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"4k3/8/8/8/8/8/8/3KK3 w - -",
		"4k3/8/8/8/8/8/4R3/4K3 w - -",
		"4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
		"8/8/8/8 w",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			if p != nil {
				t.Fatalf("ParseFEN(%q): a position and an error", fen)
			}
			return
		}
		out := p.FEN()
		q, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("ParseFEN(%q) = %q, which does not parse: %v", fen, out, err)
		}
		if q.FEN() != out || q.Hash() != p.Hash() {
			t.Fatalf("FEN round trip: %q -> %q -> %q", fen, out, q.FEN())
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		if n := Perft(p, 2); ml.Len == 0 && n != 0 || p.FEN() != out {
			t.Fatalf("%q: perft 2 = %d with %d moves, FEN after %q", out, n, ml.Len, p.FEN())
		}
		for _, m := range ml.Slice() {
			p.MakeMove(m)
			p.UnmakeMove()
		}
		if p.FEN() != out {
			t.Fatalf("%q: make/unmake changed it to %q", out, p.FEN())
		}
	})
}

// FuzzReadEPD: a list either fails with a file:line error or every entry's
// position parses.
func FuzzReadEPD(f *testing.F) {
	for _, s := range []string{
		"# comment\n" + StartFEN + " ;D1 20 ;D2 400\n",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id \"spanish; or Ruy Lopez\";\n",
		"8/8/4k3/8/8/4K3/4P3/8 b - - 12 40;\n\n8/8/4k3/8/8/4K3/4P3/8 w - -\n",
		"4k3/8/8/8/8/8/8/4K3 w - - id \"open\n",
		"4k3/8/8/8/8/8/8/4K3 w - - 0 ;D1 5\n",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := ReadEPD(strings.NewReader(text), "f.epd")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.epd:") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		for _, e := range entries {
			if _, err := ParseFEN(e.FullFEN()); err != nil || e.Line < 1 {
				t.Fatalf("entry %+v: line %d, FEN error %v", e, e.Line, err)
			}
		}
	})
}
