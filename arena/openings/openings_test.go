package openings

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"arena/engines/board"
)

func TestEPDOpenings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.epd")
	text := "# comment\n" +
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"King pawn\"; c0 \"1.e4\";\n" +
		"\n" +
		"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 ;D1 20\n" +
		"r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := Load(Config{File: path})
	if err != nil {
		t.Fatal(err)
	}
	want := []Opening{
		{FEN: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", Name: "King pawn"},
		{FEN: "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", Name: "book.epd:4"},
		{FEN: "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2", Name: "book.epd:5"},
	}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("openings:\n%+v\nwant\n%+v", ops, want)
	}
	if err := os.WriteFile(path, []byte("rnbqkbnr/pppppppp/8/8 w\n"), 0o644); err == nil {
		if _, err := Load(Config{File: path}); err == nil || !strings.Contains(err.Error(), "book.epd:1:") {
			t.Errorf("bad EPD line: %v, want an error naming book.epd:1", err)
		}
	}
	// The example book of the repository loads and is playable.
	ops, err = Load(Config{File: "../../configs/openings/example.epd"})
	if err != nil || len(ops) < 4 {
		t.Fatalf("example book: %d openings, %v", len(ops), err)
	}
}

func TestPGNOpenings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.pgn")
	text := "[Event \"a\"]\n[Opening \"Scandinavian\"]\n\n1. e4 d5 2. exd5 Qxd5 *\n\n" +
		"[Event \"b\"]\n\n1. d4 d5 2. c4 *\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := Load(Config{File: path, Plies: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []Opening{
		{FEN: "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", Name: "Scandinavian"},
		{FEN: "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2", Name: "book.pgn#2"},
	}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("openings:\n%+v\nwant\n%+v", ops, want)
	}
}

// TestOpeningsRejectIllegal checks that a book position the board package
// cannot accept is an error naming the file and line, for EPD and PGN books.
func TestOpeningsRejectIllegal(t *testing.T) {
	dir := t.TempDir()
	good := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"ok\";\n"
	cases := []struct{ name, text, want string }{
		{"two white kings", good + "4k3/8/8/8/8/8/8/3KK3 w - -\n", "book.epd:2: fen"},
		{"no king", good + "8/8/8/8/8/8/8/4K3 w - -\n", "book.epd:2: fen"},
		{"pawn on rank 1", good + "4k3/8/8/8/8/8/8/P3K3 w - -\n", "book.epd:2: fen"},
		{"castling without rooks", good + "4k3/8/8/8/8/8/8/4K3 w KQ -\n", "book.epd:2: fen"},
		{"side not to move in check", good + "4k3/8/8/8/8/8/4R3/4K3 w - -\n", "book.epd:2: fen"},
		{"no legal move", good + "7k/5Q2/6K1/8/8/8/8/8 b - -\n", "book.epd:2: position"},
		{"empty", "# nothing\n", "book.epd: no positions"},
	}
	path := filepath.Join(dir, "book.epd")
	for _, c := range cases {
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(Config{File: path}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	pgn := filepath.Join(dir, "book.pgn")
	text := "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/3KK3 w - - 0 1\"]\n\n*\n"
	if err := os.WriteFile(pgn, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Config{File: pgn}); err == nil || !strings.Contains(err.Error(), "book.pgn: PGN game 2 (\"b\"), line 5: FEN tag: fen") {
		t.Errorf("PGN with two white kings: error %v, want one naming book.pgn, game 2 and line 5", err)
	}
	// A position reached by the moves is checked too.
	text = "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n1. Qf7 *\n"
	if err := os.WriteFile(pgn, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(Config{File: pgn}); err == nil || !strings.Contains(err.Error(), "book.pgn:1: game 1: position") || !strings.Contains(err.Error(), "has no legal moves") {
		t.Errorf("PGN ending in stalemate: error %v, want book.pgn:1: game 1: ... no legal moves", err)
	}
}

// The shipped books are read by fastchess and cutechess-cli as they are:
// every line a position (no "#" comment line, no blank line), the
// provenance in the side file.
func TestShippedBooksHoldPositionsOnly(t *testing.T) {
	books, err := filepath.Glob("../../configs/openings/*.epd")
	if err != nil || len(books) == 0 {
		t.Fatalf("no shipped books: %v", err)
	}
	for _, book := range books {
		data, err := os.ReadFile(book)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			f := strings.Fields(line)
			if len(f) < 4 || strings.HasPrefix(line, "#") {
				t.Errorf("%s:%d: not a position line: %q", book, i+1, line)
				continue
			}
			if _, err := board.ParseFEN(strings.Join(f[:4], " ") + " 0 1"); err != nil {
				t.Errorf("%s:%d: %v", book, i+1, err)
			}
		}
		if side, err := os.ReadFile(SideFile(book)); err != nil || !strings.HasPrefix(string(side), "# ") {
			t.Errorf("%s: no provenance in %s (%v)", book, SideFile(book), err)
		}
	}
}
