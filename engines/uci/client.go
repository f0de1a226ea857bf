// Package uci connects arena to the Universal Chess Interface: a client that
// runs an external engine process as an engines.Engine, and a server that
// exposes a built-in engine over UCI so GUIs and match runners
// (cutechess-cli, fastchess) can play it.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"arena/engines"
)

// Defaults for ClientConfig's timeouts.
const (
	DefaultStartTimeout = 10 * time.Second
	DefaultStopGrace    = time.Second
	DefaultSearchMargin = 5 * time.Second
)

// quitWait is how long Close lets the engine exit on "quit" before killing it.
const quitWait = 500 * time.Millisecond

// exitWait bounds the waits for a process that should be gone (it closed its
// output, or was sent SIGKILL), so that a process stuck in the kernel cannot
// hang the client.
const exitWait = 2 * time.Second

// maxLineLen bounds one line of engine output (a long PV is a few KB).
const maxLineLen = 1 << 20

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

	StartTimeout time.Duration // uciok/readyok timeout (default 10s)
	StopGrace    time.Duration // wait for bestmove after "stop" before killing (default 1s)

	// SearchMargin: when a time-limited search (movetime or clock) has run
	// this long past its budget, the client sends "stop" itself, so a hung
	// engine cannot hang a caller that passed no deadline (default 5s).
	SearchMargin time.Duration
}

func (cfg *ClientConfig) setDefaults() {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
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

	wmu sync.Mutex
	w   io.Writer // the engine's stdin

	logMu sync.Mutex // serializes cfg.Log between the reader and senders

	lines      chan outLine  // the engine's stdout, one line at a time; closed at EOF
	readErr    error         // why reading stopped early; valid once lines is closed
	readerDone chan struct{} // the reader goroutine has returned

	pid     int
	exited  chan struct{} // closed when the engine has exited (or, connected, closed its output)
	status  func() string // how it exited; valid once exited is closed
	kill    func()        // kills the engine (or closes the connection)
	cleanup func()        // releases pipes once the engine is gone

	closing   chan struct{} // closed by Close: the reader discards lines from then on
	closeOnce sync.Once

	// newGameErr is a failed NewGame (which cannot return an error) reported
	// by the next Search.
	newGameErr error

	// infoDropped counts info values dropped as unparsable or absurd;
	// firstDropped names the first. Written by Search only.
	infoDropped  int
	firstDropped string
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
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("engine %s: start %s: %w", cfg.Command, path, err)
	}
	c := newClient(cfg, inW, outR)
	c.pid = cmd.Process.Pid
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
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
	c := newClient(cfg, out, in)
	c.exited = c.readerDone
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

func newClient(cfg ClientConfig, w io.Writer, r io.Reader) *Client {
	c := &Client{
		cfg:        cfg,
		command:    cfg.Command,
		w:          w,
		lines:      make(chan outLine, 256),
		readerDone: make(chan struct{}),
		closing:    make(chan struct{}),
	}
	go c.read(r)
	return c
}

// outLine is a line of the engine's output and when it was read.
type outLine struct {
	text string
	at   time.Time
}

// read is the single reader of the engine's output. It stamps each line as
// it comes off the pipe, so that a move's time (go to bestmove) does not
// include the wait in the channel or the parsing of the info lines before
// it. After Close it keeps draining (discarding) so that the engine never
// blocks on a full pipe while it is being shut down.
func (c *Client) read(r io.Reader) {
	defer close(c.readerDone)
	defer close(c.lines)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLineLen)
	for sc.Scan() {
		l := outLine{strings.TrimRight(sc.Text(), "\r"), time.Now()}
		c.logLine(l.at, "<", l.text)
		select {
		case c.lines <- l:
		case <-c.closing:
		}
	}
	c.readErr = sc.Err()
}

// logLine writes one line of UCI traffic to cfg.Log: the time, the
// direction (> to the engine, < from it) and the line. Write errors are
// ignored: the log is a debugging aid and must not fail a game.
func (c *Client) logLine(at time.Time, dir, text string) {
	if c.cfg.Log == nil {
		return
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.cfg.Log, "%s %s %s\n", at.Format("15:04:05.000000"), dir, text)
}

// send writes one command line to the engine.
func (c *Client) send(cmd string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// An engine that stops reading its input must not block us forever once
	// the pipe buffer is full.
	if f, ok := c.w.(*os.File); ok {
		_ = f.SetWriteDeadline(time.Now().Add(c.cfg.StartTimeout))
	}
	c.logLine(time.Now(), ">", cmd)
	if _, err := io.WriteString(c.w, cmd+"\n"); err != nil {
		if c.Exited() {
			return failed(ErrExited, "engine %s has exited (%s)", c.command, c.status())
		}
		return fmt.Errorf("engine %s: sending %q: %w", c.command, cmd, err)
	}
	return nil
}

// await reads lines, passing each to handle until it returns true, for at
// most timeout. after names the command that was sent, for errors.
func (c *Client) await(ctx context.Context, after, want string, timeout time.Duration, handle func(line string) bool) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return c.exitError(fmt.Sprintf("while waiting for %q after %q", want, after))
			}
			if handle(line.text) {
				return nil
			}
		case <-timer.C:
			return fmt.Errorf("engine %s: no %q within %v after %q (is it a UCI engine? StartTimeout raises the limit)", c.command, want, timeout, after)
		case <-ctx.Done():
			return fmt.Errorf("engine %s: waiting for %q after %q: %w", c.command, want, after, ctx.Err())
		}
	}
}

// Kinds of engine failure, for callers that tell them apart with errors.Is
// (the arena records a crash, or an engine that closed its output, as
// abandoned, never as a loss on time).
var (
	// ErrExited: the engine process died (crashed or quit).
	ErrExited = errors.New("engine exited")
	// ErrClosedOutput: the engine closed its output but its process was
	// still running (it was then killed).
	ErrClosedOutput = errors.New("engine closed its output")
)

// failure is an error message of a kind (ErrExited, ErrClosedOutput).
type failure struct {
	kind error
	msg  string
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.kind }

func failed(kind error, format string, args ...any) error {
	return &failure{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// exitError describes an engine whose output ended, waiting briefly for the
// process so the exit status can be reported.
func (c *Client) exitError(when string) error {
	if c.readErr != nil && !errors.Is(c.readErr, os.ErrClosed) {
		c.kill()
		return fmt.Errorf("engine %s: reading its output %s: %w", c.command, when, c.readErr)
	}
	select {
	case <-c.exited:
	case <-time.After(exitWait):
		c.kill()
		return failed(ErrClosedOutput, "engine %s closed its output %s (process killed)", c.command, when)
	}
	return failed(ErrExited, "engine %s exited %s (%s)", c.command, when, c.status())
}

func (c *Client) handshake(ctx context.Context) error {
	if err := c.send("uci"); err != nil {
		return err
	}
	err := c.await(ctx, "uci", "uciok", c.cfg.StartTimeout, func(line string) bool {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "uciok":
			return true
		case f[0] == "id" && len(f) > 2 && f[1] == "name":
			c.name = strings.Join(f[2:], " ")
		case f[0] == "option":
			if o, ok := parseOption(f[1:]); ok {
				c.options = append(c.options, o)
			}
		}
		return false
	})
	if err != nil {
		return err
	}
	names := make([]string, 0, len(c.cfg.Options))
	for n := range c.cfg.Options {
		names = append(names, n)
	}
	sort.Strings(names) // deterministic order, e.g. Threads before Hash is not implied by a map
	for _, n := range names {
		cmd, err := c.setOptionCommand(n, c.cfg.Options[n])
		if err != nil {
			return err
		}
		if err := c.send(cmd); err != nil {
			return err
		}
	}
	return c.sync(ctx, "uci")
}

// setOptionCommand validates a value against the engine's announced option.
func (c *Client) setOptionCommand(name, value string) (string, error) {
	for _, o := range c.options {
		if !strings.EqualFold(o.Name, name) {
			continue
		}
		if o.Type == button {
			return "setoption name " + o.Name, nil
		}
		norm, err := o.Check(value)
		if err != nil {
			return "", fmt.Errorf("engine %s: %w", c.command, err)
		}
		return "setoption name " + o.Name + " value " + norm, nil
	}
	valid := make([]string, len(c.options))
	for i, o := range c.options {
		valid[i] = o.Name
	}
	return "", fmt.Errorf("engine %s: unknown option %q (engine options: %s)", c.command, name, strings.Join(valid, ", "))
}

// HasOption reports whether the engine announced an option of that name
// (case-insensitive).
func (c *Client) HasOption(name string) bool {
	for _, o := range c.options {
		if strings.EqualFold(o.Name, name) {
			return true
		}
	}
	return false
}

// SetOption sets one of the engine's options between searches, validated
// as ClientConfig.Options are, and waits for the engine to be ready.
func (c *Client) SetOption(ctx context.Context, name, value string) error {
	cmd, err := c.setOptionCommand(name, value)
	if err != nil {
		return err
	}
	if err := c.send(cmd); err != nil {
		return err
	}
	return c.sync(ctx, "setoption")
}

// sync sends isready and waits for readyok.
func (c *Client) sync(ctx context.Context, after string) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	return c.await(ctx, after+"/isready", "readyok", c.cfg.StartTimeout, func(line string) bool {
		return strings.TrimSpace(line) == "readyok"
	})
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

// NewGame sends ucinewgame and waits for the engine to be ready. A failure
// is returned by the next Search, as the Engine interface has no error here.
func (c *Client) NewGame() {
	if err := c.send("ucinewgame"); err != nil {
		c.newGameErr = err
		return
	}
	c.newGameErr = c.sync(context.Background(), "ucinewgame")
}

// Search runs one search: "position" and "go" with every limit set, info
// lines streamed to info (main line only), until bestmove. Result.Time is
// the wall time from go to bestmove. On ctx cancellation the client sends
// "stop" and returns the engine's bestmove; if none comes within StopGrace
// the engine is killed and an error returned.
func (c *Client) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	if err := c.newGameErr; err != nil {
		c.newGameErr = nil
		return engines.Result{}, err
	}
	select {
	case <-c.closing:
		return engines.Result{}, fmt.Errorf("engine %s: search after Close", c.command)
	default:
	}
	if c.Exited() {
		return engines.Result{}, failed(ErrExited, "engine %s has exited (%s)", c.command, c.status())
	}
	if err := c.send(positionCommand(pos)); err != nil {
		return engines.Result{}, err
	}
	goCmd := goCommand(lim)
	if err := c.send(goCmd); err != nil {
		return engines.Result{}, err
	}
	start := time.Now()

	var watchdog <-chan time.Time
	if budget, ok := timeBudget(pos, lim); ok {
		t := time.NewTimer(budget + c.cfg.SearchMargin)
		defer t.Stop()
		watchdog = t.C
	}
	var grace, drain <-chan time.Time
	ctxDone, exited := ctx.Done(), c.exited
	stop := func() {
		// A failed write means the engine is dying; its exit is reported
		// through lines/exited, and the grace timer bounds the wait anyway.
		_ = c.send("stop")
		grace = time.After(c.cfg.StopGrace)
	}

	var res engines.Result
	exact := false // res.Score comes from an exact (not bound) score
	// refusal is the engine's last "info string error..." of this search: a
	// bestmove without a move after it is a failure (the built-in server
	// refuses a rejected position so), not a position without moves.
	refusal := ""
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return engines.Result{}, c.exitError("during search (" + goCmd + ")")
			}
			f := strings.Fields(line.text)
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "info":
				l := parseInfo(f[1:])
				if l.dropped > 0 && c.infoDropped == 0 {
					c.firstDropped = l.firstDropped
				}
				c.infoDropped += l.dropped
				if isErrorString(l.info.String) {
					refusal = l.info.String
				}
				if l.info.String != "" {
					if info != nil {
						info(l.info)
					}
					continue
				}
				if l.hasNodes {
					res.Nodes = l.info.Nodes
				}
				if !l.mainLine() {
					continue
				}
				// An aspiration fail (bound) only replaces a deeper result
				// when no exact score has been seen at its depth.
				if l.hasScore && (!l.bound || !exact || l.info.Depth > res.Depth) {
					res.Score, res.Depth, res.SelDepth = l.info.Score, l.info.Depth, l.info.SelDepth
					if l.hasPV {
						res.PV = l.info.PV
					}
					exact = !l.bound
				}
				// Progress-only lines ("info depth 20 currmove e2e4") carry
				// no evaluation and would read as "score cp 0".
				if info != nil && (l.hasScore || l.hasPV) {
					info(l.info)
				}
			case "bestmove":
				res.Time = line.at.Sub(start)
				if len(f) > 1 && f[1] != "(none)" && f[1] != "0000" {
					res.Move = f[1]
				}
				if len(f) > 3 && f[2] == "ponder" {
					res.Ponder = f[3]
				}
				if res.Move == "" && refusal != "" {
					return res, fmt.Errorf("engine %s gave no move: %s", c.command, refusal)
				}
				return res, nil
			}
		case <-ctxDone:
			ctxDone, watchdog = nil, nil
			if grace == nil {
				stop()
			}
		case <-watchdog:
			watchdog = nil
			if grace == nil {
				stop()
			}
		case <-grace:
			c.kill()
			return engines.Result{}, fmt.Errorf("engine %s did not answer \"stop\" with bestmove within %v; process killed", c.command, c.cfg.StopGrace)
		case <-exited:
			// Give output written just before the exit (maybe the bestmove)
			// a moment to arrive through lines.
			exited = nil
			drain = time.After(100 * time.Millisecond)
		case <-drain:
			return engines.Result{}, failed(ErrExited, "engine %s exited during search (%s) (%s)", c.command, goCmd, c.status())
		}
	}
}

// Close sends quit, gives the engine a moment to exit, then kills it. It
// waits for the reader goroutine, so no goroutine outlives it. It is
// idempotent and safe to call while a Search runs (which then fails).
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		close(c.closing)
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
		<-c.readerDone
	})
	return nil
}

// tailBuffer keeps the end of the engine's stderr for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 512

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailMax {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.buf)), " ")
}

// ignoreErrors keeps a failing Stderr writer from stopping the copy of the
// engine's stderr, which would leave the engine blocked on a full pipe.
type ignoreErrors struct{ w io.Writer }

func (e ignoreErrors) Write(p []byte) (int, error) {
	_, _ = e.w.Write(p)
	return len(p), nil
}
