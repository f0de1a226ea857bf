package config

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/book/polyglot"
	"arena/arena/openings"
	"arena/engines/board"
)

// A Polyglot book made here (1. e4 weight 10 then 1... e5 or 1... c5; 1. d4
// weight 5; 1. a3 weight 0) loads through the config as the positions two
// plies into the book, heaviest lines first.
func TestPolyglotOpenings(t *testing.T) {
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	var data []byte
	add := func(moves string, from, to string, weight uint16) {
		p, err := board.FromGame(start, strings.Fields(moves))
		if err != nil {
			t.Fatal(err)
		}
		sq := func(s string) uint16 { return uint16(s[0]-'a') | uint16(s[1]-'1')<<3 }
		var e [16]byte
		binary.BigEndian.PutUint64(e[:], polyglot.Key(p))
		binary.BigEndian.PutUint16(e[8:], sq(to)|sq(from)<<6)
		binary.BigEndian.PutUint16(e[10:], weight)
		data = append(data, e[:]...)
	}
	add("", "e2", "e4", 10)
	add("", "d2", "d4", 5)
	add("", "a2", "a3", 0)
	add("e2e4", "e7", "e5", 4)
	add("e2e4", "c7", "c5", 6)
	dir := t.TempDir()
	bin := filepath.Join(dir, "tiny.bin")
	if err := os.WriteFile(bin, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse(filepath.Join(dir, "x.yaml"), []byte("openings: {file: tiny.bin, plies: 2}\nlimits: {depth: 1}\n"+twoEngines))
	if err != nil {
		t.Fatal(err)
	}
	if openings.FormatOf(*cfg.Openings) != openings.FormatPolyglot {
		t.Errorf("format of a .bin book: %q", openings.FormatOf(*cfg.Openings))
	}
	ops, err := openings.Load(*cfg.Openings)
	if err != nil {
		t.Fatal(err)
	}
	want := []openings.Opening{
		{FEN: "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", Name: "tiny.bin: e2e4 c7c5"},
		{FEN: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", Name: "tiny.bin: e2e4 e7e5"},
		{FEN: "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", Name: "tiny.bin: d2d4"},
	}
	if len(ops) != len(want) {
		t.Fatalf("openings %+v, want %+v", ops, want)
	}
	for i := range want {
		if ops[i].FEN != want[i].FEN || ops[i].Name != want[i].Name {
			t.Errorf("opening %d: %+v, want %+v", i+1, ops[i], want[i])
		}
	}
	// format: polyglot reads any file name as a book.
	renamed := filepath.Join(dir, "tiny.book")
	if err := os.Rename(bin, renamed); err != nil {
		t.Fatal(err)
	}
	if ops, err := openings.Load(openings.Config{File: renamed, Format: openings.FormatPolyglot, Plies: 1}); err != nil || len(ops) != 2 {
		t.Errorf("format polyglot, one ply: %+v, %v", ops, err)
	}
}
