// Package uci connects arena to the Universal Chess Interface: a client that
// runs an external engine process as an engines.Engine, and a server that
// exposes a built-in engine over UCI so GUIs and match runners
// (cutechess-cli, fastchess) can play it.
//
// The client trusts nothing it is given or told. Its one write (sendAt)
// refuses a line with a control character, so no field can inject a
// command; every search is "position", "isready", "go" in one write, and
// what the engine says before that readyok is an earlier search's and
// dropped; on Linux the kernel kills every engine it starts when the arena
// dies (proc_linux.go), since a hung engine would otherwise outlive it.
package uci

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"arena/engines"
)

// Defaults for ClientConfig's timeouts.
const (
	// DefaultStartTimeout bounds uciok and readyok. Stockfish answers in
	// milliseconds on an idle machine but took over 10 s on this project's
	// 2-core machine under a load of 30, so the default leaves room.
	DefaultStartTimeout = 30 * time.Second
	// DefaultNewGameTimeout and DefaultPingTimeout are fastchess's
	// (-ucinewgame-ms and -ping-ms default to 60000): an engine may clear
	// a large hash at ucinewgame.
	DefaultNewGameTimeout = 60 * time.Second
	DefaultPingTimeout    = 60 * time.Second
	DefaultStopGrace      = time.Second
	DefaultSearchMargin   = 5 * time.Second
)

// quitWait is how long Close lets the engine exit on "quit" before killing it.
const quitWait = 500 * time.Millisecond

// exitWait bounds the waits for a process that should be gone (it closed its
// output, or was sent SIGKILL), so that a process stuck in the kernel cannot
// hang the client.
const exitWait = 2 * time.Second

// maxLineLen bounds one line of engine output (a long PV is a few KB).
const maxLineLen = 1 << 20

// Timeouts bound the engine's answers outside a search; zero fields take
// the defaults. StartTimeout bounds the start-up: uciok, and readyok after
// the options (default DefaultStartTimeout), and a write the engine does
// not read. NewGameTimeout bounds readyok after ucinewgame (default
// DefaultNewGameTimeout); PingTimeout every other readyok, after SetOption
// (default DefaultPingTimeout). They are fastchess's -startup-ms,
// -ucinewgame-ms and -ping-ms.
type Timeouts struct {
	StartTimeout   time.Duration
	NewGameTimeout time.Duration
	PingTimeout    time.Duration
}

// ClientConfig says how to run an external UCI engine.
type ClientConfig struct {
	Command string   // program name (looked up with LocateEngine) or path
	Args    []string // arguments to the program
	Dir     string   // working directory; empty: the current one

	// Options are sent with setoption after uciok. Names match the engine's
	// options case-insensitively; an unknown name is an error listing the
	// engine's options, and check/spin/combo values are validated.
	Options map[string]string

	Stderr io.Writer // receives the engine's stderr; nil discards it

	// Log, when set, receives every line sent to and read from the engine
	// with a timestamp (the UCI traffic log; see logLine).
	Log io.Writer

	Timeouts
	StopGrace time.Duration // wait for bestmove after "stop" before killing (default 1s)

	// SearchMargin: when a time-limited search (movetime or clock) has run
	// this long past its budget, the client sends "stop" itself, so a hung
	// engine cannot hang a caller that passed no deadline (default 5s).
	SearchMargin time.Duration
}

func (cfg *ClientConfig) setDefaults() {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.NewGameTimeout <= 0 {
		cfg.NewGameTimeout = DefaultNewGameTimeout
	}
	if cfg.PingTimeout <= 0 {
		cfg.PingTimeout = DefaultPingTimeout
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = DefaultStopGrace
	}
	if cfg.SearchMargin <= 0 {
		cfg.SearchMargin = DefaultSearchMargin
	}
}

// Client is a running UCI engine. It implements engines.Engine; like every
// engine it handles one Search at a time, but Close may be called from
// another goroutine to abort a search.
type Client struct {
	cfg     ClientConfig
	command string // as configured, for error messages
	name    string // "id name"
	options []engines.Option

	wmu  sync.Mutex
	w    io.Writer // the engine's stdin
	wbuf []byte    // sendAt's lines, reused under wmu

	logMu sync.Mutex // serializes cfg.Log between the reader and senders

	// lineReader reads the engine's stdout (lines.go), in the goroutine
	// that waits for it.
	lineReader
	// readerDone is closed when Close has drained the output and no
	// goroutine of the client reads it any more.
	readerDone  chan struct{}
	sourceDone  chan struct{} // asyncSource's goroutine has returned; nil without one
	interruptFn func()        // c.interrupt, for wakeOn

	pid     int
	exited  chan struct{} // closed when the engine has exited (or, connected, closed its output)
	status  func() string // how it exited; valid once exited is closed
	kill    func()        // kills the engine (or closes the connection)
	cleanup func()        // releases pipes once the engine is gone

	closing   chan struct{} // closed by Close
	closeOnce sync.Once

	// newGameErr is a failed NewGame (which cannot return an error) reported
	// by the next Search.
	newGameErr error

	// ponder is the ponder search running (Ponder), nil when none.
	ponder *ponderSearch

	// infoDropped counts info values dropped as unparsable or absurd;
	// firstDropped names the first. Written by Search only.
	infoDropped  int
	firstDropped string

	// search is the running search's state, and takeFn its line
	// handler (search.take), made once; used by Search only.
	search searchState
	takeFn func(outLine) bool

	// lastLim and lastGo are the last search's limits and go command.
	lastLim engines.Limits
	lastGo  string
}

// InfoDropped returns how many info values the engine sent that were not
// numbers or were absurd (negative nodes, a mate in a billion moves) and so
// were dropped, and the first of them ("nodes -5"). Call it between
// searches.
func (c *Client) InfoDropped() (int, string) { return c.infoDropped, c.firstDropped }

var _ engines.Engine = (*Client)(nil)

// Start runs an engine, performs the UCI handshake (uci/uciok), sets
// cfg.Options and waits for readyok. ctx bounds the start-up only; the process
// lives until Close.
func Start(ctx context.Context, cfg ClientConfig) (*Client, error) {
	cfg.setDefaults()
	path, err := LocateEngine(cfg.Command)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, cfg.Args...)
	cmd.Dir = cfg.Dir
	setProcessGroup(cmd)
	// Own pipes rather than cmd.StdinPipe/StdoutPipe: Wait must not close
	// stdout under the reader (output written just before a crash would be
	// lost), and an *os.File stdin supports write deadlines.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", cfg.Command, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("engine %s: %w", cfg.Command, err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	tail := &tailBuffer{}
	if cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(tail, ignoreErrors{cfg.Stderr})
	} else {
		cmd.Stderr = tail
	}
	// Grandchildren holding stderr open must not block Wait forever.
	cmd.WaitDelay = time.Second
	err = startProcess(cmd)
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("engine %s: start %s: %w", cfg.Command, path, err)
	}
	c := newClient(cfg, newPipeWriter(inW), newPipeReader(outR))
	c.pid = cmd.Process.Pid
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
		// A search waiting for the engine's output looks at the exit:
		// a process whose output a child holds open gives no end of it.
		c.interrupt()
	}()
	c.exited = exited
	c.status = func() string {
		s := "exit status unknown"
		if cmd.ProcessState != nil {
			s = cmd.ProcessState.String()
		} else if waitErr != nil {
			s = waitErr.Error()
		}
		if t := tail.String(); t != "" {
			s += "; stderr: " + t
		}
		return s
	}
	c.kill = func() { killProcessGroup(cmd) }
	c.cleanup = func() {
		inW.Close()
		outR.Close()
	}
	if err := c.handshake(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Connect speaks UCI over an existing connection instead of a process: out
// is the engine's input, in its output. It performs the same handshake as
// Start (cfg.Command only names the engine in errors; Args and Dir are
// unused). Close sends quit and closes out (and in, if it is an io.Closer).
func Connect(ctx context.Context, in io.Reader, out io.WriteCloser, cfg ClientConfig) (*Client, error) {
	cfg.setDefaults()
	if cfg.Command == "" {
		cfg.Command = "connection"
	}
	c := newClient(cfg, out, nil)
	// A reader without deadlines is read in a goroutine of its own; its
	// end is the connection's.
	a := newAsyncSource(in, c.closing)
	c.src, c.sourceDone = a, a.done
	c.exited = a.done
	c.status = func() string { return "connection closed" }
	closeAll := func() {
		out.Close()
		if rc, ok := in.(io.Closer); ok {
			rc.Close()
		}
	}
	c.kill = closeAll
	c.cleanup = closeAll
	if err := c.handshake(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func newClient(cfg ClientConfig, w io.Writer, r lineSource) *Client {
	c := &Client{
		cfg:        cfg,
		command:    cfg.Command,
		w:          w,
		readerDone: make(chan struct{}),
		closing:    make(chan struct{}),
	}
	c.src = r
	if c.raw = rawConnOf(r); c.raw != nil {
		c.rawFn = c.rawRead
	}
	c.interruptFn = c.interrupt // made once: a method value per search allocates
	c.takeFn = c.search.take
	return c
}

// Name is the engine's "id name", or its command when it sent none.
func (c *Client) Name() string {
	if c.name != "" {
		return c.name
	}
	return filepath.Base(c.command)
}

// PID is the engine's process id (0 for a Connect client).
func (c *Client) PID() int { return c.pid }

// Options returns the options the engine announced.
func (c *Client) Options() []engines.Option {
	return append([]engines.Option(nil), c.options...)
}

// Exited reports whether the engine process has died (for a Connect client:
// whether its output was closed).
func (c *Client) Exited() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// Close sends quit, gives the engine a moment to exit, then kills it. It
// reads the engine's output meanwhile (so the engine never blocks on a
// full pipe) and returns when nothing of the client reads it any more, so
// no goroutine outlives it. It is idempotent and safe to call from
// another goroutine while a Search runs (which then fails), but not from
// the Search's InfoFunc: the search's read of the output would wait for
// the callback, and Close for the read.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		close(c.closing)
		// Someone must read the engine's output while it shuts down: a
		// search still running does, and drain once it has returned.
		drained := make(chan struct{})
		go c.drain(drained)
		_ = c.send("quit")
		select {
		case <-c.exited:
		case <-time.After(quitWait):
			c.kill()
			select {
			case <-c.exited:
			case <-time.After(exitWait):
			}
		}
		// Processes the engine started (a wrapper's child, a helper
		// server) may outlive it, after a crash as after quit: end its
		// whole process group.
		c.kill()
		c.cleanup()
		<-drained
		if c.sourceDone != nil {
			<-c.sourceDone
		}
		close(c.readerDone)
	})
	return nil
}
