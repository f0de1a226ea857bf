package output

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gzipped(t *testing.T, data string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(data))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Compress and Decompress round-trip the game files, leave the others
// alone, and Open and Index read either form the same.
func TestCompressRoundTrip(t *testing.T) {
	dir := t.TempDir()
	log := `{"game":2,"white":"A"}` + "\n" + `{"game":1,"white":"B"}` + "\n"
	files := map[string]string{GamesFile: log, MovesFile: "game,ply\n1,1\n", SummaryJSON: "{}"}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Compress(dir); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		want := name + GzipExt
		if name == SummaryJSON {
			want = name
		}
		found, err := Locate(filepath.Join(dir, name))
		if err != nil || found != filepath.Join(dir, want) {
			t.Errorf("Locate(%s) = %s, %v; want %s", name, found, err, want)
		}
		r, err := Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != data {
			t.Errorf("%s read back as %q, %v", name, got, err)
		}
	}
	games, err := ReadGames(filepath.Join(dir, GamesFile))
	if err != nil || len(games) != 2 || games[0].White != "B" {
		t.Fatalf("ReadGames of games.jsonl.gz: %v, %v", games, err)
	}
	idx := Index{}
	f, err := idx.Add(filepath.Join(dir, GamesFile))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if p := idx[1].Path(); p != filepath.Join(dir, GamesFile+GzipExt) || idx[1].Line() != 2 {
		t.Errorf("game 1 indexed at %s:%d, want the .gz file's line 2", p, idx[1].Line())
	}
	if err := Decompress(dir); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), GzipExt) || strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left behind by Decompress", e.Name())
		}
	}
	for name, data := range files {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(got) != data {
			t.Errorf("%s after Decompress: %q, %v", name, got, err)
		}
	}
}

// A kill between writing one form and removing the other leaves both; the
// plain file is the newer (a resumed run appends to it), so it wins.
func TestPlainFileWins(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, MovesFile)
	if err := os.WriteFile(path, []byte("newer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path+GzipExt, gzipped(t, "older"), 0o644); err != nil {
		t.Fatal(err)
	}
	if found, err := Locate(path); err != nil || found != path {
		t.Errorf("Locate = %s, %v; want the plain file", found, err)
	}
	if err := Decompress(dir); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "newer" {
		t.Errorf("after Decompress: %q, %v; want the plain file kept", got, err)
	}
	if _, err := os.Stat(path + GzipExt); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale .gz is still there (%v)", err)
	}
}

// A damaged .gz is an error naming the file, whether its header, its data
// or its end is damaged, from Open, Read, Index and Decompress.
func TestCorruptGzipNamesTheFile(t *testing.T) {
	good := gzipped(t, strings.Repeat(`{"game":1}`+"\n", 1))
	flipped := bytes.Clone(good)
	flipped[len(flipped)-6] ^= 0xff // in the CRC-32 trailer
	for _, c := range []struct {
		what string
		data []byte
	}{
		{"not gzip", []byte("plain text")},
		{"empty", nil},
		{"cut short", good[:len(good)-3]},
		{"bad checksum", flipped},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, GamesFile)
		if err := os.WriteFile(path+GzipExt, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := path + GzipExt + ": corrupt or cut-short gzip file"
		_, err := ReadGames(path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: ReadGames: %v, want %q", c.what, err, want)
		}
		if err := Decompress(dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Decompress: %v, want %q", c.what, err, want)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: Decompress left a plain file (%v)", c.what, err)
		}
	}
}
