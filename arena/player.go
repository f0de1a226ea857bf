package arena

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"arena/arena/config"
	"arena/engines"
	"arena/engines/uci"
)

// player drives one engine. Every engine, built-in or external, runs as its
// own UCI process through the uci client: a built-in engine is the arena
// binary re-executed as "arena uci ENGINE --option NAME=VALUE ...". One code
// path therefore measures all of them the same way (RAM is the engine
// process's own), and a crashing engine cannot take the arena down.
type player struct {
	cfg    config.EngineConfig
	client *uci.Client
	id     string   // the engine's UCI "id name", once started
	log    *os.File // the process's UCI traffic log (with log:)
	// fresh: the process has played no game yet (restart: on replaces
	// only a used one, not the one started before the first game).
	fresh bool
	// infoDropped and firstDropped add up the info values the clients of
	// the engine's processes so far dropped as absurd (see infoWarning).
	infoDropped  int
	firstDropped string
}

// clientConfig is how the engine's process is started. The client's own
// watchdog (which stops a search running past its time budget) is set
// beyond the time margin, so that the arena's deadline, not the client,
// decides when a move is late.
func clientConfig(e config.EngineConfig, arenaBinary string, margin time.Duration) uci.ClientConfig {
	watchdog := margin + time.Second
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

// start runs the engine's process unless it is already running.
func (p *player) start(ctx context.Context, arenaBinary string, margin time.Duration) error {
	if p.client != nil && !p.client.Exited() {
		return nil
	}
	p.stop()
	cc := clientConfig(p.cfg, arenaBinary, margin)
	if p.cfg.Log != "" {
		f, err := createLog(p.cfg.Log, p.cfg.Name)
		if err != nil {
			return fmt.Errorf("engine %q: %w", p.cfg.Name, err)
		}
		fmt.Fprintf(f, "# engine %s: %s %s (> to the engine, < from it)\n", p.cfg.Name, cc.Command, strings.Join(cc.Args, " "))
		p.log, cc.Log = f, f
	}
	c, err := uci.Start(ctx, cc)
	if err != nil {
		if p.cfg.Builtin() {
			return fmt.Errorf("engine %q (built-in %s via %s uci): %w", p.cfg.Name, p.cfg.Engine, arenaBinary, err)
		}
		return fmt.Errorf("engine %q: %w", p.cfg.Name, err)
	}
	p.client, p.fresh = c, true
	p.id = c.Name()
	return nil
}

// stop ends the engine's process; the next start runs a fresh one.
func (p *player) stop() {
	if p.client != nil {
		p.infoDropped, p.firstDropped = p.droppedSoFar()
		p.client.Close()
		p.client = nil
	}
	if p.log != nil {
		p.log.Close()
		p.log = nil
	}
}

// droppedSoFar adds the running client's dropped info values to those of
// the engine's earlier processes.
func (p *player) droppedSoFar() (int, string) {
	n, first := p.infoDropped, p.firstDropped
	if p.client != nil {
		cn, cfirst := p.client.InfoDropped()
		if n == 0 {
			first = cfirst
		}
		n += cn
	}
	return n, first
}

// infoWarning says how many absurd info values (negative nodes, overflowing
// mate scores) the engine sent; they were dropped rather than averaged.
func (p *player) infoWarning() string {
	n, first := p.droppedSoFar()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("warning: engine %q sent %d unparsable or absurd info values (first: %q); they were dropped", p.cfg.Name, n, first)
}

// alive reports whether the engine's process is running.
func (p *player) alive() bool { return p.client != nil && !p.client.Exited() }

// memory returns the engine process's current RSS and its peak RSS
// (the kernel's high-water mark) in bytes, read from /proc/PID/status
// (VmRSS, VmHWM). gopsutil's process package reads the same file but needs
// modules (tklauser/go-sysconf) outside this module's pinned set. Where
// /proc is missing (not Linux) both are 0.
func (p *player) memory() (rss, peak uint64) {
	if p.client == nil {
		return 0, 0
	}
	st, err := procStatus(p.client.PID(), "VmRSS:", "VmHWM:")
	if err != nil {
		return 0, 0
	}
	return st[0], max(st[0], st[1])
}

// procStatus reads the given kB fields of /proc/PID/status, in bytes.
func procStatus(pid int, fields ...string) ([]uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return nil, err
	}
	out := make([]uint64, len(fields))
	for line := range strings.Lines(string(data)) {
		for i, f := range fields {
			if rest, ok := strings.CutPrefix(line, f); ok {
				v := strings.Fields(rest)
				if len(v) == 0 {
					return nil, fmt.Errorf("/proc/%d/status: empty %s", pid, f)
				}
				kb, err := strconv.ParseUint(v[0], 10, 64)
				if err != nil {
					return nil, fmt.Errorf("/proc/%d/status: %s %q: %v", pid, f, v[0], err)
				}
				out[i] = kb * 1024
			}
		}
	}
	return out, nil
}

// newGame tells the engine a new game starts (UCI ucinewgame).
func (p *player) newGame() {
	p.fresh = false
	p.client.NewGame()
}

// search asks the engine for a move.
func (p *player) search(ctx context.Context, pos engines.Position, lim engines.Limits) (engines.Result, error) {
	return p.client.Search(ctx, pos, lim, nil)
}
