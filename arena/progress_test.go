package arena

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"arena/arena/record"
)

// The live line is cut to the terminal's width less one column, so that
// \r rewrites it in place instead of leaving a wrapped row per update.
func TestProgressLineWidth(t *testing.T) {
	cfg := writeConfig(t, "judge: off\nlimits: {depth: 1}\nengines: [{name: A very long engine name indeed, engine: heuristic}, {name: Ünïcode engine name also long, engine: heuristic}]\n")
	sum := record.NewBuilder(cfg, record.RunInfo{Planned: 6}).Summary()
	for _, width := range []int{0, 40, 120} {
		var buf bytes.Buffer
		p := &progress{w: &buf, terminal: true, total: 6, width: width, start: time.Now()}
		p.live(0, sum, 1, 37)
		writes := strings.Split(buf.String(), "\r\033[K")
		line := writes[len(writes)-1]
		limit := width
		if limit == 0 {
			limit = 80
		}
		if n := utf8.RuneCountInString(line); n >= limit || !utf8.ValidString(line) || !strings.HasPrefix(line, "[0/6 games] game 1 ply 37") {
			t.Errorf("width %d: line of %d columns %q", width, n, line)
		}
		if width == 120 && !strings.Contains(line, "elapsed") {
			t.Errorf("width 120: line cut although it fits: %q", line)
		}
	}
}

// The ETA comes from plies: time per ply so far times the plies left, at
// the finished games' mean length.
func TestProgressETA(t *testing.T) {
	p := &progress{total: 3}
	if got := p.eta(0, 50, 10*time.Second); got != "elapsed 10s" {
		t.Errorf("before the first game ends: %q, want no ETA", got)
	}
	p.plies.Store(100) // one game of 100 plies finished
	// 150 plies in 10s; 2 games of 100 plies left less the 50 played.
	if got := p.eta(1, 50, 10*time.Second); got != "elapsed 10s, ETA 10s" {
		t.Errorf("%q, want elapsed 10s, ETA 10s", got)
	}
	// At the same pace, 30 plies later the ETA has shrunk by their time
	// (2s), where a game count would have grown it.
	if got := p.eta(1, 80, 12*time.Second); got != "elapsed 12s, ETA 8s" {
		t.Errorf("%q, want elapsed 12s, ETA 8s", got)
	}
}
