//go:build !unix

package board

import "time"

// processCPUTime is not measured on this platform.
func processCPUTime() (time.Duration, bool) { return 0, false }
