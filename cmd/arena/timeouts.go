package main

import (
	"flag"
	"fmt"
	"time"

	"arena/engines/uci"
)

// timeoutFlags defines --start-timeout, --ucinewgame-timeout and
// --ping-timeout, the flags of a config's start_timeout,
// ucinewgame_timeout and ping_timeout for commands that start engines
// without a config (arena suite, arena analyze).
func timeoutFlags(fs *flag.FlagSet, what string) *uci.Timeouts {
	t := &uci.Timeouts{StartTimeout: uci.DefaultStartTimeout, NewGameTimeout: uci.DefaultNewGameTimeout, PingTimeout: uci.DefaultPingTimeout}
	fs.DurationVar(&t.StartTimeout, "start-timeout", t.StartTimeout, "how long "+what+" may take to start (answer uci, and isready after the options); fastchess -startup-ms")
	fs.DurationVar(&t.NewGameTimeout, "ucinewgame-timeout", t.NewGameTimeout, "how long "+what+" may take to answer isready after ucinewgame; fastchess -ucinewgame-ms")
	fs.DurationVar(&t.PingTimeout, "ping-timeout", t.PingTimeout, "how long "+what+" may take to answer any other isready; fastchess -ping-ms")
	return t
}

// checkTimeouts refuses a timeout that is not above 0.
func checkTimeouts(t *uci.Timeouts) error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"--start-timeout", t.StartTimeout}, {"--ucinewgame-timeout", t.NewGameTimeout}, {"--ping-timeout", t.PingTimeout}} {
		if f.d <= 0 {
			return fmt.Errorf("%s %v: expected a duration above 0, e.g. 30s", f.name, f.d)
		}
	}
	return nil
}
