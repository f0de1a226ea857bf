package uci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"arena/engines"
)

// outLine is a line of the engine's output and when it was read.
type outLine struct {
	text string
	at   time.Time
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

// LogNote writes a comment line ("#" in the direction column) into the
// traffic log, so that a reader can find where a game's traffic starts.
func (c *Client) LogNote(text string) {
	c.logLine(time.Now(), "#", text)
}

// deadlineWriter is an engine's input that a write deadline can bound: its
// pipe (os.File, or the raw pipe of rawread_linux.go).
type deadlineWriter interface {
	io.Writer
	SetWriteDeadline(time.Time) error
}

// send writes command lines to the engine in one write: "position" and
// "go" together wake the engine once, not twice, on every move.
func (c *Client) send(cmds ...string) error {
	_, err := c.sendAt(cmds...)
	return err
}

// sendAt is send that also returns when the lines were sent: the stamp of
// the traffic log, taken before the write. A search's clock must start
// there, not after the write returns: each line of the engine is stamped
// when it is read, and an engine that answers at once can have its
// bestmove stamped before a clock started after the write.
//
// It is the client's one write to the engine, so it is where no field of
// a command (an option's name or value, a FEN, a move) can smuggle in a
// second command: a line with a line break or another control character
// is refused, nothing of it sent.
func (c *Client) sendAt(cmds ...string) (time.Time, error) {
	return c.sendPosAt(nil, cmds...)
}

// sendPosAt is sendAt with pos's "position" command (when pos is not nil)
// before cmds, made straight into the buffer the lines are written from:
// a search's "position" grows with the game, and making it as a string
// first cost an allocation and a copy every move.
func (c *Client) sendPosAt(pos *engines.Position, cmds ...string) (time.Time, error) {
	for _, cmd := range cmds {
		if i := strings.IndexFunc(cmd, isControl); i >= 0 {
			return time.Time{}, c.refuse(cmd, i)
		}
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// The lines go out of one buffer kept for the next move: joining them
	// into a string and converting that to bytes for the write copied
	// every move's "position" command, which grows with the game, twice.
	c.wbuf = c.wbuf[:0]
	if pos != nil {
		c.wbuf = appendPosition(c.wbuf, *pos)
		// A control character is a single byte in UTF-8 (no byte of a
		// longer character is below 0x80), so the bytes are checked as
		// the runes of the other commands are.
		for i, b := range c.wbuf {
			if isControl(rune(b)) {
				return time.Time{}, c.refuse(string(c.wbuf), i)
			}
		}
		c.wbuf = append(c.wbuf, '\n')
	}
	posLen := len(c.wbuf)
	for _, cmd := range cmds {
		c.wbuf = append(append(c.wbuf, cmd...), '\n')
	}
	// An engine that stops reading its input must not block us forever once
	// the pipe buffer is full.
	if d, ok := c.w.(deadlineWriter); ok {
		_ = d.SetWriteDeadline(time.Now().Add(c.cfg.StartTimeout))
	}
	now := time.Now()
	if c.cfg.Log != nil {
		if posLen > 0 {
			c.logLine(now, ">", string(c.wbuf[:posLen-1]))
		}
		for _, cmd := range cmds {
			c.logLine(now, ">", cmd)
		}
	}
	if _, err := c.w.Write(c.wbuf); err != nil {
		sent := strings.Join(cmds, "; ")
		if posLen > 0 {
			sent = strings.Join(append([]string{string(c.wbuf[:posLen-1])}, cmds...), "; ")
		}
		if c.Exited() {
			return now, failed(ErrExited, "engine %s has exited (%s)", c.command, c.status())
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return now, fmt.Errorf("engine %s: sending %q: not read within %v %s", c.command, sent, c.cfg.StartTimeout, limitHint(startLimit))
		}
		return now, fmt.Errorf("engine %s: sending %q: %w", c.command, sent, err)
	}
	return now, nil
}

// refuse is the error of a command line with a control character at
// byte i.
func (c *Client) refuse(cmd string, i int) error {
	return fmt.Errorf("engine %s: refusing to send %q: control character %q at byte %d would end the command early or inject another", c.command, cmd, cmd[i], i)
}

// await reads lines, passing each to handle until it returns true, for at
// most timeout. after names the command that was sent and limit the
// config key of the timeout, for errors.
func (c *Client) await(ctx context.Context, after, want string, timeout time.Duration, limit string, handle func(line string) bool) error {
	deadline := time.Now().Add(timeout)
	c.rmu.Lock()
	defer c.rmu.Unlock()
	defer c.wakeOn(ctx)()
	// The handlers keep what they read (an engine's name and options):
	// the line is copied out of the read buffer.
	take := func(l outLine) bool { return handle(strings.Clone(l.text)) }
	for {
		err := c.readLines(deadline, take)
		switch {
		case err == nil:
			return nil
		case err != errWake:
			return c.exitError(fmt.Sprintf("while waiting for %q after %q", want, after))
		case ctx.Err() != nil:
			return fmt.Errorf("engine %s: waiting for %q after %q: %w", c.command, want, after, ctx.Err())
		case !time.Now().Before(deadline):
			return fmt.Errorf("engine %s: no %q within %v after %q %s", c.command, want, timeout, after, limitHint(limit))
		}
		// Otherwise woken for something else (the engine exited: its
		// last output is still to be read, up to the end of the pipe).
	}
}

// limitHint tells how to raise the limit an engine did not answer within.
func limitHint(limit string) string {
	return fmt.Sprintf("(is it a UCI engine? On a busy machine raise the limit: %s in an arena config, --%s of arena suite and arena analyze)",
		limit, strings.ReplaceAll(limit, "_", "-"))
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
	if c.readErr != nil && c.readErr != io.EOF && !errors.Is(c.readErr, os.ErrClosed) {
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

// isControl reports the characters no UCI command line may hold: CR, LF
// and the other C0 controls and DEL (a tab is allowed, as whitespace).
func isControl(r rune) bool { return r != '\t' && (r < 0x20 || r == 0x7f) }
