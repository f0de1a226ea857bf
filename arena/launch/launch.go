// Package launch starts an engine's process: a built-in engine as the
// arena binary re-executed as "arena uci ENGINE --option ...", an external
// one as its command, with the options the user set, an optional traffic
// log and pondering. The runner's players and the commands that drive an
// engine outside a match (arena suite) start engines through it, so every
// command runs the same process with the same options.
package launch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"arena/arena/config"
	"arena/engines/uci"
)

// ClientConfig is how the engine's process is started. The client's own
// watchdog (which stops a search running past its time budget) is set
// beyond grace, how long a move may run past its limit before it loses on
// time (the margin, or more with time_forfeit off), so that the arena's
// deadline, not the client, decides when a move is late.
func ClientConfig(e config.EngineConfig, arenaBinary string, grace time.Duration) uci.ClientConfig {
	watchdog := min(grace, time.Duration(math.MaxInt64)-time.Second) + time.Second
	if !e.Builtin() {
		return uci.ClientConfig{Command: e.Command, Args: e.Args, Dir: e.Workdir, Options: e.Options, SearchMargin: watchdog}
	}
	args := []string{"uci", e.Engine}
	names := make([]string, 0, len(e.Options))
	for n := range e.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args = append(args, "--option", n+"="+e.Options[n])
	}
	return uci.ClientConfig{Command: arenaBinary, Args: args, Dir: e.Workdir, SearchMargin: watchdog}
}

// Process is a started engine: its UCI client, its traffic log (nil
// without the engine's log: key) and whether it ponders (it is to, and it
// announced the Ponder option, which was set).
type Process struct {
	Client *uci.Client
	Log    *os.File
	Ponder bool
}

// Start runs e's process with its grace past a time limit (ClientConfig)
// and the timeouts of answers outside a search. Errors name the engine.
func Start(ctx context.Context, e config.EngineConfig, arenaBinary string, grace time.Duration, t uci.Timeouts) (Process, error) {
	cc := ClientConfig(e, arenaBinary, grace)
	cc.Timeouts = t
	var pr Process
	if e.Log != "" {
		f, err := createLog(e.Log, e.Name)
		if err != nil {
			return pr, fmt.Errorf("engine %q: %w", e.Name, err)
		}
		fmt.Fprintf(f, "# engine %s: %s %s (> to the engine, < from it)\n", e.Name, cc.Command, strings.Join(cc.Args, " "))
		pr.Log, cc.Log = f, f
	}
	c, err := uci.Start(ctx, cc)
	if err != nil {
		pr.close()
		if e.Builtin() {
			return Process{}, fmt.Errorf("engine %q (built-in %s via %s uci): %w", e.Name, e.Engine, arenaBinary, err)
		}
		return Process{}, fmt.Errorf("engine %q: %w", e.Name, err)
	}
	pr.Client = c
	if pr.Ponder = e.Ponder && c.HasOption(uci.PonderOption); pr.Ponder {
		if err := c.SetOption(ctx, uci.PonderOption, "true"); err != nil {
			pr.close()
			return Process{}, fmt.Errorf("engine %q: %w", e.Name, err)
		}
	}
	return pr, nil
}

// close ends a process that failed to start completely.
func (pr Process) close() {
	if pr.Client != nil {
		pr.Client.Close()
	}
	if pr.Log != nil {
		pr.Log.Close()
	}
}

// StartEngine runs e's process exactly as arena run starts a player, for
// commands that drive an engine outside a match, with the given timeouts
// and the default time margin. The caller closes the client.
func StartEngine(ctx context.Context, e config.EngineConfig, binary string, t uci.Timeouts) (*uci.Client, error) {
	if e.Builtin() && binary == "" {
		return nil, fmt.Errorf("engine %q is built-in (%s) but no arena binary was given to run it with", e.Name, e.Engine)
	}
	pr, err := Start(ctx, e, binary, config.DefaultTimeMargin, t)
	if err != nil {
		return nil, err
	}
	return pr.Client, nil
}

var unsafeFileChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// createLog creates the next free traffic log of engine name in dir:
// NAME.1.log, NAME.2.log, ... one per engine process (with restart: on,
// one per game). O_EXCL keeps concurrent games' processes apart.
func createLog(dir, name string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("UCI log directory: %w", err)
	}
	base := unsafeFileChars.ReplaceAllString(name, "_")
	for n := 1; ; n++ {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("%s.%d.log", base, n)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("UCI log: %w", err)
		}
		return f, nil
	}
}
