package uci

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// rawPipe reads an engine's output pipe with raw read system calls, waiting
// for data through the runtime's poller as os.File does. An engine writes
// each info line on its own, so the reader wakes several times a move; a
// read through os.File enters the scheduler's system-call state, which
// wakes the runtime's sysmon thread from its idle sleep every time (a
// futex wake and several sleeps of sysmon per line, a third of the
// arena's system calls). A read of a non-blocking pipe never blocks, so it
// needs no such bookkeeping.
type rawPipe struct {
	f  *os.File
	rc syscall.RawConn
}

// newPipeReader returns f's reader; f itself where it has no raw
// connection.
func newPipeReader(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	return &rawPipe{f: f, rc: rc}
}

func (r *rawPipe) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := r.rc.Read(func(fd uintptr) bool {
		for {
			r1, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait until the poller says the pipe is readable
			}
			n, errno = int(r1), e
			return true
		}
	})
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
