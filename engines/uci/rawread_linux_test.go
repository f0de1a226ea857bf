package uci

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
	"time"
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

// The raw pipe writer writes all of a write larger than the pipe's buffer
// while the reader drains it, stops at the write deadline once the pipe is
// full and nobody reads (an engine that stopped reading its input), and
// returns os.ErrClosed once the write end is closed: os.File's errors, which
// the client's messages tell apart.
func TestRawPipeWrites(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pw := newPipeWriter(w)
	if _, ok := pw.(*rawPipe); !ok {
		t.Fatalf("newPipeWriter gave %T, want the raw writer", pw)
	}
	big := make([]byte, 1<<20) // 16 times Linux's default pipe buffer
	for i := range big {
		big[i] = byte(i)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, int64(len(big))))
		got <- b
	}()
	if n, err := pw.Write(big); n != len(big) || err != nil {
		t.Fatalf("write of %d bytes: %d, %v", len(big), n, err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("read back %d bytes, not what was written", len(b))
	}
	if err := pw.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	n, err := pw.Write(big)
	if !errors.Is(err, os.ErrDeadlineExceeded) || n == 0 || n == len(big) {
		t.Errorf("write into a full pipe nobody reads: %d of %d bytes, %v; want part of it and os.ErrDeadlineExceeded", n, len(big), err)
	}
	w.Close()
	if _, err := pw.Write([]byte("quit\n")); !errors.Is(err, os.ErrClosed) {
		t.Errorf("write after close: %v, want os.ErrClosed", err)
	}
}
