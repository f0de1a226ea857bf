package arena

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"arena/arena/record"
	"arena/internal/termfit"
	"arena/tracker"
)

// liveSummary is a four-engine round robin with an SPRT, long names and a
// leader, as the live line sees it mid-run.
func liveSummary() *record.Summary {
	llr := 1.2345
	names := []string{"A very long engine name indeed", "Ünïcode engine name also long", "Stockfish Skill Level 0", "Heuristic Bot strong"}
	s := &record.Summary{GamesPlayed: 12, SPRT: &record.SPRTSummary{LLR: &llr, Lower: -2.94, Upper: 2.94},
		Ratings: &tracker.Ratings{Anchor: names[0]}}
	for i, n := range names {
		s.Engines = append(s.Engines, record.EngineSummary{Name: n, Games: 6, Points: float64(i) + 0.5})
		s.Ratings.Players = append(s.Ratings.Players, tracker.Rating{Name: n, Elo: 40 * float64(i), Low: 40*float64(i) - 120, High: 40*float64(i) + 120})
	}
	return s
}

// The live line fits in the terminal less one column at any width, keeps
// the games and the ETA, and drops its parts in the documented order.
func TestLiveLineFits(t *testing.T) {
	sn := snapshot{elapsed: 250 * time.Second, play: 240 * time.Second, judgeBusy: 200 * time.Second, played: 12, plies: 960,
		inPlay: 40, positions: 972, judged: 800, judge: true}
	for _, width := range []int{0, 40, 60, 80, 200} {
		p := &progress{terminal: true, width: width, total: 40, planned: 40, sum: liveSummary()}
		line := p.liveLine(sn)
		limit := width
		if limit == 0 {
			limit = 80
		}
		if n := utf8.RuneCountInString(line); n >= limit || !utf8.ValidString(line) || !strings.HasPrefix(line, "12/40 games") || !strings.Contains(line, "| ETA ") {
			t.Errorf("width %d: line of %d columns %q", width, n, line)
		}
		if width == 200 {
			for _, part := range []string{"judged 800/972", "lead Heuristic Bot strong 3.5/6", "Elo +120 ±120 vs A very long engine name indeed", "LLR +1.23 (-2.94, +2.94)", "173 games/h", "4m10s"} {
				if !strings.Contains(line, part) {
					t.Errorf("width 200: %q lacks %q", line, part)
				}
			}
		}
		if width == 80 && (strings.Contains(line, "games/h") || !strings.Contains(line, "LLR")) {
			t.Errorf("width 80: games/hour should go before the LLR: %q", line)
		}
	}
}

// The ETA covers play and judging: play at the plies per second of play
// so far, the judge at its positions per busy second, whichever ends last.
func TestLiveETA(t *testing.T) {
	// 10 games of 100 plies in 100 s of play, 10 left: 1000 plies at 10
	// plies/s = 100 s, plus the last game's 101 positions at 10.1
	// positions/s = 10 s. The judge has judged 1010 positions in 100 s
	// and has 101 + 10*101 left: 110 s. The later is play's 110 s.
	sn := snapshot{play: 100 * time.Second, judgeBusy: 100 * time.Second, played: 10, plies: 1000, positions: 1111, judged: 1010, judge: true}
	if d, ok := sn.eta(10); !ok || d.Round(time.Second) != 110*time.Second {
		t.Errorf("eta = %v, %v; want 110s", d, ok)
	}
	// A slow judge: 101 positions in 100 s, 1010 queued and 1010 to come.
	sn.judged = 101
	if d, ok := sn.eta(10); !ok || d.Round(time.Second) != 2000*time.Second {
		t.Errorf("slow judge: eta = %v, want 2000s", d)
	}
	// Play done, the judge catching up.
	sn.judged = 1010
	if d, ok := sn.eta(0); !ok || d.Round(time.Second) != 10*time.Second {
		t.Errorf("judging after play: eta = %v, want 10s", d)
	}
	if _, ok := (snapshot{play: time.Second, inPlay: 30}).eta(5); ok {
		t.Error("an ETA before the first game ended")
	}
	// Without a judge, play alone; games in play count as played plies.
	sn = snapshot{play: 100 * time.Second, played: 10, plies: 900, inPlay: 100}
	// 1000 plies in 100 s; 10 games of 90 plies left less the 100 played.
	if d, ok := sn.eta(10); !ok || d.Round(time.Second) != 80*time.Second {
		t.Errorf("no judge: eta = %v, want 80s", d)
	}
}

// The status charges every moment to one state; the parts add up to the
// wall time.
func TestStatusSplitsTheTime(t *testing.T) {
	t0 := time.Now()
	s := newStatus(nil, t0)
	s.last = t0
	step := func(d time.Duration, f func()) {
		t0 = t0.Add(d)
		s.charge(t0)
		f()
	}
	step(time.Second, func() { s.playing++ })   // 1 s idle
	step(3*time.Second, func() { s.judging++ }) // 3 s playing
	step(2*time.Second, func() { s.playing-- }) // 2 s playing, judge busy
	step(4*time.Second, func() { s.judging-- }) // 4 s judging only
	sn := s.snapshot(t0.Add(time.Second), t0.Add(-10*time.Second))
	if sn.idle != 2*time.Second || sn.play != 5*time.Second || sn.judgeOnly != 4*time.Second || sn.judgeBusy != 6*time.Second {
		t.Errorf("idle %v play %v judging only %v judge busy %v; want 2s 5s 4s 6s", sn.idle, sn.play, sn.judgeOnly, sn.judgeBusy)
	}
	if line := timeLine(sn, true); line != "Time: 11s = playing 5s + judging only 4s + idle 2s (start-up, writing); the judge was busy 6s, 2s of it beside play" {
		t.Errorf("timeLine = %q", line)
	}
}

// A game line on a terminal fits its width; elsewhere it is whole.
func TestGameLineFits(t *testing.T) {
	g := &record.GameRecord{Game: 7, White: "A very long engine name indeed", Black: "Stockfish Skill Level 0", Result: "1-0",
		Reason: "White mates", Plies: 83, Duration: 12.34}
	s := liveSummary()
	whole := (&progress{total: 40}).gameLine(g, s)
	if !strings.Contains(whole, "{White mates} 83 plies, 12.3s | A very long engine name indeed 0.5, ") {
		t.Errorf("full line: %q", whole)
	}
	var buf bytes.Buffer
	p := &progress{w: &buf, terminal: true, width: 80, total: 40}
	line := p.gameLine(g, s)
	if n := utf8.RuneCountInString(line); n > 80 || !strings.HasPrefix(line, "Game 7/40: A very l~eed vs Stockfis~l 0 1-0") {
		t.Errorf("80 columns: %d columns %q", n, line)
	}
}

// syncBuffer is a bytes.Buffer safe for the live line's goroutine and the
// game lines' writer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A real run at concurrency 2 with three engines on a 60-column terminal:
// the live line is drawn while games play and are judged, with an ETA once
// a game is done, no row of the output is wider than the terminal, and the
// time split adds up to the wall time.
func TestLiveLineDuringRun(t *testing.T) {
	t.Parallel()
	needStockfish(t)
	cfg := writeConfig(t, `
name: live
format: round-robin
games: 2
max_moves: 60
concurrency: 2
engines:
  - {name: Stockfish at depth three, command: stockfish, limits: {depth: 3}}
  - {name: Stockfish at depth one, command: stockfish, limits: {depth: 1}}
  - {name: Stockfish at depth two, command: stockfish, limits: {depth: 2}}
judge: {depth: 8}
`)
	var out syncBuffer
	sum, err := Run(context.Background(), cfg, Options{OutDir: filepath.Join(t.TempDir(), "run"), Stdout: termfit.NewWriter(&out, 60), Terminal: true, Width: 60})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	draws, etas := 0, 0
	for row := range strings.SplitSeq(text, "\n") {
		for seg := range strings.SplitSeq(row, "\r") {
			seg = strings.TrimPrefix(seg, "\033[K")
			if n := utf8.RuneCountInString(seg); n > 60 {
				t.Errorf("a row of %d columns: %q", n, seg)
			}
			if strings.Contains(seg, " games | ") {
				draws++
				if regexp.MustCompile(`\| ETA \d`).MatchString(seg) {
					etas++
				}
			}
		}
	}
	if draws == 0 || etas == 0 {
		t.Errorf("%d live lines, %d with an ETA:\n%q", draws, etas, text)
	}
	tp := sum.Throughput
	if tp == nil || tp.JudgeBusyS <= 0 || tp.PlayingS <= 0 || math.Abs(tp.PlayingS+tp.JudgingS+tp.IdleS-tp.WallS) > 0.5 {
		t.Errorf("throughput %+v: playing, judging and idle should add up to the wall time", tp)
	}
	if words := strings.Join(strings.Fields(text), " "); !strings.Contains(words, "Time: ") || !strings.Contains(words, "of it beside play") {
		t.Errorf("no time line:\n%s", text)
	}
}
