//go:build !linux

package uci

import (
	"io"
	"os"
)

// newPipeReader returns f: the raw reads of rawread_linux.go are Linux's.
func newPipeReader(f *os.File) io.Reader { return f }
