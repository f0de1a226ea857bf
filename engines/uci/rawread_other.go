//go:build !linux

package uci

import (
	"os"
	"syscall"
)

// newPipeReader returns f: the raw reads of rawread_linux.go are Linux's.
func newPipeReader(f *os.File) lineSource { return f }

// newPipeWriter returns f: the raw writes of rawread_linux.go are Linux's.
func newPipeWriter(f *os.File) deadlineWriter { return f }

// rawConnOf is nil: readLines reads through the source's Read.
func rawConnOf(lineSource) syscall.RawConn { return nil }

// readFd is never called where rawConnOf is nil.
func readFd(uintptr, []byte) (int, syscall.Errno) { return 0, syscall.EINVAL }
