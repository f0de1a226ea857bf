package uci

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/engines"
)

// Search runs one search: "position" and "go" with every limit set, info
// Search runs one search: "position" and "go" with every limit set, info
// lines streamed to info (main line only), until bestmove. An "isready"
// between them synchronises: what the engine wrote before its readyok
// (a second bestmove of the last search, one that came after "stop" and
// the grace, or its info lines) belongs to an earlier search and is
// discarded, never taken as this search's answer. It costs no round trip:
// the three lines go in one write, and the engine answers isready before
// it starts the search; a search limited by time waits for the readyok
// before sending "go", as fastchess does, so that the engine's wake-up is
// not charged to its clock. Result.Time is the wall time from go to
// bestmove. On ctx cancellation the client sends
// "stop" and returns the engine's bestmove; if none comes within StopGrace
// the engine is killed and an error returned. info is called as the lines
// are read and must not call Close (see Close).
func (c *Client) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	if err := c.ready(); err != nil {
		return engines.Result{}, err
	}
	// A match's searches mostly have the same limits (nodes, depth,
	// movetime): the command is made again only when they change.
	if lim != c.lastLim || c.lastGo == "" {
		c.lastLim, c.lastGo = lim, goCommand(lim)
	}
	goCmd := c.lastGo
	var sent time.Time
	var err error
	_, timed := timeBudget(pos, lim)
	if !timed {
		sent, err = c.sendPosAt(&pos, "isready", goCmd)
	} else {
		// As fastchess: "position", then isready and its readyok, then
		// "go", the move's time counting from the go. The engine's
		// wake-up from its wait for input and its reading of the position
		// happen before the clock starts; on a loaded machine that
		// wake-up alone took tens of milliseconds now and then, charged
		// to the engine by one harness and not by the other. The wait for
		// readyok discards what came before it, as the search would.
		if err := c.sync(ctx, "position", c.cfg.PingTimeout, pingLimit, positionCommand(pos)); err != nil {
			return engines.Result{}, err
		}
		sent, err = c.sendAt(goCmd)
	}
	if err != nil {
		return engines.Result{}, err
	}
	return c.wait(ctx, pos, lim, goCmd, sent, timed, info)
}

// ready reports why no search can start: a failed NewGame, Close, an
// engine that has exited, or a ponder search still running.
func (c *Client) ready() error {
	if err := c.newGameErr; err != nil {
		c.newGameErr = nil
		return err
	}
	select {
	case <-c.closing:
		return fmt.Errorf("engine %s: search after Close", c.command)
	default:
	}
	if c.Exited() {
		return failed(ErrExited, "engine %s has exited (%s)", c.command, c.status())
	}
	if c.ponder != nil {
		return fmt.Errorf("engine %s: search while pondering (end the ponder search with PonderHit or StopPonder)", c.command)
	}
	return nil
}

// wait reads the engine's output until its bestmove: the info lines go to
// info, the result's time runs from start. When ctx is cancelled, or a
// time-limited search runs SearchMargin past its budget, it sends "stop";
// without a bestmove within StopGrace the engine is killed.
func (c *Client) wait(ctx context.Context, pos engines.Position, lim engines.Limits, goCmd string, start time.Time, synced bool, info engines.InfoFunc) (engines.Result, error) {
	// The deadlines of the wait, zero while not running: the watchdog's,
	// the grace after "stop", and the moment given to output written
	// just before the engine's exit. The read wakes at the earliest.
	var watchdog, grace, drain time.Time
	if budget, ok := timeBudget(pos, lim); ok {
		watchdog = time.Now().Add(budget + c.cfg.SearchMargin)
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	defer c.wakeOn(ctx)()
	stopped, exited := false, false
	// The search's state is the client's, and its handler of lines a
	// method value made once: a closure and a state per search were
	// two allocations a move.
	s := &c.search
	*s = searchState{c: c, info: info, start: start, synced: synced, fields: s.fields, pvText: s.pvText[:0]}
	defer func() { s.info, s.res = nil, engines.Result{} }()
	for {
		err := c.readLines(earliest(watchdog, grace, drain), c.takeFn)
		if err == nil {
			return s.res, s.err
		}
		if err != errWake {
			return engines.Result{}, c.exitError("during search (" + goCmd + ")")
		}
		// Woken: by a deadline, the context or the engine's exit.
		now := time.Now()
		switch {
		case !drain.IsZero() && !now.Before(drain):
			return engines.Result{}, failed(ErrExited, "engine %s exited during search (%s) (%s)", c.command, goCmd, c.status())
		case !grace.IsZero() && !now.Before(grace):
			c.kill()
			return engines.Result{}, fmt.Errorf("engine %s did not answer \"stop\" with bestmove within %v; process killed", c.command, c.cfg.StopGrace)
		}
		if !stopped && (ctx.Err() != nil || (!watchdog.IsZero() && !now.Before(watchdog))) {
			// A failed write means the engine is dying; its exit ends
			// the read, and the grace bounds the wait anyway.
			stopped, watchdog = true, time.Time{}
			_ = c.send("stop")
			grace = now.Add(c.cfg.StopGrace)
		}
		if !exited && c.Exited() {
			// Give output written just before the exit (maybe the
			// bestmove) a moment to arrive.
			exited = true
			drain = now.Add(100 * time.Millisecond)
		}
	}
}

// earliest is the earliest of the times that are not zero; zero if all
// are.
func earliest(ts ...time.Time) time.Time {
	var e time.Time
	for _, t := range ts {
		if !t.IsZero() && (e.IsZero() || t.Before(e)) {
			e = t
		}
	}
	return e
}

// searchState is what a search has read so far.
type searchState struct {
	c     *Client
	info  engines.InfoFunc
	start time.Time // when go was sent
	res   engines.Result
	err   error // the search's error, with its last line (see line)
	exact bool  // res.Score comes from an exact (not bound) score
	// refusal is the engine's last "info string error..." of this search: a
	// bestmove without a move after it is a failure (the built-in server
	// refuses a rejected position so), not a position without moves.
	refusal string
	// synced is set by the readyok of the isready sent before "go"; the
	// lines before it answer an earlier search.
	synced bool
	// fields is the buffer each line is split into, kept from search to
	// search.
	fields []string
	// pvText is the kept PV's moves, joined, while no info callback wants
	// each line's PV: res.PV is made from it once, at bestmove, rather
	// than a PV copied from every line of the search.
	pvText []byte
	pvKept bool // pvText holds res.PV
}

// take is line as readLines' handler: true at bestmove, with the
// search's error in err.
func (s *searchState) take(l outLine) bool {
	done, err := s.line(l)
	s.err = err
	return done
}

// line takes one line of the engine's output; done is true at bestmove,
// with the error that a bestmove without a move after a refusal is.
func (s *searchState) line(line outLine) (done bool, err error) {
	// The fields go into a buffer kept from line to line, and are views of
	// the line, which is a view of the read buffer: what the search keeps
	// of them (the move, the ponder move, the PV) is copied.
	f := s.fields[:0]
	for w := range strings.FieldsSeq(line.text) {
		f = append(f, w)
	}
	s.fields = f
	if len(f) == 0 {
		return false, nil
	}
	if !s.synced {
		s.synced = f[0] == "readyok"
		return false, nil
	}
	switch f[0] {
	case "info":
		s.infoLine(f[1:])
	case "bestmove":
		// A bestmove read before the clock started (an engine that
		// answered a ponder search before ponderhit) took no time of it.
		s.res.Time = max(0, line.at.Sub(s.start))
		if len(f) > 1 && f[1] != "(none)" && f[1] != "0000" {
			s.res.Move = strings.Clone(f[1])
		}
		if len(f) > 3 && f[2] == "ponder" {
			s.res.Ponder = strings.Clone(f[3])
		}
		if s.pvKept {
			pv := string(s.pvText)
			s.res.PV = make([]string, 0, strings.Count(pv, " ")+1)
			for m := range strings.SplitSeq(pv, " ") {
				s.res.PV = append(s.res.PV, m)
			}
		}
		if s.res.Move == "" && s.refusal != "" {
			return true, fmt.Errorf("engine %s gave no move: %s", s.c.command, s.refusal)
		}
		return true, nil
	}
	return false, nil
}

// clonePV copies a PV out of the line it is a view of: one string for
// all its moves.
func clonePV(pv []string) []string {
	n := 0
	for _, m := range pv {
		n += len(m)
	}
	var b strings.Builder
	b.Grow(n)
	for _, m := range pv {
		b.WriteString(m)
	}
	all := b.String()
	out := make([]string, len(pv))
	for i, m := range pv {
		out[i], all = all[:len(m)], all[len(m):]
	}
	return out
}

// infoLine takes the fields of an "info" line after the word "info".
func (s *searchState) infoLine(fields []string) {
	c := s.c
	l := parseInfo(fields)
	if l.dropped > 0 && c.infoDropped == 0 {
		c.firstDropped = l.firstDropped
	}
	c.infoDropped += l.dropped
	if l.info.String != "" {
		l.info.String = strings.Clone(l.info.String)
		if isErrorString(l.info.String) {
			s.refusal = l.info.String
		}
		if s.info != nil {
			s.info(l.info)
		}
		return
	}
	if l.hasNodes {
		s.res.Nodes = l.info.Nodes
	}
	if !l.mainLine() {
		return
	}
	if l.hasPV && s.info != nil {
		l.info.PV = clonePV(l.info.PV) // the callback may keep it
	}
	// An aspiration fail (bound) only replaces a deeper result when no
	// exact score has been seen at its depth.
	if l.hasScore && (!l.bound || !s.exact || l.info.Depth > s.res.Depth) {
		s.res.Score, s.res.Depth, s.res.SelDepth = l.info.Score, l.info.Depth, l.info.SelDepth
		switch {
		case !l.hasPV:
		case s.info != nil:
			s.res.PV, s.pvKept = l.info.PV, false
		case len(l.info.PV) == 0: // "pv" and no moves
			s.res.PV, s.pvKept = nil, false
		default:
			s.pvText = s.pvText[:0]
			for i, m := range l.info.PV {
				if i > 0 {
					s.pvText = append(s.pvText, ' ')
				}
				s.pvText = append(s.pvText, m...)
			}
			s.res.PV, s.pvKept = nil, true
		}
		s.exact = !l.bound
	}
	// Progress-only lines ("info depth 20 currmove e2e4") carry no
	// evaluation and would read as "score cp 0".
	if s.info != nil && (l.hasScore || l.hasPV) {
		s.info(l.info)
	}
}
