package output

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadGzip gives games.jsonl.gz any bytes: reading it (the plain
// bytes through Open, the games through ReadGames) never panics, never
// returns more than the bounds of a decompression allow, and a refusal
// names the file.
func FuzzReadGzip(f *testing.F) {
	gz := func(data []byte) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	f.Add(gz([]byte(`{"game":1,"white":"A","black":"B","result":"1-0","moves":[]}` + "\n")))
	f.Add(gz([]byte(`{"game":1}` + "\n" + `{"game":1}` + "\n")))
	f.Add(gz(make([]byte, 4<<20)))
	f.Add(gz(bytes.Repeat([]byte("x"), 100)))
	f.Add([]byte("\x1f\x8b\x08\x00garbage"))
	f.Add([]byte{})
	// One file, written anew for every input: a directory per input would
	// cost more than the reading.
	path := filepath.Join(f.TempDir(), GamesFile+GzipExt)
	f.Fuzz(func(t *testing.T, data []byte) {
		writeInput(t, path, data)
		r, err := Open(path)
		if err == nil {
			n, err := io.Copy(io.Discard, r)
			r.Close()
			if n > MaxGzipRatio*int64(len(data))+GzipSlack+(64<<10) {
				t.Fatalf("%d compressed bytes read as %d", len(data), n)
			}
			if err != nil && !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Fatalf("error not naming the file: %v", err)
			}
		}
		if _, err := ReadGames(path); err != nil && !bytes.Contains([]byte(err.Error()), []byte(path)) {
			t.Fatalf("ReadGames error not naming the file: %v", err)
		}
	})
}

// The absolute bound holds for a file that compresses little: its error
// names the file and the limit.
func TestGzipSizeLimit(t *testing.T) {
	defer func(n int64) { maxGzipSize = n }(maxGzipSize)
	maxGzipSize = 1000
	path := filepath.Join(t.TempDir(), MovesFile+GzipExt)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	for i := range 1000 {
		zw.Write([]byte{byte(i * 7919 >> 3), byte(i)})
	}
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), FilePerm); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n, err := io.Copy(io.Discard, r)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(path)) || !bytes.Contains([]byte(err.Error()), []byte("more than 1000 bytes")) || n > 1000+32<<10 {
		t.Fatalf("read %d bytes of a file over the limit, error %v", n, err)
	}
}

// FuzzReadColumns gives games.jsonl.cols any bytes: reading it never
// panics, stays within the bounds of a decompression, and a refusal names
// the file. The seeds are a real archive and damaged copies of it.
func FuzzReadColumns(f *testing.F) {
	dir := f.TempDir()
	log := `{"game":1,"white":"A","moves":[{"ply":1,"uci":"e2e4","pv":["e2e4"]},{"ply":2,"uci":"e7e5"}],"result":"1-0"}` + "\n" +
		`{"game":2,"moves":null}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, GamesFile), []byte(log), FilePerm); err != nil {
		f.Fatal(err)
	}
	if _, _, err := Archive(dir, nil); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, GamesFile+ColumnsExt))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(columnsMagic + `{"games":3,"sections":[{"name":"@head","size":0}]}` + "\n"))
	f.Add([]byte(columnsMagic))
	path := filepath.Join(f.TempDir(), GamesFile+ColumnsExt)
	f.Fuzz(func(t *testing.T, data []byte) {
		writeInput(t, path, data)
		r, err := Open(path)
		if err == nil {
			n, err := io.Copy(io.Discard, r)
			r.Close()
			if n > MaxGzipRatio*int64(len(data))+GzipSlack+MaxGameLine {
				t.Fatalf("%d stored bytes read as %d", len(data), n)
			}
			if err != nil && !bytes.Contains([]byte(err.Error()), []byte(path)) {
				t.Fatalf("error not naming the file: %v", err)
			}
		}
		if _, err := ReadGames(path); err != nil && !bytes.Contains([]byte(err.Error()), []byte(path)) {
			t.Fatalf("ReadGames error not naming the file: %v", err)
		}
	})
}

// writeInput writes a fuzz input to path, removing the previous input's file
// first rather than truncating it: ext4 (auto_da_alloc) starts writing a file
// truncated to zero out to disk when it is closed, and the next truncation
// waits for that write, 1.6 ms an input against 0.03 ms for a new file
// (10,000 inputs of make fuzz-short: 16 s of waiting).
func writeInput(t *testing.T, path string, data []byte) {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, FilePerm); err != nil {
		t.Fatal(err)
	}
}
