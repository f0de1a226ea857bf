package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/config"
	"arena/arena/record"
	"arena/engines/board"
)

// games.epd gets each game's final position in the order the games are
// taken, reads back as an EPD book, and a Writer closed before Install
// leaves the installed file as it was (what an interrupted resume relies on).
func TestEPDOutput(t *testing.T) {
	dir := t.TempDir()
	cfg := &config.Config{Name: "t", Engines: []config.EngineConfig{{Name: "W"}, {Name: "B"}},
		Output: config.OutputConfig{PGN: config.PGNMode{None: true}, EPD: true}}
	games := []*record.GameRecord{
		{Game: 1, White: "W", Black: "B", Result: "1/2-1/2", Moves: []record.MoveRecord{{UCI: "e2e4"}, {UCI: "d7d5"}, {UCI: "e4e5"}, {UCI: "f7f5"}}},
		{Game: 2, White: "B", Black: "W", Result: "1-0", FEN: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", Moves: []record.MoveRecord{{UCI: "a1a8"}}},
	}
	want := "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6\n" + "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - -\n"
	w, err := Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := w.AppendOrdered(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Install(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	path := filepath.Join(dir, EPDFile)
	if data, err := os.ReadFile(path); err != nil || string(data) != want {
		t.Fatalf("games.epd: %v\n%s\nwant\n%s", err, data, want)
	}
	book, err := board.ReadEPDFile(path)
	if err != nil || len(book) != 2 || book[1].FEN != "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - -" {
		t.Errorf("games.epd read back as %+v, %v", book, err)
	}
	// A resume that is interrupted before Install keeps the old file.
	w, err = Create(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.AppendOrdered(games[0]); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if data, _ := os.ReadFile(path); string(data) != want {
		t.Errorf("games.epd after an interrupted rebuild:\n%s", data)
	}
	if _, err := os.Stat(path + rebuildSuffix); !os.IsNotExist(err) {
		t.Errorf("the rebuild file was left behind: %v", err)
	}
	// A game whose moves do not replay is an error naming it.
	bad := &record.GameRecord{Game: 9, Moves: []record.MoveRecord{{UCI: "e2e5"}}}
	if _, err := finalEPD(bad); err == nil || !strings.Contains(err.Error(), "game 9") {
		t.Errorf("unplayable game: %v", err)
	}
}
