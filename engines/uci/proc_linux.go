package uci

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// startProcess starts cmd so that the kernel kills it (SIGKILL) when the
// arena dies, even by kill -9: an engine that hangs, ignores stdin and sits
// in its own process group would otherwise run on forever. The signal
// (PR_SET_PDEATHSIG) fires when the thread that forked the child exits, not
// the process, and Go ends threads at will; so every child is forked by one
// goroutine locked to its OS thread, which never returns. A grandchild the
// engine forked is not covered (and may have left the group with setsid);
// it finds the engine's stdin, whose only writer was the arena, at EOF.
func startProcess(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	starter.once.Do(func() {
		starter.reqs = make(chan startRequest)
		go func() {
			runtime.LockOSThread()
			for r := range starter.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	starter.reqs <- startRequest{cmd, done}
	return <-done
}

var starter struct {
	once sync.Once
	reqs chan startRequest
}

type startRequest struct {
	cmd  *exec.Cmd
	done chan error
}
