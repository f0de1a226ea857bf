//go:build !linux

package uci

import (
	"io"
	"os"
)

// newPipeReader returns f: the raw reads of rawread_linux.go are Linux's.
func newPipeReader(f *os.File) io.Reader { return f }

// newPipeWriter returns f: the raw writes of rawread_linux.go are Linux's.
func newPipeWriter(f *os.File) deadlineWriter { return f }
