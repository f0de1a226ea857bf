//go:build !unix

package uci

import "os/exec"

// Without Unix process groups only the engine process itself can be killed.
func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
