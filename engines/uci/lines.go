package uci

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// The engine's output is read by the goroutine that waits for it (a
// search, the handshake, a wait for readyok), not by a reader goroutine of
// its own. Stockfish writes a move's info lines one at a time; with a
// reader goroutine each line woke the reader through the runtime's
// poller, and the reader then woke the waiting goroutine through a
// channel and a select with several cases: two goroutine switches and a
// select for every line, where the scheduler's work for these wake-ups
// was about a third of the arena's own CPU (docs/reference.md, "The
// arena's own cost, beside fastchess"). Now the waiter is woken by the
// poller itself, and reads once a wake-up (rawRead). What the select waited for
// besides the lines (a deadline, the context, the engine's exit) either
// is the read's deadline or wakes the read by setting its deadline to the
// past (interrupt); the waiter then looks at what happened.

// lineSource is the engine's output as the client reads it: a read that a
// deadline bounds, and that a deadline set from another goroutine cuts
// short. An engine's pipe (os.File, or the raw pipe of rawread_linux.go)
// is one; any other reader is read through asyncSource.
type lineSource interface {
	io.Reader
	SetReadDeadline(time.Time) error
}

// errWake is next's: its deadline passed, or interrupt was called. The
// caller looks at why (its context, its deadlines, the engine's exit)
// and reads on or gives up.
var errWake = errors.New("woken")

// lineReader is the client's state of reading the engine's output.
type lineReader struct {
	// rmu is held by the goroutine reading the output: a search or a
	// wait for readyok, or Close's drain. It guards the fields below
	// up to imu.
	rmu sync.Mutex
	src lineSource
	buf []byte    // read and not yet taken as lines: buf[pos:]
	pos int       // start of the unread part of buf
	at  time.Time // when buf's last bytes were read
	// readErr is why reading ended: io.EOF at the end of the output, or
	// a failure (bufio.ErrTooLong for a line over maxLineLen). Once set,
	// next returns it after the lines still in buf.
	readErr error

	// raw is the pipe's raw connection where rawRead can read it (Linux),
	// nil otherwise; rawFn is c.rawRead, made once. handle and done are
	// readLines' handler and its result, for rawRead.
	raw    syscall.RawConn
	rawFn  func(fd uintptr) bool
	handle func(outLine) bool
	done   bool

	// imu guards the wake-up: interrupt may be called from any goroutine.
	imu      sync.Mutex
	woken    bool      // interrupt was called since the last errWake
	deadline time.Time // the deadline src has, to set it only on a change
}

// readChunk is how much one read asks for; a line may grow buf up to
// maxLineLen.
const readChunk = 64 * 1024

// interrupt wakes the goroutine waiting in next (or the next one to
// call it) with errWake.
func (r *lineReader) interrupt() {
	r.imu.Lock()
	defer r.imu.Unlock()
	r.woken = true
	r.deadline = time.Unix(1, 0) // past: a waiting read returns at once
	_ = r.src.SetReadDeadline(r.deadline)
}

// afterFuncer is a context that runs a function once it is done without
// a goroutine waiting for it (the arena's move context);
// context.AfterFunc starts one per call on a context of a type the
// standard library does not know.
type afterFuncer interface {
	AfterFunc(func()) (stop func() bool)
}

// wakeOn interrupts the reader when ctx is done, until the returned
// function is called. A context that cannot be done costs nothing.
func (c *Client) wakeOn(ctx context.Context) (stop func() bool) {
	if a, ok := ctx.(afterFuncer); ok {
		return a.AfterFunc(c.interruptFn)
	}
	if ctx.Done() == nil {
		return func() bool { return false }
	}
	return context.AfterFunc(ctx, c.interruptFn)
}

// readLines passes the engine's lines to handle, each stamped with when
// it was read, until handle returns true (nil). It returns errWake once
// deadline (zero: none) has passed or interrupt was called, and
// otherwise readErr once the output has ended. The caller holds rmu.
func (c *Client) readLines(deadline time.Time, handle func(outLine) bool) error {
	r := &c.lineReader
	if c.takeLines(handle) {
		return nil
	}
	for {
		if r.readErr != nil {
			if r.pos < len(r.buf) { // a last line without its line break
				l := r.line(len(r.buf))
				r.pos = len(r.buf)
				c.logLine(l.at, "<", l.text)
				if handle(l) {
					return nil
				}
			}
			return r.readErr
		}
		if !r.makeRoom() {
			continue
		}
		r.imu.Lock()
		if r.woken {
			r.woken = false
			r.imu.Unlock()
			return errWake
		}
		if !deadline.Equal(r.deadline) {
			r.deadline = deadline
			_ = r.src.SetReadDeadline(deadline)
		}
		r.imu.Unlock()
		var err error
		if r.raw != nil {
			// The lines are taken in rawRead, which the runtime calls
			// again whenever the poller says the pipe is readable.
			r.handle, r.done = handle, false
			err = r.raw.Read(r.rawFn)
			r.handle = nil
			if r.done {
				return nil
			}
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				// The raw connection's error is the poller's own ("use
				// of closed file"); the pipe's Read gives os.File's
				// (os.ErrClosed), which exitError tells apart.
				var n int
				n, err = r.src.Read(r.buf[len(r.buf):cap(r.buf)])
				r.got(n)
			}
		} else {
			var n int
			n, err = r.src.Read(r.buf[len(r.buf):cap(r.buf)])
			r.got(n)
			if c.takeLines(handle) {
				return nil
			}
		}
		switch {
		case err == nil:
		case errors.Is(err, os.ErrDeadlineExceeded):
			r.imu.Lock()
			r.woken = false // this wake-up is the one being returned
			r.imu.Unlock()
			return errWake
		case r.readErr == nil:
			r.readErr = err
		}
	}
}

// rawRead is readLines' read of an engine's pipe, called by the runtime's
// poller with the pipe's descriptor: it reads, and passes the whole lines
// read to the handler, until the handler is done (true) or the pipe is
// empty (false: the poller calls again once it is readable). After a
// short read the pipe is known to be empty, and it waits without the
// read that would find it so: a read through os.File, or a RawConn.Read
// per read, clears the poller's readiness before it reads, so it must
// read until EAGAIN every time, a second read system call for each of
// an engine's lines. Within one RawConn.Read nothing clears it: a line
// written after the short read makes the poller call again. The end of
// the output is the exception: the poller reports the hang-up once, and
// RawConn.Read clears that report when it starts, so an engine that
// wrote and exited while no read was waiting leaves its last bytes and
// its end in the pipe, and the short read that takes the bytes would
// wait for a report that never comes. So once the engine has exited,
// the pipe is read to its end (a last line without a line break was lost
// that way, the drain's 100 ms later).
func (c *Client) rawRead(fd uintptr) bool {
	r := &c.lineReader
	for {
		if !r.makeRoom() {
			return true // readErr is set
		}
		n, errno := readFd(fd, r.buf[len(r.buf):cap(r.buf)])
		switch {
		case errno == syscall.EINTR:
			continue
		case errno == syscall.EAGAIN:
			return false
		case errno != 0:
			r.readErr = &os.PathError{Op: "read", Path: "engine output", Err: errno}
			return true
		case n == 0:
			r.readErr = io.EOF
			return true
		}
		short := n < cap(r.buf)-len(r.buf)
		r.got(n)
		if c.takeLines(r.handle) {
			r.done = true
			return true
		}
		if short && !c.Exited() {
			return false
		}
	}
}

// takeLines passes the whole lines in buf to handle until it returns
// true.
func (c *Client) takeLines(handle func(outLine) bool) bool {
	r := &c.lineReader
	for {
		i := bytes.IndexByte(r.buf[r.pos:], '\n')
		if i < 0 {
			return false
		}
		l := r.line(r.pos + i)
		r.pos += i + 1
		c.logLine(l.at, "<", l.text)
		if handle(l) {
			return true
		}
	}
}

// makeRoom moves the part line left in buf to its start and makes room
// to read after it; false (with readErr set) when that part line is
// already maxLineLen long.
func (r *lineReader) makeRoom() bool {
	if r.pos > 0 {
		r.buf = r.buf[:copy(r.buf, r.buf[r.pos:])]
		r.pos = 0
	}
	if len(r.buf) >= maxLineLen {
		r.readErr = bufio.ErrTooLong
		return false
	}
	if cap(r.buf)-len(r.buf) < readChunk/2 {
		r.buf = append(r.buf, make([]byte, readChunk)...)[:len(r.buf)]
	}
	return true
}

// got takes n bytes read into buf's spare room.
func (r *lineReader) got(n int) {
	if n > 0 {
		r.buf = r.buf[:len(r.buf)+n]
		r.at = time.Now()
	}
}

// line is the line ending at buf[end], without its carriage return. Its
// text is buf's bytes, not a copy: valid only until the next read, so a
// handler copies what it keeps (await copies every line; a search keeps
// only its result's move, ponder move and PV, and copies those). A
// string per line was a fifth of the bytes the arena allocated.
func (r *lineReader) line(end int) outLine {
	b := bytes.TrimRight(r.buf[r.pos:end], "\r")
	return outLine{unsafe.String(unsafe.SliceData(b), len(b)), r.at}
}

// drain reads and discards the output until it ends (the engine exited,
// or its pipe was closed), so that an engine being shut down never blocks
// on a full pipe. It is Close's; done is closed when it returns.
func (c *Client) drain(done chan<- struct{}) {
	defer close(done)
	c.rmu.Lock()
	defer c.rmu.Unlock()
	discard := func(outLine) bool { return false }
	for {
		if err := c.readLines(time.Time{}, discard); err != errWake {
			return
		}
	}
}

// asyncSource reads a reader that has no deadlines (a Connect client's
// io.Pipe) in a goroutine of its own, so that a wait for its output can
// still be bounded and woken. Only Connect clients use it; an engine
// process's pipe is read directly.
type asyncSource struct {
	chunks  chan []byte   // what the goroutine read; closed when it ends
	done    chan struct{} // closed when the goroutine has returned
	stop    <-chan struct{}
	err     error // why the goroutine ended; valid once chunks is closed
	pending []byte

	mu       sync.Mutex
	deadline time.Time
	changed  chan struct{} // a token when the deadline changes
}

// newAsyncSource reads r until it ends or stop is closed (after which
// what it reads is dropped).
func newAsyncSource(r io.Reader, stop <-chan struct{}) *asyncSource {
	a := &asyncSource{
		chunks:  make(chan []byte, 16),
		done:    make(chan struct{}),
		stop:    stop,
		changed: make(chan struct{}, 1),
	}
	go a.run(r)
	return a
}

func (a *asyncSource) run(r io.Reader) {
	defer close(a.done)
	defer close(a.chunks)
	buf := make([]byte, readChunk)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			select {
			case a.chunks <- bytes.Clone(buf[:n]):
			case <-a.stop:
			}
		}
		if err != nil {
			a.err = err
			return
		}
	}
}

func (a *asyncSource) SetReadDeadline(t time.Time) error {
	a.mu.Lock()
	a.deadline = t
	a.mu.Unlock()
	select {
	case a.changed <- struct{}{}:
	default:
	}
	return nil
}

func (a *asyncSource) Read(p []byte) (int, error) {
	for len(a.pending) == 0 {
		a.mu.Lock()
		d := a.deadline
		a.mu.Unlock()
		var timer *time.Timer
		var timeout <-chan time.Time
		if !d.IsZero() {
			wait := time.Until(d)
			if wait <= 0 {
				return 0, os.ErrDeadlineExceeded
			}
			timer = time.NewTimer(wait)
			timeout = timer.C
		}
		var err error
		select {
		case b, ok := <-a.chunks:
			if ok {
				a.pending = b
			} else {
				err = a.err
			}
		case <-a.changed: // look at the deadline again
		case <-timeout:
			err = os.ErrDeadlineExceeded
		}
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			return 0, err
		}
	}
	n := copy(p, a.pending)
	a.pending = a.pending[n:]
	return n, nil
}
