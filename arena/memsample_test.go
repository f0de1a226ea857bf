package arena

import (
	"os"
	"testing"
	"time"

	"arena/arena/record"
)

// Engine memory is read at most every memInterval during a game, and fresh
// for each side's last move when the game ends. The process measured is the
// test's own: its /proc status is as real as an engine's.
func TestMemorySampling(t *testing.T) {
	p := &player{mem: openProcMem(os.Getpid())}
	if p.mem == nil {
		t.Fatal("no /proc/PID/status: the arena measures engine memory on Linux")
	}
	defer p.mem.f.Close()
	rss, peak := p.memory(false)
	if rss < 1<<20 || peak < rss {
		t.Fatalf("rss %d, peak %d: expected a running process's megabytes", rss, peak)
	}
	// A last read stamped in the future, with values no process has:
	// however slowly a loaded machine runs this test, the next read falls
	// within memInterval and must return them.
	p.mem.at, p.mem.rss, p.mem.peak = time.Now().Add(time.Hour), 7, 7
	if r, pk := p.memory(false); r != 7 || pk != 7 {
		t.Errorf("read again within %v: got %d, %d, want the last read's 7, 7", memInterval, r, pk)
	}
	g := &game{players: [2]*player{p, p}, rec: &record.GameRecord{Moves: []record.MoveRecord{
		{Side: "white", PeakMB: 1}, {Side: "black", PeakMB: 1}, {Side: "white", PeakMB: 1}, {Side: "black", PeakMB: 1}, {Side: "white", PeakMB: 1}}}}
	g.refreshMemory()
	for i, mv := range g.rec.Moves {
		fresh := mv.PeakMB >= 1 && mv.PeakMB != 1 && mv.RSSMB >= 1
		if last := i >= 3; fresh != last {
			t.Errorf("move %d (%s): rss %.2f MB, peak %.2f MB; want a fresh read for each side's last move only", i+1, mv.Side, mv.RSSMB, mv.PeakMB)
		}
	}
}

// readStatus reads from the start of the file every time, what ReadAt at
// offset 0 reads, and fails once the file is closed.
func TestReadStatus(t *testing.T) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		buf := make([]byte, 16)
		n, err := readStatus(f, buf)
		want := make([]byte, 16)
		m, _ := f.ReadAt(want, 0)
		if err != nil || n != 16 || m != 16 || string(buf) != string(want) {
			t.Fatalf("readStatus: %q (%d, %v), ReadAt: %q (%d)", buf[:n], n, err, want[:m], m)
		}
	}
	f.Close()
	if _, err := readStatus(f, make([]byte, 16)); err == nil {
		t.Error("readStatus of a closed file gave no error")
	}
}
