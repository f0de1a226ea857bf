package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/internal/enginetest"
)

// testEngine plays the legal move at index "Move Index" (modulo the number
// of legal moves) in generation order. With "Block" it searches until
// cancelled, as a real engine does under go infinite.
type testEngine struct {
	opts     engines.Options
	newGames *int
}

func (e *testEngine) Name() string { return "first legal" }
func (e *testEngine) NewGame()     { *e.newGames++ }
func (e *testEngine) Close() error { return nil }

func (e *testEngine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	testSearches.Lock()
	testSearches.lims = append(testSearches.lims, lim)
	testSearches.Unlock()
	p, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves)
	if err != nil {
		return engines.Result{}, err
	}
	var ml board.MoveList
	p.GenerateLegal(&ml)
	if ml.Len == 0 {
		return engines.Result{}, nil
	}
	move := ml.Moves[e.opts.Int("Move Index")%ml.Len].String()
	if e.opts.Bool("Block") {
		<-ctx.Done()
	}
	in := engines.Info{Depth: 1, SelDepth: 2, Score: engines.Score{CP: 12}, Nodes: int64(ml.Len), Time: 2 * time.Millisecond, PV: []string{move}}
	if info != nil {
		info(engines.Info{String: "searching " + e.opts["Style"]})
		info(in)
	}
	// Nodes searched after the last iteration's report count in the total,
	// as in a real engine stopped mid-iteration.
	return engines.Result{Move: move, Score: in.Score, Depth: 1, SelDepth: 2, Nodes: in.Nodes + 5, Time: 3 * time.Millisecond, PV: in.PV}, nil
}

var testNewGames int

// testSearches records the limits of every search a testEngine ran.
var testSearches struct {
	sync.Mutex
	lims []engines.Limits
}

// searchesSince returns the limits of the searches after the first n.
func searchesSince(n int) []engines.Limits {
	testSearches.Lock()
	defer testSearches.Unlock()
	return append([]engines.Limits(nil), testSearches.lims[n:]...)
}

// testSpec is the built-in engine the server tests expose.
var testSpec = engines.Spec{
	Name:        "uci-test-first-legal",
	Description: "plays a fixed legal move (uci package tests)",
	Options: []engines.Option{
		{Name: "Move Index", Type: engines.Spin, Default: "0", Min: 0, Max: 500},
		{Name: "Block", Type: engines.Check, Default: "false"},
		{Name: "Style", Type: engines.Combo, Default: "solid", Vars: []string{"solid", "wild"}},
		{Name: "Book File", Type: engines.String, Default: ""},
	},
	New: func(opts engines.Options) (engines.Engine, error) {
		return &testEngine{opts: opts, newGames: &testNewGames}, nil
	},
}

func init() { engines.Register(testSpec) }

// session is a Serve running on pipes.
type session struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func serve(t *testing.T, initial map[string]string) *session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		err := Serve(testSpec, initial, inR, outW)
		outW.Close()
		s.done <- err
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return s
}

func (s *session) send(cmds ...string) {
	s.t.Helper()
	for _, c := range cmds {
		if _, err := io.WriteString(s.in, c+"\n"); err != nil {
			s.t.Fatalf("sending %q: %v", c, err)
		}
	}
}

// safety bounds a wait that should succeed at once, so that a bug fails the
// test instead of hanging it; it is not a performance assertion.
const safety = 10 * time.Second

// expect reads lines until one starts with prefix and returns it with the
// lines read before it.
func (s *session) expect(prefix string) (string, []string) {
	s.t.Helper()
	var before []string
	timeout := time.After(safety)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			s.t.Fatalf("no %q line; got %q", prefix, before)
		}
	}
}

// sync sends isready and returns every line before readyok.
func (s *session) sync() []string {
	s.t.Helper()
	s.send("isready")
	_, before := s.expect("readyok")
	return before
}

func (s *session) quit() {
	s.t.Helper()
	s.send("quit")
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("Serve: %v", err)
		}
	case <-time.After(safety):
		s.t.Fatal("Serve did not return after quit")
	}
}

func TestServerHandshake(t *testing.T) {
	s := serve(t, nil)
	s.send("uci")
	_, lines := s.expect("uciok")
	want := []string{
		"id name uci-test-first-legal",
		"id author arena",
		"option name Move Index type spin default 0 min 0 max 500",
		"option name Block type check default false",
		"option name Style type combo default solid var solid var wild",
		"option name Book File type string default <empty>",
		"option name Ponder type check default false",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("uci answer:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	s.quit()
}

func TestServerSearch(t *testing.T) {
	s := serve(t, nil)
	s.send("uci", "ucinewgame", "position startpos moves e2e4 e7e5", "go movetime 50")
	best, before := s.expect("bestmove")
	pos := engines.Position{Moves: []string{"e2e4", "e7e5"}}
	enginetest.CheckLegal(t, pos, strings.Fields(best)[1])
	// The final line before bestmove has the search's total, not the count
	// of the last iteration's report.
	if got := before[len(before)-1]; got != "info depth 1 seldepth 2 score cp 12 nodes 34 nps 11333 time 3 pv "+strings.Fields(best)[1] {
		t.Errorf("final info line %q", got)
	}
	if got := before[len(before)-2]; got != "info depth 1 seldepth 2 score cp 12 nodes 29 nps 14500 time 2 pv "+strings.Fields(best)[1] {
		t.Errorf("iteration info line %q", got)
	}
	if got := before[len(before)-3]; got != "info string searching solid" {
		t.Errorf("info string line %q", got)
	}
	// Same engine instance for the next search; bestmove of a new position.
	s.send("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1 moves a1a8", "go depth 3")
	if best, _ := s.expect("bestmove"); best != "bestmove 0000" {
		t.Errorf("checkmated side: %q, want bestmove 0000", best)
	}
	s.quit()
}

func TestServerInfiniteWaitsForStop(t *testing.T) {
	s := serve(t, nil)
	// The engine returns at once, but go infinite must hold the bestmove.
	s.send("position startpos", "go infinite")
	for _, l := range s.sync() {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove %q before stop in go infinite", l)
		}
	}
	s.send("go depth 1")
	if l, _ := s.expect("info string already searching"); !strings.Contains(l, "go ignored") {
		t.Errorf("second go: %q", l)
	}
	s.send("stop")
	best, _ := s.expect("bestmove")
	enginetest.CheckLegal(t, engines.Position{}, strings.Fields(best)[1])
	for _, l := range s.sync() {
		if strings.HasPrefix(l, "bestmove") {
			t.Errorf("a second bestmove %q for one go", l)
		}
	}
	s.quit()
}

func TestServerStopBlockingEngine(t *testing.T) {
	s := serve(t, map[string]string{"block": "true"})
	s.send("position startpos", "go wtime 1000 btime 1000")
	s.sync() // isready is answered while the engine is busy
	s.send("stop")
	best, _ := s.expect("bestmove")
	enginetest.CheckLegal(t, engines.Position{}, strings.Fields(best)[1])
	// quit during a search stops it and answers its bestmove first.
	s.send("go infinite", "quit")
	s.expect("bestmove")
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

func TestServerMalformedCommands(t *testing.T) {
	s := serve(t, nil)
	s.send("position startpos moves e2e4", "go depth 1")
	before, _ := s.expect("bestmove")
	for _, tc := range []struct{ cmd, want string }{
		{"xyzzy 1 2", "info string unknown command: xyzzy 1 2"},
		{"position", `info string error: invalid position: expected "startpos" or "fen <FEN>"`},
		{"position somewhere", `info string error: invalid position: expected "startpos" or "fen" after "position", got "somewhere"`},
		{"position fen", `info string error: invalid position: no FEN after "position fen"`},
		{"position startpos e2e4", `info string error: invalid position: expected "moves" after the position, got "e2e4"`},
		{"position fen 8/8/8 w - - 0 1", "info string error: invalid position:"},
		{"position startpos moves e2e4 e2e4", "info string error: invalid position:"},
		{"setoption", `info string setoption: expected "setoption name <name> value <value>"`},
		{"setoption name Nope value 3", `info string setoption: unknown option "Nope" (options of uci-test-first-legal: Move Index, Block, Style, Book File)`},
		{"setoption name Move Index value many", `info string setoption: option Move Index: "many" is not an integer`},
		{"setoption name Move Index value 501", "info string setoption: option Move Index: 501 is out of range (expected 0..500)"},
		{"setoption name Block value perhaps", "info string setoption: option Block:"},
		{"setoption name Style value baroque", `info string setoption: option Style: "baroque" is not one of solid, wild`},
	} {
		s.send(tc.cmd)
		got := s.sync()
		if len(got) != 1 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%q answered %q, want one line starting %q", tc.cmd, got, tc.want)
		}
	}
	// After a rejected position, go refuses to search (the previous
	// position belongs to another game): an error line, then no move.
	s.send("go depth 1")
	refused, lines := s.expect("bestmove")
	if refused != "bestmove 0000" || len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], "info string error: no search, the last position was rejected: ") {
		t.Errorf("go after a rejected position: %q, want an error line and bestmove 0000", lines)
	}
	// Bad go parameters are reported and ignored; a bestmove still comes,
	// for the position (after 1.e4) with the unchanged options.
	s.send("position startpos moves e2e4")
	s.send("go depth x movetime 10 searchmoves e2e4 nodes")
	after, lines := s.expect("bestmove")
	for _, w := range []string{`info string go: depth "x" is not an integer, ignored`, `info string go: unsupported parameter "searchmoves" ignored`, `info string go: unsupported parameter "e2e4" ignored`, "info string go: nodes needs a number"} {
		if !contains(lines, w) {
			t.Errorf("go with bad parameters: no %q in %q", w, lines)
		}
	}
	if after != before {
		t.Errorf("after rejected commands: %q, want the unchanged %q", after, before)
	}
	s.quit()
}

func contains(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}

func TestServerSetOptionRebuildsEngine(t *testing.T) {
	s := serve(t, map[string]string{"Move Index": "1"})
	search := func() string {
		s.send("position startpos", "go depth 1")
		best, _ := s.expect("bestmove")
		return strings.Fields(best)[1]
	}
	first := search()
	s.send("setoption name move index value 2", "setoption name Style value WILD")
	if got := s.sync(); len(got) != 0 {
		t.Errorf("valid setoption answered %q", got)
	}
	s.send("position startpos", "go depth 1")
	best, lines := s.expect("bestmove")
	if strings.Fields(best)[1] == first {
		t.Errorf("Move Index 1 and 2 both played %s: options not applied", first)
	}
	if !contains(lines, "info string searching wild") {
		t.Errorf("combo value not applied (case-normalised): %q", lines)
	}
	n := testNewGames
	s.send("ucinewgame")
	search()
	if testNewGames != n+1 {
		t.Errorf("ucinewgame: NewGame called %d times, want 1", testNewGames-n)
	}
	s.quit()
}

// ucinewgame's work is done at isready, not at the next go: the arena waits
// for readyok before it starts the clock of the game's first move.
func TestServerNewGameAtIsReady(t *testing.T) {
	s := serve(t, nil)
	n := testNewGames
	s.send("ucinewgame")
	s.sync()
	if testNewGames != n+1 {
		t.Fatalf("after ucinewgame and readyok: NewGame called %d times, want 1", testNewGames-n)
	}
	s.send("position startpos", "go depth 1")
	s.expect("bestmove")
	if testNewGames != n+1 {
		t.Errorf("go after readyok called NewGame again (%d calls)", testNewGames-n)
	}
	s.quit()
}

func TestServerBadInitialOptions(t *testing.T) {
	err := Serve(testSpec, map[string]string{"Move Index": "-1"}, strings.NewReader(""), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "Move Index") || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("Serve with a bad initial option: %v", err)
	}
}

func TestServerEndOfInputStopsSearch(t *testing.T) {
	var out syncBuffer
	err := Serve(testSpec, map[string]string{"Block": "true"}, strings.NewReader("position startpos\ngo infinite\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "bestmove ") {
		t.Errorf("no bestmove after EOF during go infinite: %q", out.String())
	}
}

// syncBuffer is a strings.Builder safe for the server's two writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestClientAgainstServer drives the in-process server with the client over
// pipes: each side checks the other's protocol handling.
func TestClientAgainstServer(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		err := Serve(testSpec, nil, inR, outW)
		outW.Close()
		served <- err
	}()
	c, err := Connect(context.Background(), outR, inW, ClientConfig{Command: "arena uci", Options: map[string]string{"style": "wild", "Move Index": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != testSpec.Name {
		t.Errorf("Name() = %q", c.Name())
	}
	if got, want := fmt.Sprint(c.Options()), fmt.Sprint(append(testSpec.Options, uciPonder)); got != want {
		t.Errorf("Options() = %s, want %s", got, want)
	}
	c.NewGame()
	pos := engines.Position{FEN: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", Moves: []string{"f1c4"}}
	var infos []engines.Info
	res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 2}, func(in engines.Info) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	// The iteration's report, then the final total.
	if len(infos) != 3 || infos[0].String != "searching wild" || infos[1].Depth != 1 || infos[1].Score.CP != 12 || infos[1].Time != 2*time.Millisecond ||
		infos[2].Nodes != infos[1].Nodes+5 || infos[2].Time != 3*time.Millisecond {
		t.Errorf("infos %+v", infos)
	}
	// The client keeps the total, not the iteration's count.
	if res.Depth != 1 || res.SelDepth != 2 || res.Score.CP != 12 || len(res.PV) != 1 || res.PV[0] != res.Move || res.Nodes != infos[2].Nodes {
		t.Errorf("result %+v", res)
	}
	// go infinite: the server holds the bestmove until the client's stop.
	ctx, cancel := context.WithCancel(context.Background())
	res, err = c.Search(ctx, pos, engines.Limits{Infinite: true}, func(in engines.Info) {
		if in.String == "" {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckLegal(t, pos, res.Move)
	// A position the built-in engine cannot accept is an engine error (the
	// arena records the game as abandoned by that engine), not a move
	// from the previous position.
	bad := engines.Position{FEN: "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"}
	if res, err := c.Search(context.Background(), bad, engines.Limits{Depth: 1}, nil); err == nil ||
		!strings.Contains(err.Error(), "gave no move: error: no search, the last position was rejected: fen") || res.Move != "" {
		t.Errorf("search of two white kings: %+v, error %v; want an error naming the rejected position", res, err)
	}
	if res, err := c.Search(context.Background(), pos, engines.Limits{Depth: 1}, nil); err != nil {
		t.Errorf("search after a rejected position: %v", err)
	} else {
		enginetest.CheckLegal(t, pos, res.Move)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// writeLog records each write the server makes.
type writeLog struct {
	mu     sync.Mutex
	writes []string
}

func (w *writeLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

func (w *writeLog) all() (string, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.writes, ""), len(w.writes)
}

// Info lines are held back and go out with the next line, in order; held
// lines with nothing after them go out within infoDelay.
func TestServerHoldsInfoLines(t *testing.T) {
	out := &writeLog{}
	s, err := NewServer(testSpec, nil, out)
	if err != nil {
		t.Fatal(err)
	}
	s.printInfo("info depth 1")
	s.printInfo("info depth 2")
	if text, n := out.all(); n != 0 && !strings.HasPrefix("info depth 1\ninfo depth 2\n", text) {
		t.Fatalf("before the next line: %d writes %q", n, text)
	}
	s.println("bestmove e2e4")
	if text, _ := out.all(); text != "info depth 1\ninfo depth 2\nbestmove e2e4\n" {
		t.Fatalf("after bestmove: %q", text)
	}
	s.printInfo("info depth 3")
	deadline := time.Now().Add(10 * time.Second)
	for {
		text, _ := out.all()
		if strings.HasSuffix(text, "bestmove e2e4\ninfo depth 3\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a held line with nothing after it was not written: %q", text)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
