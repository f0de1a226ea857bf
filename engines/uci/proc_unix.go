//go:build unix

package uci

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the engine in its own process group so that killing
// the group also reaps helper processes the engine forked (wrapper scripts,
// tablebase or NN servers), which would otherwise keep its pipes open.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// Negative pid: the whole group. Kill the leader directly as well in case
	// the group is gone already but the process is not reaped yet.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
