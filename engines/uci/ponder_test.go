package uci

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/internal/enginetest"
)

// The server announces Ponder, accepts it, and runs "go ponder" as an
// unbounded search that answers nothing until ponderhit, which starts a
// search with the go's limits, or stop, which answers the ponder search's
// move.
func TestServerPonder(t *testing.T) {
	s := serve(t, nil)
	s.send("uci")
	if _, opts := s.expect("uciok"); !contains(opts, "option name Ponder type check default false") {
		t.Errorf("uci answer %q lacks the Ponder option", opts)
	}
	s.send("setoption name Ponder value true")
	if lines := s.sync(); len(lines) != 0 {
		t.Errorf("setoption Ponder answered %q", lines)
	}
	s.send("setoption name Ponder value maybe")
	if lines := s.sync(); len(lines) != 1 || !strings.Contains(lines[0], "info string setoption") {
		t.Errorf("setoption Ponder maybe answered %q, want an info string", lines)
	}

	n := len(searchesSince(0))
	hitPos := engines.Position{Moves: []string{"e2e4", "e7e5"}}
	s.send("position startpos moves e2e4 e7e5", "go ponder wtime 1000 btime 900 winc 10 binc 20")
	for _, l := range s.sync() {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("%q before ponderhit", l)
		}
	}
	s.send("ponderhit")
	best, _ := s.expect("bestmove")
	enginetest.CheckLegal(t, hitPos, strings.Fields(best)[1])
	want := []engines.Limits{{Infinite: true}, {WTime: time.Second, BTime: 900 * time.Millisecond, WInc: 10 * time.Millisecond, BInc: 20 * time.Millisecond}}
	if got := searchesSince(n); !reflect.DeepEqual(got, want) {
		t.Errorf("searches %+v, want the ponder search then the go's limits %+v", got, want)
	}
	for _, l := range s.sync() {
		if strings.HasPrefix(l, "bestmove") {
			t.Errorf("a second bestmove %q after ponderhit", l)
		}
	}

	n = len(searchesSince(0))
	missPos := engines.Position{Moves: []string{"e2e4", "e7e5", "g1f3"}}
	s.send("position startpos moves e2e4 e7e5 g1f3", "go ponder movetime 50")
	s.sync()
	s.send("stop")
	best, _ = s.expect("bestmove")
	enginetest.CheckLegal(t, missPos, strings.Fields(best)[1])
	s.send("ponderhit") // nothing to hit: ignored
	for _, l := range s.sync() {
		t.Errorf("ponderhit after stop answered %q", l)
	}
	if got := searchesSince(n); !reflect.DeepEqual(got, []engines.Limits{{Infinite: true}}) {
		t.Errorf("searches %+v, want only the ponder search", got)
	}
	s.quit()
}

// Pondering with Stockfish through the client: a ponderhit answers with a
// move timed from the ponderhit; a stop ends the ponder search, its move is
// discarded, and the next search is of the real position.
func TestStockfishPonder(t *testing.T) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatal("stockfish not found at " + stockfishPath + ": install it with make test-tools (apt-get install -y stockfish)")
	}
	var log bytes.Buffer
	c, err := Start(context.Background(), ClientConfig{Command: stockfishPath, Log: &log, Options: map[string]string{PonderOption: "true"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.NewGame()
	lim := engines.Limits{WTime: 2 * time.Second, BTime: 2 * time.Second}
	hitPos := engines.Position{Moves: []string{"e2e4", "e7e5"}}
	if err := c.Ponder(hitPos, lim); err != nil {
		t.Fatal(err)
	}
	if !c.Pondering() {
		t.Error("Pondering() false after Ponder")
	}
	if _, err := c.Search(context.Background(), hitPos, lim, nil); err == nil || !strings.Contains(err.Error(), "while pondering") {
		t.Errorf("search during a ponder search: %v", err)
	}
	res, err := c.PonderHit(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, hitPos, res.Move)
	if res.Depth == 0 || res.Nodes == 0 {
		t.Errorf("result %+v: no depth or nodes", res)
	}
	at := func(prefix string) time.Time {
		for _, l := range strings.Split(log.String(), "\n") {
			if f := strings.SplitN(l, " ", 3); len(f) == 3 && strings.HasPrefix(f[1]+" "+f[2], prefix) {
				tm, _ := time.Parse("15:04:05.000000", f[0])
				return tm
			}
		}
		t.Fatalf("no %q in the log:\n%s", prefix, log.String())
		return time.Time{}
	}
	if span := at("< bestmove").Sub(at("> ponderhit")); res.Time > span+time.Microsecond {
		t.Errorf("move time %v; the log's ponderhit-to-bestmove span is %v", res.Time, span)
	}
	if !strings.Contains(log.String(), "> go ponder wtime 2000 btime 2000\n") {
		t.Errorf("no go ponder with the clocks in the log:\n%s", log.String())
	}

	missed := engines.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6"}}
	if err := c.Ponder(missed, lim); err != nil {
		t.Fatal(err)
	}
	if err := c.StopPonder(); err != nil {
		t.Fatal(err)
	}
	real := engines.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "g8f6"}}
	res, err = c.Search(context.Background(), real, engines.Limits{Depth: 6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, real, res.Move)
	all := log.String()
	tail := all[strings.LastIndex(all[:strings.LastIndex(all, "> go ponder")], "\n")+1:]
	var order []string
	for _, l := range strings.Split(tail, "\n") {
		if f := strings.SplitN(l, " ", 3); len(f) == 3 && (strings.HasPrefix(f[2], "bestmove") || f[2] == "stop" || strings.HasPrefix(f[2], "go ")) {
			order = append(order, f[1]+" "+strings.Fields(f[2])[0])
		}
	}
	if want := []string{"> go", "> stop", "< bestmove", "> go", "< bestmove"}; !reflect.DeepEqual(order, want) {
		t.Errorf("after the missed ponder: %q, want %q", order, want)
	}
}
