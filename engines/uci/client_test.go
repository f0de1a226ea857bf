package uci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/internal/enginetest"
)

const stockfishPath = "/usr/games/stockfish"

// stockfish starts the real Stockfish; its absence fails the test, saying what to install.
func stockfish(t *testing.T, opts map[string]string) *Client {
	t.Helper()
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatal("stockfish not found at " + stockfishPath + ": install it with make test-tools (apt-get install -y stockfish)")
	}
	c, err := Start(context.Background(), ClientConfig{Command: stockfishPath, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func findOption(opts []engines.Option, name string) (engines.Option, bool) {
	for _, o := range opts {
		if o.Name == name {
			return o, true
		}
	}
	return engines.Option{}, false
}

func TestStockfishHandshakeAndOptions(t *testing.T) {
	c := stockfish(t, map[string]string{"hash": "32", "Skill Level": "10"})
	if !strings.HasPrefix(c.Name(), "Stockfish") {
		t.Errorf("Name() = %q, want Stockfish ...", c.Name())
	}
	if c.PID() <= 0 || c.Exited() {
		t.Errorf("PID() = %d, Exited() = %v for a running engine", c.PID(), c.Exited())
	}
	want := []engines.Option{
		{Name: "Hash", Type: engines.Spin, Default: "16", Min: 1, Max: 33554432},
		{Name: "Threads", Type: engines.Spin, Default: "1", Min: 1, Max: 1024},
		{Name: "Skill Level", Type: engines.Spin, Default: "20", Min: 0, Max: 20},
		{Name: "Ponder", Type: engines.Check, Default: "false"},
		{Name: "Clear Hash", Type: button},
		{Name: "SyzygyPath", Type: engines.String, Default: ""},
	}
	for _, w := range want {
		got, ok := findOption(c.Options(), w.Name)
		if !ok {
			t.Errorf("option %q not parsed; got %+v", w.Name, c.Options())
			continue
		}
		if got.Type != w.Type || got.Default != w.Default || got.Min != w.Min || got.Max != w.Max {
			t.Errorf("option %q = %+v, want %+v", w.Name, got, w)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !c.Exited() {
		t.Error("Exited() = false after Close")
	}
	// Close is idempotent.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStockfishBadOptions(t *testing.T) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatal("stockfish not found at " + stockfishPath + ": install it with make test-tools (apt-get install -y stockfish)")
	}
	for _, tc := range []struct {
		opts map[string]string
		want []string
	}{
		{map[string]string{"NoSuchOption": "1"}, []string{stockfishPath, `unknown option "NoSuchOption"`, "Hash", "Skill Level"}},
		{map[string]string{"Skill Level": "99"}, []string{"Skill Level", "out of range", "0..20"}},
		{map[string]string{"Ponder": "maybe"}, []string{"Ponder", "not a boolean"}},
		{map[string]string{"SyzygyPath": "x\nquit"}, []string{"refusing to send", `"setoption name SyzygyPath value x\nquit"`, `'\n'`}},
		{map[string]string{"SyzygyPath": "x\rquit"}, []string{"refusing to send", `'\r'`}},
	} {
		c, err := Start(context.Background(), ClientConfig{Command: stockfishPath, Options: tc.opts})
		if err == nil {
			c.Close()
			t.Errorf("Start with %v: no error", tc.opts)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Start with %v: error %q does not contain %q", tc.opts, err, w)
			}
		}
	}
}

func TestStockfishDepthSearch(t *testing.T) {
	c := stockfish(t, nil)
	c.NewGame()
	pos := engines.Position{Moves: []string{"e2e4", "e7e5"}}
	var infos []engines.Info
	res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 8}, func(in engines.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	if res.Depth != 8 || len(res.PV) == 0 || res.Nodes <= 0 || res.Time <= 0 {
		t.Errorf("result %+v: want depth 8, a PV, nodes and time", res)
	}
	if res.Score.IsMate() || res.Score.CP < -300 || res.Score.CP > 300 {
		t.Errorf("score %v after 1.e4 e5 is not a plausible opening score", res.Score)
	}
	if len(infos) < 8 {
		t.Fatalf("got %d info reports, want at least one per depth", len(infos))
	}
	last := infos[len(infos)-1]
	if last.Depth != 8 || len(last.PV) == 0 {
		t.Errorf("last info %+v: want depth 8 with a PV", last)
	}
}

// TestStockfishShortSearchTimes: a depth-1 search answers within
// microseconds, often before the goroutine that sent "go" runs again. Its
// time must still be positive, so the clock has to start when the command
// is sent, not when the write returns.
func TestStockfishShortSearchTimes(t *testing.T) {
	c := stockfish(t, nil)
	c.NewGame()
	pos := engines.Position{Moves: []string{"e2e4"}}
	for i := range 300 {
		res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Time <= 0 {
			t.Fatalf("search %d: time %v, want > 0", i+1, res.Time)
		}
	}
}

func TestStockfishMoveTimeSearch(t *testing.T) {
	c := stockfish(t, nil)
	pos := engines.Position{FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"}
	res, err := c.Search(context.Background(), pos, engines.Limits{MoveTime: 100 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	// Clock search as well: the client sends wtime/btime/winc/binc.
	res, err = c.Search(context.Background(), pos, engines.Limits{WTime: time.Second, BTime: time.Second, WInc: 10 * time.Millisecond, BInc: 10 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
}

func TestStockfishMate(t *testing.T) {
	c := stockfish(t, nil)
	// Back-rank mate in one: Ra8#.
	pos := engines.Position{FEN: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"}
	res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != "a1a8" || res.Score.Mate != 1 {
		t.Errorf("got move %q score %v, want a1a8 with mate 1", res.Move, res.Score)
	}
	// Checkmated side: no legal move, "bestmove (none)".
	pos = engines.Position{FEN: "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"}
	res, err = c.Search(context.Background(), pos, engines.Limits{Depth: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != "" {
		t.Errorf("checkmated side got move %q, want none", res.Move)
	}
}

func TestStockfishStopInfinite(t *testing.T) {
	c := stockfish(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the engine has searched a little, from the info callback.
	res, err := c.Search(ctx, engines.Position{}, engines.Limits{Infinite: true}, func(in engines.Info) {
		if in.Depth >= 6 {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, engines.Position{}, res.Move)
	if res.Depth < 6 {
		t.Errorf("depth %d, want at least 6 before the stop", res.Depth)
	}
	// The engine is still usable after a stop.
	res, err = c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, engines.Position{}, res.Move)
}

// fake starts the test binary as a misbehaving engine (see fakeEngine).
func fake(t testing.TB, mode string, cfg ClientConfig) (*Client, error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Command = exe
	cfg.Args = []string{fakeEngineArg, mode}
	c, err := Start(context.Background(), cfg)
	if c != nil {
		t.Cleanup(func() { c.Close() })
	}
	return c, err
}

func TestFakeNeverUCIOK(t *testing.T) {
	_, err := fake(t, "mute", ClientConfig{Timeouts: Timeouts{StartTimeout: 200 * time.Millisecond}})
	if err == nil {
		t.Fatal("Start of an engine that never sends uciok succeeded")
	}
	exe, _ := os.Executable()
	for _, w := range []string{exe, `no "uciok" within 200ms`, `after "uci"`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

func TestFakeExitsAtStart(t *testing.T) {
	var stderr strings.Builder
	_, err := fake(t, "noisy", ClientConfig{Stderr: &stderr})
	if err == nil {
		t.Fatal("Start of an engine that exits at once succeeded")
	}
	for _, w := range []string{"exited", "exit status 7", "cannot load network file"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	if stderr.String() != "fake: cannot load network file\n" {
		t.Errorf("Stderr got %q", stderr.String())
	}
}

// The client stops a time-limited search that overruns its budget by
// SearchMargin, reports a failed NewGame at the next Search, and bounds
// the readyok after ucinewgame and after setoption by their own limits.
func TestFakeOverrunAndNewGameTimeout(t *testing.T) {
	c, err := fake(t, "slow", ClientConfig{SearchMargin: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Short for the waits after the start only: the test binary's own
	// start-up (under -race especially) needs the default for the
	// handshake. Each wait has its own limit, named in its error.
	c.cfg.NewGameTimeout, c.cfg.PingTimeout, c.cfg.StartTimeout = 200*time.Millisecond, 300*time.Millisecond, time.Millisecond
	res, err := c.Search(context.Background(), engines.Position{}, engines.Limits{MoveTime: 10 * time.Millisecond}, nil)
	if err != nil || res.Move != "e2e4" || res.Score.CP != 10 || res.Depth != 1 {
		t.Fatalf("overrunning search: %+v, %v; want e2e4 after the client's stop", res, err)
	}
	c.NewGame()
	_, err = c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 1}, nil)
	if err == nil || !strings.Contains(err.Error(), `no "readyok" within 200ms after "ucinewgame/isready"`) || !strings.Contains(err.Error(), "ucinewgame_timeout") {
		t.Fatalf("Search after a NewGame without readyok: %v", err)
	}
	err = c.SetOption(context.Background(), "Hash", "32")
	if err == nil || !strings.Contains(err.Error(), `no "readyok" within 300ms after "setoption/isready"`) || !strings.Contains(err.Error(), "ping_timeout") {
		t.Fatalf("SetOption without readyok: %v", err)
	}
}

func TestFakeCrashMidSearch(t *testing.T) {
	c, err := fake(t, "crash", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != "Fake crash" {
		t.Errorf("Name() = %q, want %q", c.Name(), "Fake crash")
	}
	var infos int
	_, err = c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 5}, func(engines.Info) { infos++ })
	if err == nil {
		t.Fatal("Search on a crashing engine returned no error")
	}
	for _, w := range []string{"exited during search", "exit status 3"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	if infos != 1 {
		t.Errorf("got %d info reports before the crash, want 1", infos)
	}
	if !c.Exited() {
		t.Error("Exited() = false after the crash")
	}
	if _, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 5}, nil); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("Search after the crash: error %v, want one saying the engine exited", err)
	}
}

// An engine that forked a child and crashed is reported as exited (not as
// a timeout), and Close ends its whole process group: the child, which
// held the engine's output open, is gone too.
func TestFakeCrashLeavesNoChild(t *testing.T) {
	c, err := fake(t, "fork", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	child := 0
	_, err = c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 5}, func(in engines.Info) {
		fmt.Sscanf(in.String, "child %d", &child)
	})
	if !errors.Is(err, ErrExited) || errors.Is(err, ErrClosedOutput) {
		t.Fatalf("Search on a crashing engine: %v, want an error of kind ErrExited", err)
	}
	if child == 0 {
		t.Fatal("the fake reported no child")
	}
	c.Close()
	// SIGKILL is delivered at once, but the child is reaped by whoever
	// adopted it; a zombie is gone as far as resources go.
	for range 100 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("the crashed engine's child %d still runs after Close", child)
}

func TestFakeIgnoresStop(t *testing.T) {
	c, err := fake(t, "nostop", ClientConfig{StopGrace: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = c.Search(ctx, engines.Position{}, engines.Limits{Infinite: true}, func(engines.Info) { cancel() })
	if err == nil {
		t.Fatal("Search on an engine ignoring stop returned no error")
	}
	for _, w := range []string{`did not answer "stop"`, "100ms", "killed"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	c.Close()
	if !c.Exited() {
		t.Error("Exited() = false after the kill")
	}
	select {
	case <-c.readerDone:
	default:
		t.Error("reader goroutine still running after Close")
	}
}

func TestFakeCloseKillsEngineIgnoringQuit(t *testing.T) {
	c, err := fake(t, "nostop", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !c.Exited() {
		t.Error("engine ignoring quit still runs after Close")
	}
	if _, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 1}, nil); err == nil {
		t.Error("Search after Close returned no error")
	}
}

func TestLocateEngine(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := LocateEngine("stockfish")
	if err == nil {
		if _, statErr := os.Stat(stockfishPath); statErr != nil {
			t.Fatal("LocateEngine found stockfish where none is installed")
		}
	} else {
		for _, w := range []string{"/usr/games/stockfish", "apt-get install -y stockfish"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q does not contain %q", err, w)
			}
		}
	}
	_, err = LocateEngine("no-such-engine-xyz")
	if err == nil || !strings.Contains(err.Error(), "/usr/games/no-such-engine-xyz") || strings.Contains(err.Error(), "apt-get") {
		t.Errorf("error %v: want the paths tried and no apt hint", err)
	}
	dir := t.TempDir()
	if _, err := LocateEngine(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("LocateEngine(directory): error %v, want 'is a directory'", err)
	}
	notExec := dir + "/engine"
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LocateEngine(notExec); err == nil || !strings.Contains(err.Error(), "not executable") {
		t.Errorf("LocateEngine(non-executable): error %v, want 'not executable'", err)
	}
	if err := os.Chmod(notExec, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err := LocateEngine(notExec); err != nil || p != notExec {
		t.Errorf("LocateEngine(%s) = %q, %v", notExec, p, err)
	}
	_, err = Start(context.Background(), ClientConfig{Command: "no-such-engine-xyz"})
	if err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("Start of a missing engine: error %v, want 'not found'", err)
	}
}

// The traffic log holds every line both ways with its time, and a move's
// time ends when its bestmove line was read off the pipe (the log's stamp
// of that line), not after the client has handled it.
func TestStockfishTrafficLog(t *testing.T) {
	if _, err := os.Stat(stockfishPath); err != nil {
		t.Fatal("stockfish not found at " + stockfishPath + ": install it with make test-tools (apt-get install -y stockfish)")
	}
	var log bytes.Buffer
	c, err := Start(context.Background(), ClientConfig{Command: stockfishPath, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	c.NewGame()
	res, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 6}, nil)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	var goAt, bestAt time.Time
	var prev time.Time
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	for i, l := range lines {
		f := strings.SplitN(l, " ", 3)
		if len(f) != 3 || (f[1] != ">" && f[1] != "<") {
			t.Fatalf("log line %d %q: want TIME >|< LINE", i+1, l)
		}
		at, err := time.Parse("15:04:05.000000", f[0])
		if err != nil || i > 0 && at.Before(prev) {
			t.Fatalf("log line %d %q: time %v (previous %v)", i+1, l, err, prev)
		}
		prev = at
		switch {
		case f[1] == ">" && strings.HasPrefix(f[2], "go "):
			goAt = at
		case f[1] == "<" && strings.HasPrefix(f[2], "bestmove "+res.Move):
			bestAt = at
		}
	}
	for _, want := range []string{"> uci", "< uciok", "> isready", "< readyok", "> ucinewgame", "> position startpos", "> go depth 6", "< bestmove " + res.Move, "> quit"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if goAt.IsZero() || bestAt.IsZero() {
		t.Fatalf("no go or bestmove line in the log:\n%s", log.String())
	}
	if span := bestAt.Sub(goAt); res.Time <= 0 || res.Time > span+time.Microsecond {
		t.Errorf("move time %v; the log's go-to-bestmove span is %v", res.Time, span)
	}
}

// No field of a command reaches the engine with a line break: the client's
// one write refuses the whole line, and the engine, which got nothing of
// it, still answers.
func TestStockfishRefusesInjectedLines(t *testing.T) {
	c := stockfish(t, nil)
	for _, cmd := range []string{"position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1\nquit", "position startpos moves e2e4\rquit", "go depth 1\x00"} {
		if err := c.send(cmd); err == nil || !strings.Contains(err.Error(), "refusing to send") {
			t.Errorf("send(%q) = %v, want a refusal", cmd, err)
		}
	}
	// A search writes its "position" straight into the send buffer
	// (sendPosAt): a move or FEN field with a control character is
	// refused there too, nothing of it sent.
	for _, pos := range []engines.Position{
		{Moves: []string{"e2e4", "e7e5\x00quit"}},
		{FEN: "8/8/8/8/8/8/8/K1k5 w - - 0 1\x1b", Moves: []string{"a1a2"}},
	} {
		if _, err := c.Search(context.Background(), pos, engines.Limits{Nodes: 100}, nil); err == nil || !strings.Contains(err.Error(), "refusing to send") {
			t.Errorf("Search(%q) = %v, want a refusal", pos, err)
		}
	}
	if err := c.sync(context.Background(), "test", 10*time.Second, pingLimit); err != nil {
		t.Fatalf("Stockfish after the refused lines: %v", err)
	}
}

// TestFakeLongAndSplitLines: the client reads the engine's output itself
// (lines.go), so it must join what the pipe gives it into lines as
// bufio.Scanner did: a line longer than one read, a line split across two
// writes, a last line without its line break before the engine exits,
// and a line over maxLineLen, which fails the search.
func TestFakeLongAndSplitLines(t *testing.T) {
	c, err := fake(t, "long", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var long int
	res, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 1}, func(in engines.Info) { long = len(in.String) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Move != "e2e4" || res.Ponder != "e7e5" || long != 300000 {
		t.Errorf("got move %q ponder %q after an info string of %d bytes, want e2e4, e7e5 and 300000", res.Move, res.Ponder, long)
	}

	c, err = fake(t, "unended", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 1}, nil); err != nil || res.Move != "e2e4" {
		t.Errorf("a bestmove without a line break before the exit: move %q, error %v; want e2e4", res.Move, err)
	}

	c, err = fake(t, "huge", ClientConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 1}, nil); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("a line over %d bytes: error %v, want one saying it is too long", maxLineLen, err)
	}
}

// TestStockfishResultOutlivesNextSearch: the client parses the engine's
// lines where they were read, in a buffer the next read overwrites
// (lines.go), so what it hands out (a result's move, ponder move and PV,
// the PVs given to the info callback) must be copies that later searches
// leave as they were.
func TestStockfishResultOutlivesNextSearch(t *testing.T) {
	c := stockfish(t, nil)
	var infos [][]string
	var copies [][]string
	res, err := c.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 8}, func(in engines.Info) {
		if len(in.PV) > 0 {
			infos = append(infos, in.PV)
			copies = append(copies, append([]string(nil), in.PV...))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	first, second := fmt.Sprint(res.Move, res.Ponder, res.PV), ""
	if res.Move == "" || len(res.PV) == 0 || len(infos) == 0 {
		t.Fatalf("depth 8 from the start: move %q, PV %v, %d PVs reported; want all", res.Move, res.PV, len(infos))
	}
	for _, fen := range []string{"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "8/8/8/4k3/8/8/4K3/7R w - - 0 1"} {
		r2, err := c.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Depth: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		second = fmt.Sprint(r2.Move, r2.Ponder, r2.PV)
	}
	if now := fmt.Sprint(res.Move, res.Ponder, res.PV); now != first {
		t.Errorf("the first search's result changed under later searches: %s, was %s (the last search's: %s)", now, first, second)
	}
	for i := range infos {
		if fmt.Sprint(infos[i]) != fmt.Sprint(copies[i]) {
			t.Errorf("reported PV %d changed under later searches: %v, was %v", i, infos[i], copies[i])
		}
	}
}
