package uci

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// fakeEngineArg as the first argument makes the test binary act as a fake
// UCI engine (see fakeEngine) instead of running the tests: the misbehaving
// engines the client must survive cannot be real ones.
const fakeEngineArg = "-uci-fake-engine"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == fakeEngineArg {
		os.Exit(fakeEngine(os.Args[2]))
	}
	os.Exit(m.Run())
}

// fakeEngine speaks just enough UCI to misbehave in the given way:
//
//	mute:   never answers anything (no uciok)
//	crash:  exits with status 3 on "go" after one info line
//	nostop: ignores "stop" during a search and never sends bestmove
//	noisy:  writes to stderr and exits with status 7 right away
//	slow:   sends bestmove only on "stop"; after ucinewgame it stops
//	        answering isready
//	instant: answers "go" with "bestmove e2e4" at once
//	long:   answers "go" with an info string of 300,000 bytes, then a
//	        bestmove written in two parts 20 ms apart
//	huge:   answers "go" with a line of 2 MB (over maxLineLen)
//	unended: answers "go" with a bestmove without a line break and exits
//	fork:   on "go" starts a child (mode "child", which sleeps, holding
//	        the engine's output open), reports its pid and exits with status 3
func fakeEngine(mode string) int {
	if mode == "child" {
		time.Sleep(time.Hour)
		return 0
	}
	if mode == "noisy" {
		fmt.Fprintln(os.Stderr, "fake: cannot load network file")
		return 7
	}
	out := bufio.NewWriter(os.Stdout)
	say := func(s string) {
		fmt.Fprintln(out, s)
		out.Flush()
	}
	ready := true
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		if mode == "mute" {
			continue
		}
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name Fake " + mode)
			say("option name Hash type spin default 16 min 1 max 1024")
			say("uciok")
		case "isready":
			if ready {
				say("readyok")
			}
		case "ucinewgame":
			ready = mode != "slow"
		case "stop":
			if mode == "slow" {
				say("bestmove e2e4")
			}
		case "go":
			switch mode {
			case "instant":
				say("bestmove e2e4")
				continue
			case "long":
				say("info string " + strings.Repeat("x", 300000))
				out.WriteString("bestmo")
				out.Flush()
				time.Sleep(20 * time.Millisecond)
				say("ve e2e4 ponder e7e5")
				continue
			case "huge":
				say("info string " + strings.Repeat("x", 2<<20))
				continue
			case "unended":
				out.WriteString("bestmove e2e4")
				out.Flush()
				return 0
			}
			say("info depth 1 score cp 10 nodes 20 pv e2e4")
			if mode == "crash" {
				return 3
			}
			if mode == "fork" {
				child := exec.Command(os.Args[0], fakeEngineArg, "child")
				child.Stdout, child.Stderr = os.Stdout, os.Stderr
				if err := child.Start(); err != nil {
					say("info string " + err.Error())
					return 4
				}
				say(fmt.Sprintf("info string child %d", child.Process.Pid))
				return 3
			}
		case "quit":
			if mode == "nostop" {
				// Ignores quit too, so Close has to kill it.
				continue
			}
			return 0
		}
	}
	return 0
}
