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
// the engine is killed and an error returned.
func (c *Client) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	if err := c.ready(); err != nil {
		return engines.Result{}, err
	}
	goCmd := goCommand(lim)
	cmds := []string{positionCommand(pos), "isready", goCmd}
	synced := false
	if _, timed := timeBudget(pos, lim); timed {
		// As fastchess: "position", then isready and its readyok, then
		// "go", the move's time counting from the go. The engine's
		// wake-up from its wait for input and its reading of the position
		// happen before the clock starts; on a loaded machine that
		// wake-up alone took tens of milliseconds now and then, charged
		// to the engine by one harness and not by the other. The wait for
		// readyok discards what came before it, as the search would.
		if err := c.sync(ctx, "position", c.cfg.PingTimeout, pingLimit, cmds[0]); err != nil {
			return engines.Result{}, err
		}
		cmds, synced = cmds[2:], true
	}
	sent, err := c.sendAt(cmds...)
	if err != nil {
		return engines.Result{}, err
	}
	return c.wait(ctx, pos, lim, goCmd, sent, synced, info)
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
	var watchdog <-chan time.Time
	if budget, ok := timeBudget(pos, lim); ok {
		t := time.NewTimer(budget + c.cfg.SearchMargin)
		defer t.Stop()
		watchdog = t.C
	}
	var grace, drain <-chan time.Time
	ctxDone, exited := ctx.Done(), c.exited
	stop := func() {
		// A failed write means the engine is dying; its exit is reported
		// through lines/exited, and the grace timer bounds the wait anyway.
		_ = c.send("stop")
		grace = time.After(c.cfg.StopGrace)
	}
	s := searchState{c: c, info: info, start: start, synced: synced}
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return engines.Result{}, c.exitError("during search (" + goCmd + ")")
			}
			if done, err := s.line(line); done {
				return s.res, err
			}
		case <-ctxDone:
			ctxDone, watchdog = nil, nil
			if grace == nil {
				stop()
			}
		case <-watchdog:
			watchdog = nil
			if grace == nil {
				stop()
			}
		case <-grace:
			c.kill()
			return engines.Result{}, fmt.Errorf("engine %s did not answer \"stop\" with bestmove within %v; process killed", c.command, c.cfg.StopGrace)
		case <-exited:
			// Give output written just before the exit (maybe the bestmove)
			// a moment to arrive through lines.
			exited = nil
			drain = time.After(100 * time.Millisecond)
		case <-drain:
			return engines.Result{}, failed(ErrExited, "engine %s exited during search (%s) (%s)", c.command, goCmd, c.status())
		}
	}
}

// searchState is what a search has read so far.
type searchState struct {
	c     *Client
	info  engines.InfoFunc
	start time.Time // when go was sent
	res   engines.Result
	exact bool // res.Score comes from an exact (not bound) score
	// refusal is the engine's last "info string error..." of this search: a
	// bestmove without a move after it is a failure (the built-in server
	// refuses a rejected position so), not a position without moves.
	refusal string
	// synced is set by the readyok of the isready sent before "go"; the
	// lines before it answer an earlier search.
	synced bool
}

// line takes one line of the engine's output; done is true at bestmove,
// with the error that a bestmove without a move after a refusal is.
func (s *searchState) line(line outLine) (done bool, err error) {
	// The fields go into the client's buffer (nothing keeps them: infoLine
	// copies the PV): an engine writes several lines a move.
	f := s.c.fields[:0]
	for w := range strings.FieldsSeq(line.text) {
		f = append(f, w)
	}
	s.c.fields = f
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
			s.res.Move = f[1]
		}
		if len(f) > 3 && f[2] == "ponder" {
			s.res.Ponder = f[3]
		}
		if s.res.Move == "" && s.refusal != "" {
			return true, fmt.Errorf("engine %s gave no move: %s", s.c.command, s.refusal)
		}
		return true, nil
	}
	return false, nil
}

// infoLine takes the fields of an "info" line after the word "info".
func (s *searchState) infoLine(fields []string) {
	c := s.c
	l := parseInfo(fields)
	if l.dropped > 0 && c.infoDropped == 0 {
		c.firstDropped = l.firstDropped
	}
	c.infoDropped += l.dropped
	if isErrorString(l.info.String) {
		s.refusal = l.info.String
	}
	if l.info.String != "" {
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
	// An aspiration fail (bound) only replaces a deeper result when no
	// exact score has been seen at its depth.
	if l.hasScore && (!l.bound || !s.exact || l.info.Depth > s.res.Depth) {
		s.res.Score, s.res.Depth, s.res.SelDepth = l.info.Score, l.info.Depth, l.info.SelDepth
		if l.hasPV {
			s.res.PV = l.info.PV
		}
		s.exact = !l.bound
	}
	// Progress-only lines ("info depth 20 currmove e2e4") carry no
	// evaluation and would read as "score cp 0".
	if s.info != nil && (l.hasScore || l.hasPV) {
		s.info(l.info)
	}
}
