package uci

import (
	"context"
	"fmt"
	"time"

	"arena/engines"
)

// Pondering, as cutechess drives it: after its move the engine is given
// the position after the move it expects in reply (its "ponder" move) and
// "go ponder" with the clocks as they stand, and thinks while its opponent
// does. If the opponent plays that move the engine gets "ponderhit" and
// its search goes on as a normal one; its clock starts then, so the
// result's time counts from ponderhit. Otherwise it gets "stop", its
// bestmove (for a position that did not happen) is discarded, and a
// normal search follows. The info lines of the ponder phase stay queued
// and are read with the rest, so the result's nodes and depth are the last
// the engine reported for the move, ponder phase included when the engine
// counts it (Stockfish does).

// ponderSearch is a "go ponder" sent and not yet ended.
type ponderSearch struct {
	pos   engines.Position
	lim   engines.Limits
	goCmd string
}

// PonderOption is the UCI option by which an engine says it can ponder
// and a GUI says it will let it.
const PonderOption = "Ponder"

// Ponder starts a ponder search of pos (the game with the expected reply
// already played) under lim, and returns at once. The engine thinks until
// PonderHit or StopPonder, one of which must follow before any other
// search.
func (c *Client) Ponder(pos engines.Position, lim engines.Limits) error {
	if err := c.ready(); err != nil {
		return err
	}
	goCmd := "go ponder" + goCommand(lim)[len("go"):]
	if err := c.send(positionCommand(pos), "isready", goCmd); err != nil {
		return err
	}
	c.ponder = &ponderSearch{pos: pos, lim: lim, goCmd: goCmd}
	return nil
}

// Pondering reports whether a ponder search is running.
func (c *Client) Pondering() bool { return c.ponder != nil }

// PonderHit tells the pondering engine that the expected move was played
// and waits for its bestmove as Search does; the result's time runs from
// the ponderhit.
func (c *Client) PonderHit(ctx context.Context, info engines.InfoFunc) (engines.Result, error) {
	p := c.ponder
	if p == nil {
		return engines.Result{}, fmt.Errorf("engine %s: ponderhit without a ponder search", c.command)
	}
	c.ponder = nil
	sent, err := c.sendAt("ponderhit")
	if err != nil {
		return engines.Result{}, err
	}
	return c.wait(ctx, p.pos, p.lim, p.goCmd+" (ponderhit)", sent, false, info)
}

// StopPonder ends a ponder search whose expected move was not played:
// "stop", and the engine's bestmove is read and discarded. An engine that
// does not answer within StopGrace is killed and an error returned.
func (c *Client) StopPonder() error {
	p := c.ponder
	if p == nil {
		return nil
	}
	c.ponder = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // "stop" at once
	_, err := c.wait(ctx, p.pos, p.lim, p.goCmd+" (stop)", time.Now(), false, nil)
	return err
}
