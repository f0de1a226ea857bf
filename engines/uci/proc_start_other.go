//go:build !linux

package uci

import "os/exec"

// startProcess starts cmd; only Linux can have the kernel kill it with the
// arena (proc_linux.go).
func startProcess(cmd *exec.Cmd) error { return cmd.Start() }
