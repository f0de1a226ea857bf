package arena

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// readStatus reads f (a /proc status file) from offset 0 into buf with a
// raw system call. os.File's ReadAt enters the scheduler's system-call
// state, which wakes the runtime's sysmon thread from its sleep, and
// sysmon then polls every 20 µs for a while: with an engine's memory read
// every 100 ms that was a share of the arena's CPU of its own in games of
// a few milliseconds a move. A read of /proc never blocks, so it needs no
// such bookkeeping (as the raw pipe reads of engines/uci).
func readStatus(f *os.File, buf []byte) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return f.ReadAt(buf, 0)
	}
	var n uintptr
	var errno syscall.Errno
	if err := rc.Read(func(fd uintptr) bool {
		for {
			n, _, errno = syscall.RawSyscall6(syscall.SYS_PREAD64, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0, 0)
			if errno != syscall.EINTR {
				return true
			}
		}
	}); err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, &os.PathError{Op: "read", Path: f.Name(), Err: errno}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return int(n), nil
}
