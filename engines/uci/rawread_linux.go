package uci

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// rawPipe reads an engine's output pipe, or writes its input pipe, with raw
// system calls, waiting for the pipe through the runtime's poller as
// os.File does. An engine writes each info line on its own, so the reader
// wakes several times a move, and every move writes "position" and "go"; a
// read or write through os.File enters the scheduler's system-call state,
// which wakes the runtime's sysmon thread from its idle sleep every time (a
// futex wake and several sleeps of sysmon per line, a third of the arena's
// system calls). A read or write of a non-blocking pipe never blocks, so it
// needs no such bookkeeping.
type rawPipe struct {
	f  *os.File
	rc syscall.RawConn
	// One call's system call, buffer and results, for callFn: a method
	// value made once, where a closure per call would allocate three
	// times a line. A pipe is read, or written, by one goroutine at a time.
	trap   uintptr
	buf    []byte
	n      int
	errno  syscall.Errno
	callFn func(fd uintptr) bool
}

// newPipeReader returns f's reader; f itself where it has no raw
// connection.
func newPipeReader(f *os.File) lineSource {
	if p := newRawPipe(f); p != nil {
		return p
	}
	return f
}

// newPipeWriter returns f's writer, which keeps f's write deadline; f
// itself where it has no raw connection.
func newPipeWriter(f *os.File) deadlineWriter {
	if p := newRawPipe(f); p != nil {
		return p
	}
	return f
}

func newRawPipe(f *os.File) *rawPipe {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	p := &rawPipe{f: f, rc: rc}
	p.callFn = p.call
	return p
}

func (r *rawPipe) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, errno, err := r.do(syscall.SYS_READ, p)
	switch {
	case err != nil: // closed: os.File's read gives its error as os.File would
		return r.f.Read(p)
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, waiting (up to the write deadline) while the pipe
// is full, as os.File's Write does.
func (r *rawPipe) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		n, errno, err := r.do(syscall.SYS_WRITE, p[written:])
		written += n
		switch {
		case err != nil: // closed or past the deadline: os.File's error
			m, err := r.f.Write(p[written:])
			return written + m, err
		case errno != 0:
			return written, &os.PathError{Op: "write", Path: r.f.Name(), Err: errno}
		}
	}
	return written, nil
}

func (r *rawPipe) SetWriteDeadline(t time.Time) error { return r.f.SetWriteDeadline(t) }

func (r *rawPipe) SetReadDeadline(t time.Time) error { return r.f.SetReadDeadline(t) }

// do makes one read or write system call on p, waiting through the poller
// while the pipe is not ready; err is the poller's (a closed file, a
// passed deadline).
func (r *rawPipe) do(trap uintptr, p []byte) (n int, errno syscall.Errno, err error) {
	r.trap, r.buf, r.n, r.errno = trap, p, 0, 0
	if trap == syscall.SYS_WRITE {
		err = r.rc.Write(r.callFn)
	} else {
		err = r.rc.Read(r.callFn)
	}
	r.buf = nil
	return r.n, r.errno, err
}

// call is do's system call on fd; false when the pipe is not ready.
func (r *rawPipe) call(fd uintptr) bool {
	for {
		r1, _, e := syscall.RawSyscall(r.trap, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait until the poller says the pipe is ready
		}
		if e == 0 {
			r.n = int(r1)
		}
		r.errno = e
		return true
	}
}

// rawConnOf is the raw connection of an engine's pipe for readLines'
// rawRead; nil for any other source.
func rawConnOf(src lineSource) syscall.RawConn {
	if p, ok := src.(*rawPipe); ok {
		return p.rc
	}
	return nil
}

// readFd is rawRead's read system call.
func readFd(fd uintptr, p []byte) (int, syscall.Errno) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(n), 0
}
