package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/engines"
	"arena/engines/board"
)

// Server exposes a built-in engine over UCI. It reads commands on one
// goroutine and searches on another, so "isready" and "stop" are answered
// while a search runs; all output goes through one mutex.
//
// A search's info lines are held back for at most infoDelay and written
// together with the next line, bestmove included: a search of a few
// milliseconds then reaches the GUI in one write instead of one per
// iteration, which saves the reading side (the arena) a wake-up, a read and
// a goroutine hand-off per line, the biggest share of its per-move work
// with short node-limited searches. No line is reordered, and bestmove,
// readyok and everything else go out at once.
type Server struct {
	spec engines.Spec
	// user holds the options set by --option and setoption, only those:
	// the engine is built from spec.Resolve(user), so a value set here wins
	// over the preset whichever arrived first.
	user engines.Options

	omu     sync.Mutex
	out     io.Writer
	outErr  error  // the first failed write, returned by Run
	held    []byte // info lines not written yet
	flusher *time.Timer
	armed   bool // flusher will write held

	eng     engines.Engine
	rebuild bool // options changed since eng was built
	newGame bool // ucinewgame arrived since the last search

	pos    engines.Position
	posErr error // the last "position" was rejected: "go" answers with an error

	// ponder is the running ponder search ("go ponder"), nil when none.
	ponder *serverPonder

	// Of the last search: answered is closed just before its bestmove is
	// written (a GUI may send the next go as soon as it reads it, so the
	// search must count as over by then); done once the goroutine is gone.
	cancel   context.CancelFunc
	answered chan struct{}
	done     chan struct{}
}

// NewServer validates the initial option values against spec, builds the
// engine and returns a server writing to out. Building it here rather than at
// the first "go" makes a bad option (a model file that does not load) fail
// the process at start, where a GUI or the arena reports it, instead of as a
// lost game; options changed later with setoption rebuild it at the next "go".
func NewServer(spec engines.Spec, initial map[string]string, out io.Writer) (*Server, error) {
	user, err := spec.UserValues(initial)
	if err != nil {
		return nil, err
	}
	eng, err := newEngine(spec, user)
	if err != nil {
		return nil, fmt.Errorf("cannot create engine %s: %w", spec.Name, err)
	}
	return &Server{spec: spec, user: user, out: out, eng: eng}, nil
}

// Serve runs a UCI session for spec on in/out until "quit" or the end of in.
func Serve(spec engines.Spec, initial map[string]string, in io.Reader, out io.Writer) error {
	s, err := NewServer(spec, initial, out)
	if err != nil {
		return err
	}
	return s.Run(in)
}

// Run reads commands from in until "quit" or EOF, then stops any search,
// closes the engine and returns the first read or write error.
func (s *Server) Run(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), maxLineLen)
	for sc.Scan() {
		if !s.handle(sc.Text()) {
			break
		}
	}
	s.stop()
	if s.eng != nil {
		if err := s.eng.Close(); err != nil {
			s.println("info string closing engine: " + err.Error())
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("uci: reading commands: %w", err)
	}
	s.omu.Lock()
	defer s.omu.Unlock()
	return s.outErr
}

// infoDelay bounds how long an info line is held back.
const infoDelay = 50 * time.Millisecond

// println writes one line, after the held info lines.
func (s *Server) println(line string) {
	s.omu.Lock()
	defer s.omu.Unlock()
	s.held = append(append(s.held, line...), '\n')
	s.writeHeld()
	if s.armed {
		// Nothing is left for the timer: it would only wake the process.
		s.flusher.Stop()
		s.armed = false
	}
}

// printInfo holds an info line back for at most infoDelay.
func (s *Server) printInfo(line string) {
	s.omu.Lock()
	defer s.omu.Unlock()
	s.held = append(append(s.held, line...), '\n')
	if s.armed {
		return
	}
	s.armed = true
	if s.flusher == nil {
		s.flusher = time.AfterFunc(infoDelay, s.flushHeld)
	} else {
		s.flusher.Reset(infoDelay)
	}
}

// flushHeld writes the held info lines (the flusher's timer).
func (s *Server) flushHeld() {
	s.omu.Lock()
	defer s.omu.Unlock()
	s.armed = false
	s.writeHeld()
}

// writeHeld writes the held lines in one write. Writers with a Flush method
// (bufio.Writer) are flushed so a GUI sees them at once. omu is held.
func (s *Server) writeHeld() {
	if len(s.held) == 0 {
		return
	}
	data := s.held
	s.held = s.held[:0]
	if s.outErr != nil {
		return
	}
	if _, err := s.out.Write(data); err != nil {
		s.outErr = fmt.Errorf("uci: writing %q: %w", strings.TrimSpace(string(data)), err)
		return
	}
	if f, ok := s.out.(interface{ Flush() error }); ok {
		if err := f.Flush(); err != nil {
			s.outErr = fmt.Errorf("uci: writing %q: %w", strings.TrimSpace(string(data)), err)
		}
	}
}

// handle executes one command line; it returns false on "quit".
func (s *Server) handle(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		s.println("id name " + s.spec.Name)
		s.println("id author arena")
		for _, o := range s.spec.Options {
			s.println(formatOption(Declared(o)))
		}
		if _, own := s.spec.Option(uciPonder.Name); !own {
			s.println(formatOption(uciPonder))
		}
		s.println("uciok")
	case "isready":
		// Work the next "go" would do first (a rebuild after setoption,
		// the engine's NewGame after ucinewgame: clearing or allocating
		// its tables) is done here, so that it is not charged to the
		// first move's clock: the arena waits for readyok after
		// ucinewgame, before the clock starts. During a search isready is
		// answered at once, as UCI requires. An engine that cannot be
		// built still answers readyok (after the reason); the next "go"
		// then refuses with it.
		if !s.searching() {
			s.prepare()
		}
		s.println("readyok")
	case "debug":
		// Accepted and ignored: there is no debug output.
	case "ponderhit":
		s.ponderHit()
	case "ucinewgame":
		s.newGame = true
	case "setoption":
		if err := s.setOption(f[1:]); err != nil {
			s.println("info string " + err.Error())
		}
	case "position":
		// A rejected position is remembered, not replaced by the previous
		// one: searching that instead would play a move from another game.
		s.pos, s.posErr = parsePosition(f[1:])
		if s.posErr != nil {
			s.println("info string error: invalid position: " + s.posErr.Error())
		}
	case "go":
		if s.posErr != nil {
			// The GUI waits for a bestmove; the error line before it is
			// how the arena's client tells a refusal from a move.
			s.println("info string error: no search, the last position was rejected: " + s.posErr.Error())
			s.println("bestmove 0000")
			return true
		}
		s.startSearch(f[1:])
	case "stop":
		s.ponder = nil
		if s.cancel != nil {
			s.cancel()
		}
	case "quit":
		return false
	default:
		s.println("info string unknown command: " + strings.Join(f, " "))
	}
	return true
}

// setOption applies "setoption name <N> value <V>" (fields after
// "setoption"); names and values may contain spaces.
func (s *Server) setOption(f []string) error {
	if len(f) == 0 || f[0] != "name" {
		return fmt.Errorf("setoption: expected \"setoption name <name> value <value>\", got %q", strings.Join(append([]string{"setoption"}, f...), " "))
	}
	nameEnd := len(f)
	for i := 1; i < len(f); i++ {
		if f[i] == "value" {
			nameEnd = i
			break
		}
	}
	name := strings.Join(f[1:nameEnd], " ")
	value := ""
	if nameEnd < len(f) {
		value = strings.Join(f[nameEnd+1:], " ")
	}
	o, ok := s.spec.Option(name)
	if !ok && strings.EqualFold(name, uciPonder.Name) {
		// The GUI's permission to ponder: every built-in engine can, and
		// nothing about its search changes, so the value is only checked.
		if _, err := uciPonder.Check(value); err != nil {
			return fmt.Errorf("setoption: %w", err)
		}
		return nil
	}
	if !ok {
		valid := make([]string, len(s.spec.Options))
		for i, o := range s.spec.Options {
			valid[i] = o.Name
		}
		return fmt.Errorf("setoption: unknown option %q (options of %s: %s)", name, s.spec.Name, strings.Join(valid, ", "))
	}
	norm, err := o.Check(value)
	if err != nil {
		return fmt.Errorf("setoption: %w", err)
	}
	v, set := s.user[o.Name]
	switch {
	case norm == engines.FromPreset && set:
		delete(s.user, o.Name)
		s.rebuild = true
	case norm != engines.FromPreset && (!set || v != norm):
		s.user[o.Name] = norm
		s.rebuild = true
	}
	return nil
}

// Declared is how option o is declared over UCI (the reference shows it
// beside the option). An option a preset sets is declared with the default
// engines.FromPreset, its value until a client sets another: clients such as
// python-chess send only values that differ from the declared default, so a
// default of false would make "lmr false" unsendable under preset strong,
// which turns lmr on. A check becomes a combo of preset, true and false,
// also spelt True and False, as Python's str() of a bool gives them
// (python-chess sends a combo value as str() of what the caller passed, and
// refuses one not among the vars); a combo gains the value preset; a spin
// becomes a string (a UCI spin holds integers only; the value is checked
// against the range all the same, and arena engines shows the range).
func Declared(o engines.Option) engines.Option {
	if !o.ByPreset {
		return o
	}
	d := engines.Option{Name: o.Name, Default: engines.FromPreset, Help: o.Help}
	switch o.Type {
	case engines.Check:
		d.Type, d.Vars = engines.Combo, []string{engines.FromPreset, "true", "false", "True", "False"}
	case engines.Combo:
		d.Type, d.Vars = engines.Combo, append([]string{engines.FromPreset}, o.Vars...)
	default:
		d.Type = engines.String
	}
	return d
}

// newEngine builds spec's engine from the user's option values, layered
// over the engine's defaults and preset.
func newEngine(spec engines.Spec, user engines.Options) (engines.Engine, error) {
	opts, err := spec.Resolve(user)
	if err != nil {
		return nil, err
	}
	return spec.New(opts)
}

// parsePosition parses the fields after "position" and checks that the
// position and every move are legal.
func parsePosition(f []string) (engines.Position, error) {
	var pos engines.Position
	if len(f) == 0 {
		return pos, fmt.Errorf("expected \"startpos\" or \"fen <FEN>\" after \"position\"")
	}
	i := 1
	switch f[0] {
	case "startpos":
	case "fen":
		for i < len(f) && f[i] != "moves" {
			i++
		}
		if i == 1 {
			return pos, fmt.Errorf("no FEN after \"position fen\"")
		}
		pos.FEN = strings.Join(f[1:i], " ")
	default:
		return pos, fmt.Errorf("expected \"startpos\" or \"fen\" after \"position\", got %q", f[0])
	}
	if i < len(f) {
		if f[i] != "moves" {
			return pos, fmt.Errorf("expected \"moves\" after the position, got %q", f[i])
		}
		pos.Moves = append([]string(nil), f[i+1:]...)
	}
	if _, err := board.FromGame(pos.StartFENOrDefault(), pos.Moves); err != nil {
		return engines.Position{}, err
	}
	return pos, nil
}

// parseGo parses the fields after "go". Bad or unsupported parameters are
// reported in problems and otherwise ignored, as a GUI expects a bestmove
// for every go. hold is set for "go infinite" (or a go without limits): the
// bestmove must then wait for "stop" even if the engine finishes early.
func parseGo(f []string) (lim engines.Limits, hold bool, problems []string) {
	number := func(i int) (int64, bool) {
		if i+1 >= len(f) {
			problems = append(problems, fmt.Sprintf("go: %s needs a number", f[i]))
			return 0, false
		}
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			problems = append(problems, fmt.Sprintf("go: %s %q is not an integer, ignored", f[i], f[i+1]))
			return 0, false
		}
		return n, true
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case "infinite":
			lim.Infinite = true
		case "movetime", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes":
			n, ok := number(i)
			if i+1 < len(f) {
				i++
			}
			if !ok {
				continue
			}
			switch f[i-1] {
			case "movetime":
				lim.MoveTime = ms(n)
			case "wtime":
				lim.WTime = ms(n)
			case "btime":
				lim.BTime = ms(n)
			case "winc":
				lim.WInc = ms(n)
			case "binc":
				lim.BInc = ms(n)
			case "movestogo":
				lim.MovesToGo = int(n)
			case "depth":
				lim.Depth = int(n)
			case "nodes":
				lim.Nodes = n
			}
		default:
			problems = append(problems, fmt.Sprintf("go: unsupported parameter %q ignored", f[i]))
		}
	}
	hold = lim.Unbounded()
	return lim, hold, problems
}

// searching reports whether a search has not answered bestmove yet.
func (s *Server) searching() bool {
	if s.answered == nil {
		return false
	}
	select {
	case <-s.answered:
		return false
	default:
		return true
	}
}

func (s *Server) startSearch(f []string) {
	if s.searching() {
		s.println("info string already searching; go ignored (send stop first)")
		return
	}
	f, ponder := withoutPonder(f)
	lim, hold, problems := parseGo(f)
	for _, p := range problems {
		s.println("info string " + p)
	}
	if opts, err := s.spec.Resolve(s.user); err == nil {
		lim.Overhead = time.Duration(opts.Int(engines.MoveOverheadOption)) * time.Millisecond
	}
	if !s.prepare() {
		// The GUI waits for a bestmove whatever happens.
		s.println("bestmove 0000")
		return
	}
	var pd *serverPonder
	if ponder {
		pd = &serverPonder{lim: lim, hold: hold}
		lim, hold = engines.Limits{Infinite: true}, true
	}
	s.ponder = pd
	s.launch(lim, hold, pd)
}

// launch runs a search on its own goroutine; pd is the ponder search's
// state when it is one.
func (s *Server) launch(lim engines.Limits, hold bool, pd *serverPonder) {
	if s.cancel != nil {
		s.cancel() // releases the finished search's context
	}
	ctx, cancel := context.WithCancel(context.Background())
	answered, done := make(chan struct{}), make(chan struct{})
	s.cancel, s.answered, s.done = cancel, answered, done
	eng, pos := s.eng, s.pos
	go func() {
		defer close(done)
		res, err := eng.Search(ctx, pos, lim, func(in engines.Info) { s.printInfo(formatInfo(in)) })
		if err != nil {
			s.println("info string search error: " + err.Error())
		}
		if hold {
			<-ctx.Done()
		}
		if pd != nil && pd.hit.Load() {
			// ponderhit: the search started then answers instead.
			close(answered)
			return
		}
		// Iteration lines report the nodes at the end of an iteration; the
		// final line carries the total searched, which a GUI or the arena
		// keeps as the count of the move (the last "info" before bestmove).
		s.printInfo(formatFinalInfo(res))
		best := "bestmove " + res.Move
		if res.Move == "" {
			best = "bestmove 0000"
		} else if res.Ponder != "" {
			best += " ponder " + res.Ponder
		}
		close(answered)
		s.println(best)
	}()
}

// prepare builds the engine if options changed and starts its new game
// if ucinewgame came; it reports false (after an info string) when the
// engine cannot be built.
func (s *Server) prepare() bool {
	if s.rebuild || s.eng == nil {
		if s.eng != nil {
			if err := s.eng.Close(); err != nil {
				s.println("info string closing engine: " + err.Error())
			}
			s.eng = nil
		}
		eng, err := newEngine(s.spec, s.user)
		if err != nil {
			s.println("info string cannot create engine " + s.spec.Name + ": " + err.Error())
			return false
		}
		s.eng, s.rebuild, s.newGame = eng, false, false
	}
	if s.newGame {
		s.eng.NewGame()
		s.newGame = false
	}
	return true
}

// stop cancels a running search and waits for its bestmove.
func (s *Server) stop() {
	if s.cancel != nil {
		s.cancel()
	}
	if s.done != nil {
		<-s.done
	}
}
