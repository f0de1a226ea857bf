package datagen

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/nn/dataset"
	"arena/engines/uci"
	"arena/tracker"
)

func testJudge(t *testing.T) tracker.JudgeConfig {
	t.Helper()
	if _, err := uci.LocateEngine("stockfish"); err != nil {
		t.Fatalf("stockfish not found (%v): install it with make test-tools (apt-get install -y stockfish)", err)
	}
	return tracker.JudgeConfig{Depth: 6, Workers: 2}
}

func TestSelfGeneratedAndResume(t *testing.T) {
	cfg := Config{Out: filepath.Join(t.TempDir(), "data.tsv"), MaxPositions: 24, Every: 1, Seed: 5, EngineDepth: 2, Judge: testJudge(t)}
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Written != 24 {
		t.Fatalf("wrote %d positions, expected 24", st.Written)
	}
	recs, err := dataset.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, recs, 24)

	// Without --resume an existing file is refused.
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("second run without resume: %v, expected an error suggesting --resume", err)
	}
	// A crash in the middle of a line: resume drops the partial line and
	// carries on to the new total without repeating positions.
	f, err := os.OpenFile(cfg.Out, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("rnbqkbnr/pppppppp/8/8/8/8/PPPP")
	f.Close()
	cfg.Resume, cfg.MaxPositions = true, 40
	st, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st.Existing != 24 || st.Written != 16 {
		t.Fatalf("resume found %d and wrote %d, expected 24 and 16", st.Existing, st.Written)
	}
	all, err := dataset.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	checkRecords(t, all, 40)
	for i := range recs {
		if all[i] != recs[i] {
			t.Fatalf("record %d changed on resume: %+v, was %+v", i, all[i], recs[i])
		}
	}

	// Excluding that file, the same games give only other positions.
	other := Config{Out: filepath.Join(t.TempDir(), "heldout.tsv"), MaxPositions: 10, Every: 1, Seed: 5, EngineDepth: 2,
		Judge: cfg.Judge, Exclude: []string{cfg.Out}}
	if _, err := Run(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	held, err := dataset.ReadFile(other.Out)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, r := range all {
		in[positionKey(r.FEN)] = true
	}
	for _, r := range held {
		if in[positionKey(r.FEN)] {
			t.Fatalf("excluded position %s written", r.FEN)
		}
	}
	if len(held) != 10 {
		t.Fatalf("%d held-out positions, expected 10", len(held))
	}
}

// checkRecords checks n unique positions whose scores are from White's
// point of view: Stockfish's own evaluation (side to move) agrees after the
// sign change.
func checkRecords(t *testing.T, recs []dataset.Record, n int) {
	t.Helper()
	if len(recs) != n {
		t.Fatalf("%d records, expected %d", len(recs), n)
	}
	seen := map[string]bool{}
	black := 0
	for _, r := range recs {
		k := positionKey(r.FEN)
		if seen[k] {
			t.Fatalf("position %s appears twice", r.FEN)
		}
		seen[k] = true
		if strings.Fields(r.FEN)[1] == "b" {
			black++
		}
	}
	if black == 0 {
		t.Fatal("no position with Black to move: the sign conversion is untested")
	}
}

func TestPGNFilters(t *testing.T) {
	dir := t.TempDir()
	pgn := filepath.Join(dir, "games.pgn")
	games := `[Event "a"]
[WhiteElo "2600"]
[BlackElo "2550"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "b"]
[WhiteElo "2600"]
[BlackElo "1800"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0
`
	if err := os.WriteFile(pgn, []byte(games), 0o644); err != nil {
		t.Fatal(err)
	}
	judge := testJudge(t)
	judge.Workers = 1 // records in game order
	cfg := Config{Out: filepath.Join(dir, "data.tsv"), PGN: []string{pgn}, MinElo: 2500, SkipPlies: 1, Every: 2, Judge: judge}
	st, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := dataset.ReadFile(cfg.Out)
	if err != nil {
		t.Fatal(err)
	}
	// Game a only (game b's Black is below 2500): plies 1 (after 1. f3)
	// and 3 (after 2. g4) of 4.
	if st.Games != 1 || len(recs) != 2 {
		t.Fatalf("%d games, %d records %+v; expected 1 game, 2 records", st.Games, len(recs), recs)
	}
	if recs[0].Result != 0 || !strings.HasPrefix(recs[0].FEN, "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b") {
		t.Fatalf("first record %+v, expected the position after 1. f3 with result 0", recs[0])
	}
	// Black to move mates in 1: from White's point of view mate -1.
	if r := recs[1]; !r.HasMate || r.Mate != -1 || r.CP >= 0 {
		t.Fatalf("Black's mate in 1 recorded as %+v, expected mate -1 with a negative cp", r)
	}
}

// TestExcludeEPD: an --exclude file may be an EPD/FEN list, read with the
// board package's reader (so a bad line is an error naming it).
func TestExcludeEPD(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "book.epd")
	text := "# book\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n8/8/4k3/8/8/4K3/4P3/8 w - - 3 9\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fens, err := excludedFENs(path)
	if err != nil || len(fens) != 2 || positionKey(fens[1]) != "8/8/4k3/8/8/4K3/4P3/8 w - -" {
		t.Fatalf("excludedFENs = %q, %v", fens, err)
	}
	if err := os.WriteFile(path, []byte("4k3/8/8/8/8/8/8/3KK3 w - -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := excludedFENs(path); err == nil || !strings.Contains(err.Error(), "book.epd:1:") {
		t.Errorf("illegal position: error %v, want one naming book.epd:1", err)
	}
}
