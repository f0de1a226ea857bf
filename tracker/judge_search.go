package tracker

import (
	"context"
	"fmt"

	"arena/engines"
	"arena/engines/uci"
)

// search runs "go depth N" on an idle process, retried once on a fresh one
// if it fails.
func (j *Judge) search(ctx context.Context, key string) (Eval, error) {
	var c *uci.Client
	select {
	case c = <-j.free:
	case <-ctx.Done():
		return Eval{}, ctx.Err()
	}
	fen := key + " 0 1"
	c, e, err := j.retry(ctx, c, func(c *uci.Client) (Eval, error) {
		// A fresh search state (hash, history tables) makes the result
		// depend on the position only.
		c.NewGame()
		return j.searchOn(ctx, c, engines.Position{FEN: fen})
	})
	j.free <- c
	return e, err
}

// retry runs do on c; when it fails (the process died, broke the protocol
// or did not answer within the timeout; its exit may not be visible yet
// when its output ends) the process is replaced and do run once more on the
// new one. It returns the process to give back to the pool: on a failed
// restart the old one, so the next search tries again rather than waiting
// for a free process.
func (j *Judge) retry(ctx context.Context, c *uci.Client, do func(*uci.Client) (Eval, error)) (*uci.Client, Eval, error) {
	e, err := do(c)
	if err == nil || ctx.Err() != nil {
		return c, e, err
	}
	nc, serr := j.start(ctx)
	if serr != nil {
		return c, e, fmt.Errorf("%w; restarting Stockfish failed: %v", err, serr)
	}
	j.drop(c)
	j.restarts.Add(1)
	e, err = do(nc)
	if err != nil {
		err = fmt.Errorf("%w (after a restart)", err)
	}
	return nc, e, err
}

// searchOn runs one "go depth N" for pos, bounded by the judge's timeout:
// a search that has not answered by then is stopped, and the client kills a
// Stockfish that ignores the stop, so no wait on the judge is unbounded.
func (j *Judge) searchOn(ctx context.Context, c *uci.Client, pos engines.Position) (Eval, error) {
	sctx, cancel := context.WithTimeout(ctx, j.cfg.Timeout)
	defer cancel()
	res, err := c.Search(sctx, pos, engines.Limits{Depth: j.cfg.Depth}, nil)
	where := positionCommandText(pos)
	// A cancelled search returns what it had; a partial evaluation must
	// neither be used nor cached.
	if ctx.Err() != nil {
		return Eval{}, ctx.Err()
	}
	if sctx.Err() != nil {
		why := "stopped"
		if err != nil {
			why = err.Error()
		}
		return Eval{}, fmt.Errorf("judge: evaluate %s: no answer to \"go depth %d\" within the judge timeout %v (%s)", where, j.cfg.Depth, j.cfg.Timeout, why)
	}
	if err != nil {
		return Eval{}, fmt.Errorf("judge: evaluate %s: %w", where, err)
	}
	if res.Move == "" {
		return Eval{}, fmt.Errorf("judge: %s answered %s with no move although the position is not terminal", j.name, where)
	}
	j.evaluations.Add(1)
	return Eval{CP: res.Score.CP, Mate: res.Score.Mate, IsMate: res.Score.IsMate(), Depth: res.Depth}, nil
}

// positionCommandText names a position in errors: its FEN, and the number
// of moves after it when the judge sends the history.
func positionCommandText(pos engines.Position) string {
	fen := pos.FEN
	if fen == "" {
		fen = "the start position"
	}
	if len(pos.Moves) == 0 {
		return fen
	}
	return fmt.Sprintf("%s after %d moves", fen, len(pos.Moves))
}
