package config

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/engines/uci"
	"arena/tracker"
)

var topKeys = KeysOf("")

// config decodes the top-level mapping into c, then fills in what depends
// on several keys: the engines' limits and log directories, the name and the
// tournament's format and anchor.
func (d *decoder) config(n *yaml.Node, c *Config) error {
	setDefaults(c)
	var st topLevel
	err := d.mapping(n, "", topKeys, func(key string, v *yaml.Node) error {
		return d.topKey(key, v, c, &st)
	})
	if err != nil {
		return err
	}
	if err := d.engineLimits(n, st.engines, c, st.overrides); err != nil {
		return err
	}
	for i := range c.Engines {
		if c.Engines[i].Log == "" {
			c.Engines[i].Log = st.logDir
		}
	}
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(d.file), filepath.Ext(d.file))
	}
	return d.tournament(n, c, st.format, st.anchor)
}

// topLevel keeps what config checks after the whole mapping is decoded.
type topLevel struct {
	engines, format, anchor *yaml.Node
	logDir                  string // the top-level log:, given to engines without their own
	overrides               []*limitsSpec
}

// topKey decodes one top-level key into c (or st). It is one case per key
// of topKeys, so it grows with the schema; each case is a line or two.
func (d *decoder) topKey(key string, v *yaml.Node, c *Config, st *topLevel) error {
	var err error
	var i int64
	switch key {
	case "name":
		c.Name, err = d.name(v, key)
	case "format":
		st.format = v
		if c.Format, err = d.str(v, key); err == nil && !slices.Contains(formats, c.Format) {
			err = d.errorf(v, key, "%q is not a format (expected %s)", c.Format, strings.Join(formats, ", "))
		}
	case "pairs":
		c.Pairs, err = d.bool(v, key)
	case "anchor":
		st.anchor = v
		c.Anchor, err = d.str(v, key)
	case "sprt":
		c.SPRT, err = d.sprt(v, key)
	case "games":
		if i, err = d.int(v, key, 1); err == nil && i > MaxGames {
			err = d.errorf(v, key, "%d is more than the %d games a run may schedule", i, MaxGames)
		}
		c.Games = int(i)
	case "concurrency":
		if i, err = d.int(v, key, 1); err == nil && i > MaxConcurrency {
			err = d.errorf(v, key, "%d games at once is more than the limit of %d", i, MaxConcurrency)
		}
		c.Concurrency = int(i)
	case "max_moves":
		i, err = d.int(v, key, 0)
		c.MaxMoves = int(i)
	case "rating_interval":
		i, err = d.int(v, key, 0)
		c.RatingInterval = int(i)
	case "game_end":
		if c.GameEnd, err = d.str(v, key); err == nil && c.GameEnd != GameEndClaim && c.GameEnd != GameEndFivefold {
			err = d.errorf(v, key, "%q is not a game-end rule (expected %s or %s)", c.GameEnd, GameEndClaim, GameEndFivefold)
		}
	case "seed":
		c.Seed, err = d.int(v, key, math.MinInt64)
	case "time_margin":
		c.TimeMargin, err = d.duration(v, key)
	case "time_forfeit":
		var on bool
		on, err = d.bool(v, key)
		c.TimeForfeit = TimeForfeit{Off: !on}
	case "move_timeout":
		c.MoveTimeout, err = d.duration(v, key)
	case "start_timeout":
		c.StartTimeout, err = d.timeout(v, key)
	case "ucinewgame_timeout":
		c.NewGameTimeout, err = d.timeout(v, key)
	case "ping_timeout":
		c.PingTimeout, err = d.timeout(v, key)
	case "log":
		st.logDir, err = d.logDir(v, key)
	case "adjudicate":
		c.Adjudicate, err = d.adjudicate(v, key)
	case "noswap":
		c.NoSwap, err = d.bool(v, key)
	case "reverse":
		c.Reverse, err = d.bool(v, key)
	case "limits":
		var l *limitsSpec
		if l, err = d.limits(v, key); err == nil {
			c.Limits = l.Limits
		}
	case "engines":
		st.engines = v
		c.Engines, st.overrides, err = d.engines(v, key)
	case "openings":
		c.Openings, err = d.openings(v, key)
	case "judge":
		err = d.judge(v, key, &c.Judge)
	case "output":
		err = d.output(v, key, &c.Output)
		// "sweep" is taken out by Parse before the settings are decoded.
	}
	return err
}

// setDefaults fills in what a config file may leave out.
func setDefaults(c *Config) {
	c.Games = DefaultGames
	c.Concurrency = 1
	c.MaxMoves = DefaultMaxMoves
	c.GameEnd = GameEndClaim
	c.Seed = DefaultSeed
	c.TimeMargin = Duration(DefaultTimeMargin)
	c.MoveTimeout = Duration(DefaultMoveTimeout)
	c.StartTimeout = Duration(uci.DefaultStartTimeout)
	c.NewGameTimeout = Duration(uci.DefaultNewGameTimeout)
	c.PingTimeout = Duration(uci.DefaultPingTimeout)
	c.Judge = JudgeConfig{JudgeConfig: tracker.JudgeConfig{}.WithDefaults()}
	c.Output = OutputConfig{Dir: DefaultOutputDir}
	c.Pairs = DefaultPairs
}

// engineLimits checks that there are at least two engines and gives each
// its limits: the global ones with the engine's own overrides on top, which
// must bound the search.
func (d *decoder) engineLimits(n, enginesNode *yaml.Node, c *Config, overrides []*limitsSpec) error {
	if enginesNode == nil {
		return d.errorf(n, "engines", "missing (expected a list of at least 2 engines)")
	}
	if len(c.Engines) < 2 {
		return d.errorf(keyNode(n, "engines"), "engines", "%d engine(s) given, a match needs at least 2", len(c.Engines))
	}
	if err := d.validateLimits(n, "limits", c.Limits); err != nil {
		return err
	}
	for i := range c.Engines {
		e := &c.Engines[i]
		e.Limits = mergeLimits(c.Limits, overrides[i])
		node := enginesNode.Content[i]
		path := fmt.Sprintf("engines[%d]", i)
		if err := d.validateLimits(node, path+".limits", e.Limits); err != nil {
			return err
		}
		if e.Limits.IsZero() {
			return d.errorf(node, path, "engine %q has no limits (set limits: {movetime: 1s} or nodes, depth, tc, globally or for this engine)", e.Name)
		}
	}
	return nil
}

// tournament checks the keys that depend on the engines: the format, the
// anchor and the SPRT.
func (d *decoder) tournament(n *yaml.Node, c *Config, formatNode, anchorNode *yaml.Node) error {
	switch {
	case c.Format == "" && len(c.Engines) == 2:
		c.Format = FormatMatch
	case c.Format == "":
		c.Format = FormatRoundRobin
	case c.Format == FormatMatch && len(c.Engines) != 2:
		return d.errorf(formatNode, "format", "a match is between exactly 2 engines, %d given (use round-robin or gauntlet)", len(c.Engines))
	}
	names := make([]string, len(c.Engines))
	for i, e := range c.Engines {
		names[i] = e.Name
	}
	switch {
	case c.Anchor == "":
		c.Anchor = names[0]
	case !slices.Contains(names, c.Anchor):
		return d.errorf(anchorNode, "anchor", "%q is not an engine name (engines: %s)", c.Anchor, strings.Join(names, ", "))
	}
	if c.Format == FormatKnockout {
		if total := int64(c.Games) * int64(len(c.Engines)-1); total > MaxGames {
			return d.errorf(keyNode(n, "games"), "games", "%d games per encounter times %d encounters is %d games, more than the %d a run may schedule", c.Games, len(c.Engines)-1, total, MaxGames)
		}
	} else if total := int64(c.Games) * int64(len(c.Pairings())); total > MaxGames {
		return d.errorf(keyNode(n, "games"), "games", "%d games per pairing times %d pairings is %d games, more than the %d a run may schedule", c.Games, len(c.Pairings()), total, MaxGames)
	}
	if c.SPRT != nil && c.Format == FormatKnockout {
		return d.errorf(keyNode(n, "sprt"), "sprt", "an SPRT stops a match; a knockout decides each encounter by its score (use format: match for an SPRT)")
	}
	if c.SPRT != nil && len(c.Engines) != 2 {
		return d.errorf(keyNode(n, "sprt"), "sprt", "an SPRT tests a match of exactly 2 engines, %d given", len(c.Engines))
	}
	return nil
}

var sprtKeys = KeysOf("sprt")

// sprt reads the sprt: mapping and validates it with the tracker, pointing
// each complaint at the key it concerns.
func (d *decoder) sprt(n *yaml.Node, path string) (*tracker.SPRT, error) {
	var s tracker.SPRT
	set := map[string]bool{}
	err := d.mapping(n, path, sprtKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		set[key] = true
		var err error
		switch key {
		case "elo0":
			s.Elo0, err = d.float(v, kp)
		case "elo1":
			s.Elo1, err = d.float(v, kp)
		case "alpha":
			s.Alpha, err = d.float(v, kp)
		case "beta":
			s.Beta, err = d.float(v, kp)
		case "model":
			var m string
			m, err = d.str(v, kp)
			s.Model = tracker.Model(m)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"elo0", "elo1"} {
		if !set[k] {
			return nil, d.errorf(n, join(path, k), "missing (the SPRT tests H0: Elo = elo0 against H1: Elo = elo1, e.g. sprt: {elo0: 0, elo1: 10})")
		}
	}
	s = s.WithDefaults()
	if err := s.Validate(); err != nil {
		// The tracker's messages read "sprt FIELD ...: ..."; the first
		// one is reported at its key.
		msg := strings.SplitN(err.Error(), "\n", 2)[0]
		field := strings.TrimPrefix(msg, "sprt ")
		field = field[:strings.IndexAny(field+" :", " :")]
		at, key := n, path
		if slices.Contains(sprtKeys, field) && keyNode(n, field) != n {
			at, key = keyNode(n, field), join(path, field)
		}
		return nil, d.errorf(at, key, "%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	return &s, nil
}

func (d *decoder) validateLimits(n *yaml.Node, path string, l Limits) error {
	if l.MoveTime > 0 && l.TC != nil {
		return d.errorf(n, path, "movetime and tc cannot both be set (a move has either a fixed time or a clock)")
	}
	return nil
}

// mergeLimits applies an engine's limits over the global ones key by key. A
// time control (movetime or tc) in the engine's limits replaces the global
// one of either kind, since the two exclude each other.
func mergeLimits(global Limits, over *limitsSpec) Limits {
	l := global
	if over == nil {
		return l
	}
	if over.set["movetime"] || over.set["tc"] {
		l.MoveTime, l.TC = 0, nil
	}
	if over.set["movetime"] {
		l.MoveTime = over.MoveTime
	}
	if over.set["tc"] {
		l.TC = over.TC
	}
	if over.set["nodes"] {
		l.Nodes = over.Nodes
	}
	if over.set["depth"] {
		l.Depth = over.Depth
	}
	return l
}

// limitsSpec is a limits mapping as written, remembering which keys were
// set so that an engine's "movetime: 0" can clear an inherited limit.
type limitsSpec struct {
	Limits
	set map[string]bool
}

var limitKeys = KeysOf("limits")

func (d *decoder) limits(n *yaml.Node, path string) (*limitsSpec, error) {
	l := &limitsSpec{set: map[string]bool{}}
	err := d.mapping(n, path, limitKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		l.set[key] = true
		var err error
		var i int64
		switch key {
		case "movetime":
			l.MoveTime, err = d.duration(v, kp)
		case "nodes":
			l.Nodes, err = d.int(v, kp, 0)
		case "depth":
			i, err = d.int(v, kp, 0)
			l.Depth = int(i)
		case "tc":
			var s string
			if s, err = d.scalar(v, kp, "a time control"); err != nil {
				return err
			}
			if s == "0" || s == "" || strings.EqualFold(s, "inf") {
				l.TC = nil
				return nil
			}
			tc, perr := ParseTimeControl(s)
			if perr != nil {
				return d.errorf(v, kp, "%v", perr)
			}
			l.TC = &tc
		}
		return err
	})
	return l, err
}
