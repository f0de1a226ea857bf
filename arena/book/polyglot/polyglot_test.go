package polyglot

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/engines/board"
)

const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// The keys the Polyglot specification lists for its example positions:
// castling rights lost by a king move, en passant counted only with a pawn
// beside the pushed one (after f7f5 with a white pawn on e5; after c2c4 with
// a black pawn on b4), and not after e2e4 where no black pawn can take.
func TestPolyglotKey(t *testing.T) {
	for _, c := range []struct {
		moves string
		key   uint64
	}{
		{"", 0x463b96181691fc9c},
		{"e2e4", 0x823c9b50fd114196},
		{"e2e4 d7d5", 0x0756b94461c50fb0},
		{"e2e4 d7d5 e4e5", 0x662fafb965db29d4},
		{"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78},
		{"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1},
		{"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9},
		{"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637},
		{"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560},
	} {
		p, err := board.FromGame(startFEN, strings.Fields(c.moves))
		if err != nil {
			t.Fatal(err)
		}
		if got := Key(p); got != c.key {
			t.Errorf("after %q: key %016x, want %016x", c.moves, got, c.key)
		}
	}
}

// entry is a book entry for the position after moves, written with the
// encoding inverse to the reader's.
func entry(t *testing.T, moves, uci string, weight uint16) Entry {
	t.Helper()
	p, err := board.FromGame(startFEN, strings.Fields(moves))
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	from, to := m.From(), m.To()
	if m.IsCastle() { // king takes rook
		rook := 7
		if to.File() == 2 {
			rook = 0
		}
		to = board.NewSquare(rook, to.Rank())
	}
	v := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9
	if pt := m.Promotion(); pt != board.NoPieceType {
		v |= uint16(pt-board.Knight+1) << 12
	}
	return Entry{Key: Key(p), Move: v, Weight: weight}
}

func writeBook(t *testing.T, entries []Entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	// Unsorted on purpose: the reader sorts.
	for _, e := range entries {
		var b [16]byte
		binary.BigEndian.PutUint64(b[:], e.Key)
		binary.BigEndian.PutUint16(b[8:], e.Move)
		binary.BigEndian.PutUint16(b[10:], e.Weight)
		binary.BigEndian.PutUint32(b[12:], e.Learn)
		buf.Write(b[:])
	}
	return buf.Bytes()
}

// testBook: from the start e4 (weight 10), d4 (5) and a2a3 (0: never
// played); after e4 only e5; after e4 e5 Nf3; after d4 only d5. Castling
// (O-O as e1h1) and a promotion are in positions of their own.
func testBook(t *testing.T) []Entry {
	return []Entry{
		entry(t, "e2e4", "e7e5", 7),
		entry(t, "", "d2d4", 5),
		entry(t, "", "e2e4", 10),
		entry(t, "", "a2a3", 0),
		entry(t, "e2e4 e7e5", "g1f3", 3),
		entry(t, "d2d4", "d7d5", 1),
		entry(t, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", "e1g1", 9),
		entry(t, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", "d2d3", 2),
	}
}

func TestPolyglotMoves(t *testing.T) {
	b, err := Read(bytes.NewReader(writeBook(t, testBook(t))), "t.bin")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		moves string
		want  []Move
	}{
		{"", []Move{{"e2e4", 10}, {"d2d4", 5}, {"a2a3", 0}}},
		{"e2e4", []Move{{"e7e5", 7}}},
		{"e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", []Move{{"e1g1", 9}, {"d2d3", 2}}}, // castling decoded from e1h1
		{"g1f3", nil},
	} {
		p, err := board.FromGame(startFEN, strings.Fields(c.moves))
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Moves(p); !slices.Equal(got, c.want) {
			t.Errorf("after %q: %v, want %v", c.moves, got, c.want)
		}
	}
	// The entry bits of castling are king takes rook: e1 = 4, h1 = 7.
	if e := entry(t, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", "e1g1", 9); e.Move != 4<<6|7 {
		t.Errorf("O-O encoded as %#x, want e1h1 %#x", e.Move, 4<<6|7)
	}
}

func TestPolyglotPromotion(t *testing.T) {
	fen := "8/P6k/8/8/8/8/8/K7 w - - 0 1"
	p, err := board.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	// a7a8 to queen: to a8 (file 0, rank 7), from a7 (0, 6), promotion 4.
	raw := []Entry{{Key: Key(p), Move: 7<<3 | 6<<9 | 4<<12, Weight: 1}, {Key: Key(p), Move: 7<<3 | 6<<9 | 1<<12, Weight: 2}}
	b, err := Read(bytes.NewReader(writeBook(t, raw)), "p.bin")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Moves(p); !slices.Equal(got, []Move{{"a7a8n", 2}, {"a7a8q", 1}}) {
		t.Errorf("promotions %v", got)
	}
}

// Lines follows every move with a weight, heaviest first, to the cut.
func TestLines(t *testing.T) {
	b, err := Read(bytes.NewReader(writeBook(t, testBook(t))), "t.bin")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := board.ParseFEN(startFEN)
	lines, err := b.Lines(start, 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		got = append(got, strings.Join(l.Moves, " "))
	}
	if want := []string{"e2e4 e7e5 g1f3", "d2d4 d7d5"}; !slices.Equal(got, want) {
		t.Errorf("lines %q, want %q", got, want)
	}
	if lines[0].FEN != "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" {
		t.Errorf("FEN after e4 e5 Nf3: %s", lines[0].FEN)
	}
	if lines, _ := b.Lines(start, 1, 100); len(lines) != 2 || lines[0].Moves[0] != "e2e4" {
		t.Errorf("one ply: %+v", lines)
	}
	if _, err := b.Lines(start, 3, 1); err == nil || !strings.Contains(err.Error(), "more than 1 lines of 3 plies") {
		t.Errorf("limit: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(bytes.NewReader(make([]byte, 17)), "odd.bin"); err == nil || !strings.Contains(err.Error(), "odd.bin: 17 bytes is not a whole number of 16-byte Polyglot entries") {
		t.Errorf("17 bytes: %v", err)
	}
	if _, err := Read(bytes.NewReader(nil), "empty.bin"); err == nil || !strings.Contains(err.Error(), "empty.bin: no entries") {
		t.Errorf("empty: %v", err)
	}
	// A file written by the test, read back through the file system.
	path := filepath.Join(t.TempDir(), "b.bin")
	if err := os.WriteFile(path, writeBook(t, testBook(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, err := Read(f, path); err != nil || len(b.entries) != len(testBook(t)) {
		t.Errorf("read back: %v", err)
	}
}

// Each line's weight is the chance of drawing it move by move in proportion
// to the book's weights; a transposition adds its chance to the line it
// reaches.
func TestLineWeights(t *testing.T) {
	raw := []Entry{
		entry(t, "", "e2e4", 3),
		entry(t, "", "g1f3", 1),
		entry(t, "e2e4", "g8f6", 1),
		entry(t, "e2e4 g8f6", "g1f3", 1),
		entry(t, "e2e4 g8f6", "d2d4", 1),
		entry(t, "g1f3", "g8f6", 1),
		entry(t, "g1f3 g8f6", "e2e4", 1), // the position of e4 Nf6 Nf3
	}
	b, err := Read(bytes.NewReader(writeBook(t, raw)), "w.bin")
	if err != nil {
		t.Fatal(err)
	}
	start, _ := board.ParseFEN(startFEN)
	lines, err := b.Lines(start, 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		moves  string
		weight float64
	}{{"e2e4 g8f6 g1f3", 3.0/4/2 + 1.0/4}, {"e2e4 g8f6 d2d4", 3.0 / 4 / 2}}
	if len(lines) != len(want) {
		t.Fatalf("lines %+v, want %+v", lines, want)
	}
	for i, w := range want {
		if got := strings.Join(lines[i].Moves, " "); got != w.moves || math.Abs(lines[i].Weight-w.weight) > 1e-12 {
			t.Errorf("line %d: %s weight %v, want %s weight %v", i, got, lines[i].Weight, w.moves, w.weight)
		}
	}
	lines, _ = b.Lines(start, 1, 100)
	if len(lines) != 2 || lines[0].Weight != 0.75 || lines[1].Weight != 0.25 {
		t.Errorf("one ply: %+v, want e2e4 0.75 and g1f3 0.25", lines)
	}
}
