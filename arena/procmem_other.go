//go:build !linux

package arena

import "os"

// readStatus reads f from offset 0 into buf (procmem_linux.go reads it
// with a raw system call).
func readStatus(f *os.File, buf []byte) (int, error) { return f.ReadAt(buf, 0) }
