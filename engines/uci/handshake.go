package uci

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

func (c *Client) handshake(ctx context.Context) error {
	if err := c.send("uci"); err != nil {
		return err
	}
	err := c.await(ctx, "uci", "uciok", c.cfg.StartTimeout, startLimit, func(line string) bool {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "uciok":
			return true
		case f[0] == "id" && len(f) > 2 && f[1] == "name":
			c.name = strings.Join(f[2:], " ")
		case f[0] == "option":
			if o, ok := parseOption(f[1:]); ok {
				c.options = append(c.options, o)
			}
		}
		return false
	})
	if err != nil {
		return err
	}
	names := make([]string, 0, len(c.cfg.Options))
	for n := range c.cfg.Options {
		names = append(names, n)
	}
	sort.Strings(names) // deterministic order, e.g. Threads before Hash is not implied by a map
	cmds := make([]string, len(names))
	for i, n := range names {
		if cmds[i], err = c.setOptionCommand(n, c.cfg.Options[n]); err != nil {
			return err
		}
	}
	return c.sync(ctx, "uci", c.cfg.StartTimeout, startLimit, cmds...)
}

// The names of the limits in an arena config (and, dashed, as flags of
// arena suite and arena analyze), for the error of an engine that does
// not answer in time.
const (
	startLimit   = "start_timeout"
	newGameLimit = "ucinewgame_timeout"
	pingLimit    = "ping_timeout"
)

// setOptionCommand validates a value against the engine's announced option.
func (c *Client) setOptionCommand(name, value string) (string, error) {
	for _, o := range c.options {
		if !strings.EqualFold(o.Name, name) {
			continue
		}
		if o.Type == button {
			return "setoption name " + o.Name, nil
		}
		norm, err := o.Check(value)
		if err != nil {
			return "", fmt.Errorf("engine %s: %w", c.command, err)
		}
		return "setoption name " + o.Name + " value " + norm, nil
	}
	valid := make([]string, len(c.options))
	for i, o := range c.options {
		valid[i] = o.Name
	}
	return "", fmt.Errorf("engine %s: unknown option %q (engine options: %s)", c.command, name, strings.Join(valid, ", "))
}

// HasOption reports whether the engine announced an option of that name
// (case-insensitive).
func (c *Client) HasOption(name string) bool {
	for _, o := range c.options {
		if strings.EqualFold(o.Name, name) {
			return true
		}
	}
	return false
}

// SetOption sets one of the engine's options between searches, validated
// as ClientConfig.Options are, and waits for the engine to be ready.
func (c *Client) SetOption(ctx context.Context, name, value string) error {
	cmd, err := c.setOptionCommand(name, value)
	if err != nil {
		return err
	}
	return c.sync(ctx, "setoption", c.cfg.PingTimeout, pingLimit, cmd)
}

// sync sends cmds and isready (in one write) and waits for readyok for
// at most timeout (the config key limit).
func (c *Client) sync(ctx context.Context, after string, timeout time.Duration, limit string, cmds ...string) error {
	if err := c.send(append(cmds, "isready")...); err != nil {
		return err
	}
	return c.await(ctx, after+"/isready", "readyok", timeout, limit, func(line string) bool {
		return strings.TrimSpace(line) == "readyok"
	})
}

// NewGame sends ucinewgame and waits for the engine to be ready. A failure
// is returned by the next Search, as the Engine interface has no error here.
func (c *Client) NewGame() {
	c.newGameErr = c.sync(context.Background(), "ucinewgame", c.cfg.NewGameTimeout, newGameLimit, "ucinewgame")
}
