//go:build unix

package board

import (
	"syscall"
	"time"
)

// processCPUTime returns the user+system CPU time of the process. On a
// machine shared with other work, nodes per CPU second is steadier than
// nodes per wall-clock second.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
