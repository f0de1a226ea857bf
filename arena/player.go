package arena

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"arena/arena/book/polyglot"
	"arena/arena/config"
	"arena/arena/launch"
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
	mem    *procMem // the process's /proc/PID/status; nil where there is none
	// timeouts bound the answers outside a search (the config's
	// start_timeout, ucinewgame_timeout, ping_timeout).
	timeouts uci.Timeouts
	// fresh: the process has played no game yet (restart: on replaces
	// only a used one, not the one started before the first game).
	fresh bool
	// infoDropped and firstDropped add up the info values the clients of
	// the engine's processes so far dropped as absurd (see infoWarning).
	infoDropped  int
	firstDropped string
	// canPonder: the engine is to ponder (cfg.Ponder) and its process
	// announced the Ponder option, which was set. book is its own book
	// (cfg.Book), read once per run and shared by the workers.
	canPonder bool
	book      *polyglot.Book
	// ponderAsked counts the pondering engine's searched moves,
	// ponderNamed those whose bestmove named a ponder move.
	ponderAsked, ponderNamed int
}

// start runs the engine's process unless it is already running; grace is
// engineGrace.
func (p *player) start(ctx context.Context, arenaBinary string, grace time.Duration) error {
	if p.client != nil && !p.client.Exited() {
		return nil
	}
	p.stop()
	pr, err := launch.Start(ctx, p.cfg, arenaBinary, grace, p.timeouts)
	if err != nil {
		return err
	}
	if err := warmUp(ctx, pr.Client, p.cfg, p.timeouts.StartTimeout); err != nil {
		pr.Client.Close()
		if pr.Log != nil {
			pr.Log.Close()
		}
		return fmt.Errorf("engine %q: warm-up search: %w", p.cfg.Name, err)
	}
	p.client, p.log, p.canPonder, p.fresh = pr.Client, pr.Log, pr.Ponder, true
	p.id = pr.Client.Name()
	p.mem = openProcMem(pr.Client.PID())
	return nil
}

// warmUpTime is the move time of the warm-up search.
const warmUpTime = 100 * time.Millisecond

// warmUp gives an engine that plays under a time limit one short search
// from the start position before its first game, so that what a process
// does once (loading a net, the first allocation of its tables, faulting
// in its code) is not charged to its first move's clock: a thesis run lost
// games on time on the first move of the MCTS engine (4.10 s at a 3 s
// move time), which the thesis's own arena, whose engines were warm,
// never did. Node- and depth-limited engines are left alone: their moves
// do not depend on time, and their searches stay identical run to run.
func warmUp(ctx context.Context, c *uci.Client, e config.EngineConfig, timeout time.Duration) error {
	if e.Limits.MoveTime <= 0 && e.Limits.TC == nil {
		return nil
	}
	if timeout <= 0 {
		timeout = uci.DefaultStartTimeout
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err := c.Search(wctx, engines.Position{FEN: engines.StartFEN}, engines.Limits{MoveTime: warmUpTime}, nil)
	return err
}

// stop ends the engine's process; the next start runs a fresh one.
func (p *player) stop() {
	if p.client != nil {
		p.infoDropped, p.firstDropped = p.droppedSoFar()
		p.client.Close()
		p.client = nil
	}
	if p.mem != nil {
		p.mem.f.Close()
		p.mem = nil
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
// /proc is missing (not Linux) both are 0. Unless fresh is set, the file is
// read at most every memInterval and the last values are returned in
// between.
func (p *player) memory(fresh bool) (rss, peak uint64) {
	m := p.mem
	if m == nil {
		return 0, 0
	}
	if fresh || m.at.IsZero() || time.Since(m.at) >= memInterval {
		rss, peak, err := m.read()
		if err != nil {
			return 0, 0
		}
		m.rss, m.peak, m.at = rss, max(rss, peak), time.Now()
	}
	return m.rss, m.peak
}

// memInterval is how often an engine's memory is read during a game.
// Reading /proc after every move was 5-8% of the arena's profiled CPU in
// fast games (Stockfish at 1,000 nodes plays a move in a few
// milliseconds); a move's values are at most this old, and each side's
// last move of a game is read fresh (refreshMemory), so a game's peak,
// which only grows, is exact.
const memInterval = 100 * time.Millisecond

// refreshMemory re-reads each engine's memory for its last move of the
// game.
func (g *game) refreshMemory() {
	for s, p := range g.players {
		side := strings.ToLower(sideNames[s])
		for i := len(g.rec.Moves) - 1; i >= 0; i-- {
			if mv := &g.rec.Moves[i]; mv.Side == side {
				if rss, peak := p.memory(true); peak > 0 {
					mv.RSSMB, mv.PeakMB = mb(rss), mb(peak)
				}
				break
			}
		}
	}
}

// procMem reads a process's /proc/PID/status. The file stays open and is
// re-read from offset 0 into one buffer (the kernel regenerates it on
// every read from the start): that costs two system calls a read instead
// of twelve (open, the runtime's poller probes, fstat, four reads, close)
// and no allocation. at, rss and peak are the last read's time and values.
type procMem struct {
	f         *os.File
	buf       []byte
	at        time.Time
	rss, peak uint64
}

// openProcMem opens pid's status file; nil where there is none.
func openProcMem(pid int) *procMem {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return nil
	}
	return &procMem{f: f, buf: make([]byte, 4096)}
}

// read returns VmRSS and VmHWM in bytes.
func (m *procMem) read() (rss, peak uint64, err error) {
	n, err := readStatus(m.f, m.buf)
	for n == len(m.buf) { // the file outgrew the buffer: read it whole
		m.buf = make([]byte, 2*len(m.buf))
		n, err = readStatus(m.f, m.buf)
	}
	if n == 0 && err != nil {
		return 0, 0, err
	}
	if rss, err = statusKB(m.buf[:n], "VmRSS:"); err != nil {
		return 0, 0, err
	}
	if peak, err = statusKB(m.buf[:n], "VmHWM:"); err != nil {
		return 0, 0, err
	}
	return rss, peak, nil
}

// statusKB returns the value of a "Field:   123 kB" line of a status
// file in bytes.
func statusKB(status []byte, field string) (uint64, error) {
	i := bytes.Index(status, []byte("\n"+field))
	if i < 0 {
		return 0, fmt.Errorf("no %s in /proc status", field)
	}
	v := bytes.TrimLeft(status[i+1+len(field):], " \t")
	kb, digits := uint64(0), 0
	for ; digits < len(v) && v[digits] >= '0' && v[digits] <= '9'; digits++ {
		kb = kb*10 + uint64(v[digits]-'0')
	}
	if digits == 0 || digits > 15 {
		return 0, fmt.Errorf("/proc status: %s is not a number of kB", field)
	}
	return kb * 1024, nil
}

// newGame tells the engine a new game starts (UCI ucinewgame); the traffic
// log gets the game's note first, since at concurrency 2 or more which
// process (which NAME.N.log) plays a game depends on the timing.
func (p *player) newGame(note string) {
	p.fresh = false
	p.client.LogNote(note)
	p.client.NewGame()
}

// search asks the engine for a move.
func (p *player) search(ctx context.Context, pos engines.Position, lim engines.Limits) (engines.Result, error) {
	return p.client.Search(ctx, pos, lim, nil)
}
