//go:build !linux

package nn

// threadCPUTime is only available on Linux; Bench then shows wall time only.
func threadCPUTime() (int64, bool) { return 0, false }
