package dctrain

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/engines/board"
	"arena/engines/deepchess"
)

// friedLiver is 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.Ng5 d5 5.exd5 Nxd5 6.Nxf7
// Kxf7 7.Qf3+ Ke6 8.Nc3: plies 1-10 are the opening part, 11 and 12
// captures, so plies 13-15 are kept.
var friedLiver = strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 e4d5 f6d5 g5f7 e8f7 d1f3 f7e6 b1c3")

// openFile opens plain files, and gzipped ones (the committed fixture) as
// the CLI's opener does.
func openFile(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return f, err
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

func gameJSON(t *testing.T, game, pair int, result string, moves []string) string {
	t.Helper()
	g := map[string]any{"game": game, "pair": pair, "result": result}
	var ms []map[string]string
	for _, m := range moves {
		ms = append(ms, map[string]string{"uci": m})
	}
	g["moves"] = ms
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeGames(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadGamesKeepsQuietPositionsOfDecisiveGames(t *testing.T) {
	path := writeGames(t,
		gameJSON(t, 1, 1, "1-0", friedLiver),
		gameJSON(t, 2, 1, "0-1", friedLiver),
		gameJSON(t, 3, 2, "1/2-1/2", friedLiver),
		gameJSON(t, 4, 2, "1-0", friedLiver[:12]),
	)
	d, err := ReadGames([]string{path}, 2, openFile)
	if err != nil {
		t.Fatal(err)
	}
	if d.Train.WhiteWon.Len() != 3 || d.Train.BlackWon.Len() != 3 || d.Train.Games != 2 {
		t.Errorf("train: %d white-won, %d black-won positions from %d games; want 3, 3 from 2",
			d.Train.WhiteWon.Len(), d.Train.BlackWon.Len(), d.Train.Games)
	}
	// Game 4 is of pair 2, held out, and has only opening plies and captures.
	if d.Held.Games != 1 || d.Held.WhiteWon.Len() != 0 || d.Draws != 1 {
		t.Errorf("held out: %d games, %d positions, %d draws; want 1, 0, 1", d.Held.Games, d.Held.WhiteWon.Len(), d.Draws)
	}
	if d.Skipped != 12+12+12 {
		t.Errorf("skipped %d positions, want 36 (10 opening plies and 2 captures in each of 3 decisive games)", d.Skipped)
	}
	// The first kept position is the one after 7.Qf3+.
	p := board.NewPosition()
	for _, uci := range friedLiver[:13] {
		m, err := p.ParseMove(uci)
		if err != nil {
			t.Fatal(err)
		}
		p.MakeMove(m)
	}
	var want []int16
	for _, a := range deepchess.Active(p, nil) {
		want = append(want, int16(a))
	}
	if got := d.Train.WhiteWon.At(0); !slices.Equal(got, want) {
		t.Errorf("first kept position: inputs %v, want %v (after 7.Qf3+)", got, want)
	}
	dense := make([]float32, deepchess.Inputs)
	d.Train.WhiteWon.Dense(0, dense)
	n := 0
	for _, v := range dense {
		n += int(v)
	}
	if n != len(want) {
		t.Errorf("Dense: %d ones, want %d", n, len(want))
	}
}

func TestReadGamesErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"game": 1, "result": "1-0", "moves": [{"uci": "e2e5"}]}`, "games.jsonl:2: game 1: ply 1"},
		{`{"game": 1, "result": "2-0"}`, `games.jsonl:2: game 1: result "2-0"`},
		{`not json`, "games.jsonl:2: not a games.jsonl record"},
	} {
		path := writeGames(t, gameJSON(t, 1, 1, "1-0", friedLiver), tc.line)
		_, err := ReadGames([]string{path}, 0, openFile)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("line %s: error %v, want one containing %q", tc.line, err, tc.want)
		}
	}
}

func TestAddMirrors(t *testing.T) {
	path := writeGames(t, gameJSON(t, 1, 1, "1-0", friedLiver), gameJSON(t, 2, 2, "0-1", friedLiver[:14]))
	d, err := ReadGames([]string{path}, 0, openFile)
	if err != nil {
		t.Fatal(err)
	}
	if d.Train.WhiteWon.Len() != 3 || d.Train.BlackWon.Len() != 2 {
		t.Fatalf("before: %d and %d positions, want 3 and 2", d.Train.WhiteWon.Len(), d.Train.BlackWon.Len())
	}
	d.AddMirrors()
	if d.Train.WhiteWon.Len() != 5 || d.Train.BlackWon.Len() != 5 {
		t.Fatalf("after: %d and %d positions, want 5 and 5", d.Train.WhiteWon.Len(), d.Train.BlackWon.Len())
	}
	// The first Black-won mirror is the mirror of the first White-won
	// position (after 7.Qf3+, Black to move): Black's queen on f6, White to move.
	p, err := board.FromGame(board.StartFEN, friedLiver[:13])
	if err != nil {
		t.Fatal(err)
	}
	var want []int16
	for _, a := range deepchess.Mirror(deepchess.Active(p, nil), nil) {
		want = append(want, int16(a))
	}
	got := d.Train.BlackWon.At(2)
	if !slices.Equal(got, want) || !slices.Contains(got, 10*64+int16(board.F6)) || !slices.Contains(got, 768) {
		t.Errorf("mirror: %v, want %v (black queen f6, White to move)", got, want)
	}
}
