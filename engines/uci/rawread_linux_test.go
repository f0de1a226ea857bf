package uci

import (
	"errors"
	"io"
	"os"
	"testing"
)

// The raw pipe reader returns what os.File's reads return: the data, then
// io.EOF when the writer is gone, and os.ErrClosed once the read end is
// closed (which the client takes for its own Close, not an engine fault).
func TestRawPipeReads(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr := newPipeReader(r)
	if _, ok := pr.(*rawPipe); !ok {
		t.Fatalf("newPipeReader gave %T, want the raw reader", pr)
	}
	go func() {
		w.Write([]byte("info depth 1\n"))
		w.Write([]byte("bestmove e2e4\n"))
		w.Close()
	}()
	got, err := io.ReadAll(pr)
	if err != nil || string(got) != "info depth 1\nbestmove e2e4\n" {
		t.Errorf("read %q, %v", got, err)
	}
	r.Close()
	if _, err := pr.Read(make([]byte, 8)); !errors.Is(err, os.ErrClosed) {
		t.Errorf("read after close: %v, want os.ErrClosed", err)
	}
}
