package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/tracker"
)

// columnsLog is a log whose moves vary in their keys (clock or none,
// judged or not, book moves, PVs or none) and a game without moves: every
// shape the columns must give back.
func columnsLog(t *testing.T) ([]*record.GameRecord, []byte) {
	t.Helper()
	left, eval, cpl, acc := 9.75, 31, 12, 88.5
	var games []*record.GameRecord
	for n := 1; n <= 3; n++ {
		g := &record.GameRecord{Schema: 2, Game: n, White: "A \"quoted\"", Black: "B", Result: "1-0", Termination: "normal", Reason: "White mates", Plies: 3, Duration: 1.25 * float64(n)}
		for ply := 1; ply <= 3*n; ply++ {
			m := record.MoveRecord{Ply: ply, Side: "white", Engine: "A", UCI: "e2e4", SAN: "e4", Time: 0.012345678 * float64(ply), Nodes: int64(1000 * ply), Depth: ply, SelDepth: ply + 2, ScoreCP: -ply, PV: []string{"e2e4", "e7e5"}, RSSMB: 12.5}
			switch ply % 3 {
			case 0:
				m.TimeLeft, m.PV = &left, nil
			case 1:
				m.EvalCP, m.CPL, m.Accuracy, m.Book = &eval, &cpl, &acc, true
			}
			g.Moves = append(g.Moves, m)
		}
		games = append(games, g)
	}
	games = append(games, &record.GameRecord{Game: 4, White: "A", Black: "B", Result: "1/2-1/2", Termination: "adjudication", WhiteStats: &tracker.PlayerStats{}})
	var log []byte
	for _, g := range games {
		line, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		log = append(append(log, line...), '\n')
	}
	return games, log
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Archive replaces the log by columns that every reader reads as the same
// bytes, from plain or gzip, and a resume's Decompress gives the log back.
func TestArchiveRoundTrip(t *testing.T) {
	games, log := columnsLog(t)
	for _, compressed := range []bool{false, true} {
		dir := t.TempDir()
		path := filepath.Join(dir, GamesFile)
		if err := os.WriteFile(path, log, FilePerm); err != nil {
			t.Fatal(err)
		}
		if compressed {
			if err := Compress(dir); err != nil {
				t.Fatal(err)
			}
		}
		before, after, err := Archive(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if found, _ := Locate(path); found != path+ColumnsExt || before <= 0 || after <= 0 {
			t.Fatalf("after Archive the log is %s (%d -> %d bytes); want %s", found, before, after, path+ColumnsExt)
		}
		for _, gone := range []string{path, path + GzipExt} {
			if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left beside the columns (%v)", gone, err)
			}
		}
		if got := readAll(t, path); !bytes.Equal(got, log) {
			t.Fatalf("columns read back as\n%s\nwant\n%s", got, log)
		}
		got, err := ReadGames(path)
		if err != nil || !reflect.DeepEqual(got, games) {
			t.Fatalf("ReadGames of the columns: %v, %v", got, err)
		}
		if err := Decompress(dir); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, log) {
			t.Errorf("after Decompress: %v, equal %v", err, bytes.Equal(b, log))
		}
	}
}

// Dropped keys leave the lines the run would have written without them.
func TestArchiveDrop(t *testing.T) {
	games, log := columnsLog(t)
	dir := t.TempDir()
	path := filepath.Join(dir, GamesFile)
	if err := os.WriteFile(path, log, FilePerm); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Archive(dir, []string{"pv"}); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, g := range games {
		for i := range g.Moves {
			g.Moves[i].PV = nil
		}
		line, _ := json.Marshal(g)
		want = append(append(want, line...), '\n')
	}
	if got := readAll(t, path); !bytes.Equal(got, want) {
		t.Fatalf("with pv dropped:\n%s\nwant\n%s", got, want)
	}
	// Archiving again (more keys, or none) reads the columns themselves.
	if _, _, err := Archive(dir, []string{"rss_mb"}); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, path); bytes.Contains(got, []byte(`"rss_mb"`)) || bytes.Contains(got, []byte(`"pv"`)) || !bytes.Contains(got, []byte(`"time_s"`)) {
		t.Errorf("archived twice: %s", got)
	}
}

// A log Archive cannot give back byte for byte is refused, and left as it
// was: not compact, or cut short by a kill.
func TestArchiveRefuses(t *testing.T) {
	_, log := columnsLog(t)
	for _, c := range []struct{ what, log, want string }{
		{"not compact", string(log) + `{"game": 5, "moves": [{"ply": 1}]}` + "\n", ":5: not compact JSON"},
		{"cut short", string(log) + `{"game":5,"moves":[`, ":5: the last line is cut short"},
		{"not an object", string(log) + "[1]\n", ":5: not a JSON object"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, GamesFile)
		if err := os.WriteFile(path, []byte(c.log), FilePerm); err != nil {
			t.Fatal(err)
		}
		_, _, err := Archive(dir, nil)
		if err == nil || !strings.Contains(err.Error(), path+c.want) {
			t.Errorf("%s: %v, want an error with %q", c.what, err, path+c.want)
		}
		if b, _ := os.ReadFile(path); string(b) != c.log {
			t.Errorf("%s: the log was changed", c.what)
		}
		if _, err := os.Stat(path + ColumnsExt); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: columns written (%v)", c.what, err)
		}
	}
}

// A damaged columns file is an error naming the file.
func TestCorruptColumnsNamesTheFile(t *testing.T) {
	_, log := columnsLog(t)
	dir := t.TempDir()
	path := filepath.Join(dir, GamesFile)
	if err := os.WriteFile(path, log, FilePerm); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Archive(dir, nil); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path + ColumnsExt)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		data []byte
	}{
		{"cut short", good[:len(good)-10]},
		{"not columns", []byte("arena-columns 2\n{}\n")},
		{"no sections", []byte(columnsMagic + `{"games":1,"sections":[]}` + "\n")},
		{"empty", nil},
	} {
		if err := os.WriteFile(path+ColumnsExt, c.data, FilePerm); err != nil {
			t.Fatal(err)
		}
		want := path + ColumnsExt + ": corrupt or cut-short columns file"
		if _, err := ReadGames(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: ReadGames: %v, want %q", c.what, err, want)
		}
	}
}
