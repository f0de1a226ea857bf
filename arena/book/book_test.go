package book

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/notnil/chess"

	"arena/arena/openings"
	"arena/engines/uci"
)

func needStockfish(t *testing.T) {
	t.Helper()
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
}

// replaySAN plays SAN moves from the start position.
func replaySAN(t *testing.T, sans []string) string {
	t.Helper()
	g := chess.NewGame()
	for _, s := range sans {
		if err := g.MoveStr(s); err != nil {
			t.Fatalf("move %s of %v: %v", s, sans, err)
		}
	}
	return g.Position().String()
}

// Generated books are balanced, distinct, reproducible from the seed and
// readable as an arena opening book.
func TestGenerate(t *testing.T) {
	needStockfish(t)
	ctx := context.Background()
	cfg := Config{Count: 4, Plies: 4, MaxEval: 60, Depth: 4, PickDepth: 2, Margin: 25, Workers: 1, Seed: 3}
	var calls int
	ps, st, err := Generate(ctx, cfg, func(Stats) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 || st.Kept != 4 || st.Tried != calls || st.Tried != st.Kept+st.Duplicates+st.Unbalanced+st.Ended || st.Evaluations == 0 {
		t.Fatalf("%d positions, stats %+v, %d progress calls", len(ps), st, calls)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if len(p.Moves) != 4 || replaySAN(t, p.Moves) != p.FEN || p.Eval < -60 || p.Eval > 60 || seen[p.FEN] {
			t.Errorf("position %+v: want 4 plies leading to its FEN, |eval| <= 60, distinct", p)
		}
		seen[p.FEN] = true
	}
	again, _, err := Generate(ctx, cfg, nil)
	if err != nil || !reflect.DeepEqual(again, ps) {
		t.Errorf("same seed, different book (%v):\n%+v\n%+v", err, ps, again)
	}
	cfg.Seed = 4
	other, _, err := Generate(ctx, cfg, nil)
	if err != nil || reflect.DeepEqual(other, ps) {
		t.Errorf("seeds 3 and 4 give the same book (%v)", err)
	}

	// The EPD loads as a book with the positions in order.
	var b bytes.Buffer
	if err := WriteEPD(&b, ps, cfg.Depth); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	if !strings.HasPrefix(text, strings.Join(strings.Fields(ps[0].FEN)[:4], " ")+` id "book 1"; ce `) || !strings.Contains(text, `; acd 4; c0 "1. `) || strings.Contains(text, "#") {
		t.Errorf("EPD (position lines only):\n%s", text)
	}
	if p := Provenance("arena openings generate ...\nsecond line"); p != "# arena openings generate ...\n# second line\n" {
		t.Errorf("provenance %q", p)
	}
	path := filepath.Join(t.TempDir(), "b.epd")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ops, err := openings.Load(openings.Config{File: path})
	if err != nil || len(ops) != 4 {
		t.Fatalf("LoadOpenings: %d openings, %v", len(ops), err)
	}
	for i, op := range ops {
		// EPD carries no move counters.
		want := strings.Join(strings.Fields(ps[i].FEN)[:4], " ") + " 0 1"
		if op.FEN != want || op.Name != "book "+string(rune('1'+i)) {
			t.Errorf("opening %d: %+v, want FEN %q", i+1, op, want)
		}
	}
}

// Uniform walks need no Stockfish on the way; a book too small for the
// constraints is an error that says how far it got.
func TestGenerateUniformAndShortfall(t *testing.T) {
	needStockfish(t)
	ctx := context.Background()
	ps, _, err := Generate(ctx, Config{Count: 3, Plies: 2, MaxEval: 80, Depth: 3, Uniform: true, Workers: 1, Seed: 1}, nil)
	if err != nil || len(ps) != 3 {
		t.Fatalf("uniform: %d positions, %v", len(ps), err)
	}
	// One ply from the start: at most 20 distinct positions.
	_, st, err := Generate(ctx, Config{Count: 25, Plies: 1, MaxEval: 10_000, Depth: 1, Uniform: true, Workers: 1, Seed: 1, MaxTries: 200}, nil)
	if err == nil || !strings.Contains(err.Error(), "only 20 of 25 positions") || st.Duplicates != 180 {
		t.Errorf("25 positions after one ply: %v (stats %+v), want only 20", err, st)
	}
}

func TestConfigValidate(t *testing.T) {
	err := Config{Count: 0, Plies: 0, MaxEval: -1, Depth: 100, Margin: -1, Workers: 0, MaxTries: -1}.Validate()
	for _, want := range []string{"count 0: expected 1..", "plies 0: expected 1..200", "max-eval -1: expected 0..", "depth 100: expected 1..99",
		"margin -1: expected 0..", "pick-depth 0: expected 1..99", "workers 0: expected 1..256", "max tries -1"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}
