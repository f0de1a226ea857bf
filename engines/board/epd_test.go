package board

import (
	"strings"
	"testing"
)

func TestReadEPD(t *testing.T) {
	text := `# comment
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "spanish; or Ruy Lopez";
8/8/4k3/8/8/4K3/4P3/8 b - -
8/8/4k3/8/8/4K3/4P3/8 b - - 12 40;
`
	got, err := ReadEPD(strings.NewReader(text), "t.epd")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("%d positions, want 4: %+v", len(got), got)
	}
	if got[0].Line != 2 || got[0].FEN != StartFEN || len(got[0].Ops) != 2 || got[0].Ops[1] != (EPDOp{"D2", "400"}) {
		t.Errorf("perft line: %+v", got[0])
	}
	if id, ok := got[1].Op("id"); !ok || id != "spanish; or Ruy Lopez" || got[1].Line != 4 {
		t.Errorf("EPD line: %+v", got[1])
	}
	if bm, _ := got[1].Op("bm"); bm != "Bb5" {
		t.Errorf("bm = %q", bm)
	}
	if got[2].FEN != "8/8/4k3/8/8/4K3/4P3/8 b - -" || got[2].FullFEN() != "8/8/4k3/8/8/4K3/4P3/8 b - - 0 1" {
		t.Errorf("4-field line: %+v", got[2])
	}
	if got[3].FEN != "8/8/4k3/8/8/4K3/4P3/8 b - - 12 40" || len(got[3].Ops) != 0 || got[3].FullFEN() != got[3].FEN {
		t.Errorf("FEN line with ';': %+v", got[3])
	}
}

// TestReadEPDRejects checks that every reader of position lists gets the
// legality checks of ParseFEN, with the file and line.
func TestReadEPDRejects(t *testing.T) {
	cases := []struct{ line, want string }{
		{"4k3/8/8/8/8/8/8/3KK3 w - -", "white has 2 kings"},
		{"8/8/8/8/8/8/8/4K3 w - -", "black has 0 kings"},
		{"4k3/8/8/8/8/8/8/P3K3 w - -", "pawn on rank 1"},
		{"4k3/8/8/8/8/8/8/4K3 w KQ -", "castling"},
		{"4k3/8/8/8/8/8/4R3/4K3 w - -", "the side not to move (black) is in check"},
		{"4k3/8/8/8/8/8/8/4K3 w", "expected 4 fields"},
		{"4k3/8/8/8/8/8/8/4K3 w - - id \"open", "not closed"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 ;D1 5", "expected an opcode"},
	}
	for _, c := range cases {
		_, err := ReadEPD(strings.NewReader("# x\n"+c.line+"\n"), "book.epd")
		if err == nil || !strings.HasPrefix(err.Error(), "book.epd:2: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want book.epd:2: ... %s", c.line, err, c.want)
		}
	}
	if _, err := ReadEPD(strings.NewReader("# only a comment\n\n"), "e.epd"); err == nil || !strings.Contains(err.Error(), "e.epd: no positions") {
		t.Errorf("empty list: error %v, want e.epd: no positions", err)
	}
	long := strings.Repeat("x", 2<<20)
	if _, err := ReadEPD(strings.NewReader(StartFEN+"\n"+long+"\n"), "l.epd"); err == nil || !strings.HasPrefix(err.Error(), "l.epd:2: line longer") {
		t.Errorf("2 MB line: error %v", err)
	}
}
