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
	if rss == 0 || peak < rss {
		t.Fatalf("rss %d, peak %d", rss, peak)
	}
	hog := make([]byte, 64<<20) // raise the peak
	for i := range hog {
		hog[i] = 1
	}
	// The last read stamped in the future: however slowly a loaded machine
	// ran the lines above, the next read falls within memInterval.
	p.mem.at = time.Now().Add(time.Hour)
	if _, again := p.memory(false); again != peak {
		t.Errorf("read again within %v: peak %d, then %d", memInterval, peak, again)
	}
	g := &game{players: [2]*player{p, p}, rec: &record.GameRecord{Moves: []record.MoveRecord{
		{Side: "white", PeakMB: 1}, {Side: "black", PeakMB: 1}, {Side: "white", PeakMB: 1}, {Side: "black", PeakMB: 1}, {Side: "white", PeakMB: 1}}}}
	g.refreshMemory()
	for i, mv := range g.rec.Moves {
		last := i >= 3
		if fresh := mv.PeakMB >= mb(peak)+60; fresh != last {
			t.Errorf("move %d (%s): peak %.0f MB, before the 64 MB %.0f MB; want a fresh read only for each side's last move", i+1, mv.Side, mv.PeakMB, mb(peak))
		}
	}
	hog[len(hog)-1]++
}
