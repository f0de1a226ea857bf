// Package config is the arena's YAML schema: the Config type, its defaults,
// its validation (every error names the file, line and key) and sweep
// expansion (one resolved Config per value of the swept key). It knows
// nothing of running games; the arena package imports it, never the other
// way round, so the schema can be read (arena check, the report, shards
// and merges) without the runner.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"arena/arena/openings"
	"arena/engines"
	"arena/internal/clip"
	"arena/tracker"
)

// The game-end rules (game_end).
const (
	GameEndClaim    = "claim"    // threefold repetition and fifty moves are claimed at once
	GameEndFivefold = "fivefold" // play on to fivefold repetition and 75 moves, as the thesis
)

// Defaults for keys that a config file leaves out.
const (
	DefaultGames       = 2
	DefaultMaxMoves    = 180
	DefaultSeed        = 1
	DefaultTimeMargin  = time.Second
	DefaultMoveTimeout = 5 * time.Minute
	DefaultOutputDir   = "results"
	DefaultOpeningOrd  = "sequential"
	DefaultPairs       = true
	// MaxGames bounds the games a config schedules (games per pairing
	// times pairings) and MaxConcurrency the games played at once: a typo
	// of a few zeros is an error, not a run that never ends.
	MaxGames       = 100_000_000
	MaxConcurrency = 1024
)

// Tournament formats (the format: key).
const (
	FormatMatch      = "match"       // two engines
	FormatRoundRobin = "round-robin" // every engine against every other
	FormatGauntlet   = "gauntlet"    // engines[0] against each of the others
)

var formats = []string{FormatMatch, FormatRoundRobin, FormatGauntlet}

// UCIEngine is the engines[].engine value for an external UCI binary.
const UCIEngine = "uci"

// Config is a match description with every default filled in. It marshals to
// the resolved config.yaml written into the run directory, which Load reads
// back unchanged (that is how --resume restores a run).
type Config struct {
	Name   string `yaml:"name"`
	Format string `yaml:"format"` // FormatMatch, FormatRoundRobin or FormatGauntlet
	Games  int    `yaml:"games"`  // per pairing of engines
	// Concurrency is the number of games played at once, each with its
	// own engine processes (arena run --concurrency overrides it).
	Concurrency int `yaml:"concurrency"`
	// Pairs: consecutive games of a pairing are a game pair, one opening
	// played with the colours swapped; false: every game takes the next
	// opening (colours still alternate).
	Pairs    bool `yaml:"pairs"`
	MaxMoves int  `yaml:"max_moves"`
	// GameEnd is GameEndClaim (threefold and fifty moves claimed at once)
	// or GameEndFivefold (played on to fivefold repetition and 75 moves).
	GameEnd     string         `yaml:"game_end"`
	Seed        int64          `yaml:"seed"`
	TimeMargin  Duration       `yaml:"time_margin"`
	MoveTimeout Duration       `yaml:"move_timeout"`
	Limits      Limits         `yaml:"limits"`
	Engines     []EngineConfig `yaml:"engines"`
	// Anchor is the engine rated 0 in the rating table.
	Anchor   string           `yaml:"anchor"`
	Openings *openings.Config `yaml:"openings,omitempty"`
	// SPRT, when set (two engines only), stops the match once the test
	// decides. WithDefaults has been applied.
	SPRT   *tracker.SPRT `yaml:"sprt,omitempty"`
	Judge  JudgeConfig   `yaml:"judge"`
	Output OutputConfig  `yaml:"output"`

	// Sweep is set when the file has a sweep: key; the experiment is then
	// run once per setting (Sweep.Configs), and the other fields are those
	// of the first setting.
	Sweep *Sweep `yaml:"-"`

	// File is the path the config was loaded from ("" when built in code).
	File string `yaml:"-"`
}

// EngineConfig is one player. Limits holds the effective limits: the global
// ones with this engine's overrides applied. Options holds only the options
// the user set (for a built-in engine in canonical form): that is what the
// engine process receives, so it layers them over its own defaults and
// preset itself. Resolved is the view for display, every option of a
// built-in engine with the preset and defaults applied.
type EngineConfig struct {
	Name     string            `yaml:"name"`
	Engine   string            `yaml:"engine"`
	Command  string            `yaml:"command,omitempty"`
	Args     []string          `yaml:"args,omitempty"`
	Options  map[string]string `yaml:"options,omitempty"`
	Resolved engines.Options   `yaml:"-"`
	Limits   Limits            `yaml:"limits"`
}

// Builtin reports whether the engine is one of arena's own engines (run as
// "arena uci ENGINE") rather than an external UCI binary.
func (e EngineConfig) Builtin() bool { return e.Engine != UCIEngine }

// Limits bounds every move of an engine. Zero fields are unset.
type Limits struct {
	MoveTime Duration     `yaml:"movetime,omitempty"`
	Nodes    int64        `yaml:"nodes,omitempty"`
	Depth    int          `yaml:"depth,omitempty"`
	TC       *TimeControl `yaml:"tc,omitempty"`
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool {
	return l.MoveTime == 0 && l.Nodes == 0 && l.Depth == 0 && l.TC == nil
}

// String describes the limits for humans ("movetime 1s, depth 8").
func (l Limits) String() string {
	var parts []string
	if l.MoveTime > 0 {
		parts = append(parts, "movetime "+l.MoveTime.String())
	}
	if l.TC != nil {
		parts = append(parts, "tc "+l.TC.String())
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("nodes %d", l.Nodes))
	}
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", l.Depth))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// TimeControl is a game clock: Moves moves in Base (repeating; 0 means the
// whole game), plus Inc after every move.
type TimeControl struct {
	Moves int
	Base  time.Duration
	Inc   time.Duration
}

// String formats the time control as written in configs and in the PGN
// TimeControl tag: "40/60+0.6", "60+0.6", "300".
func (tc TimeControl) String() string {
	s := fmtSeconds(tc.Base)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Inc > 0 {
		s += "+" + fmtSeconds(tc.Inc)
	}
	return s
}

// MarshalYAML writes the time control in its string form.
func (tc TimeControl) MarshalYAML() (any, error) { return tc.String(), nil }

func fmtSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

var tcRe = regexp.MustCompile(`^(?:(\d+)/)?(?:(\d+):)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$`)

// ParseTimeControl parses "moves/time+increment" where "moves/" and
// "+increment" are optional and the time is seconds or minutes:seconds, as
// cutechess-cli and fastchess write it: "40/60+0.6", "40/1:00+0.6",
// "60+0.6", "300", "5:00". (An unlimited clock, "inf", is the absence of a
// time control; the config's tc key takes it.)
func ParseTimeControl(s string) (TimeControl, error) {
	m := tcRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return TimeControl{}, fmt.Errorf("%q is not a time control (expected moves/seconds+increment, e.g. \"40/60+0.6\", \"40/1:00+0.6\", \"60+0.6\" or \"300\")", s)
	}
	var tc TimeControl
	if m[1] != "" {
		tc.Moves, _ = strconv.Atoi(m[1])
		if tc.Moves == 0 {
			return TimeControl{}, fmt.Errorf("%q: the number of moves must be at least 1", s)
		}
	}
	base, _ := strconv.ParseFloat(m[3], 64)
	if m[2] != "" {
		if base >= 60 {
			return TimeControl{}, fmt.Errorf("%q: the seconds after \"minutes:\" must be below 60", s)
		}
		minutes, _ := strconv.Atoi(m[2])
		base += 60 * float64(minutes)
	}
	tc.Base = time.Duration(base * float64(time.Second))
	if tc.Base <= 0 {
		return TimeControl{}, fmt.Errorf("%q: the base time must be positive", s)
	}
	if m[4] != "" {
		inc, _ := strconv.ParseFloat(m[4], 64)
		tc.Inc = time.Duration(inc * float64(time.Second))
	}
	return tc, nil
}

// Duration is a time.Duration that YAML writes and reads as a Go duration
// ("1.5s").
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalYAML writes the duration in Go syntax.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }

// ParseDuration accepts Go durations ("1s", "250ms", "1m30s") and "0". A
// number without a unit is an error: "movetime: 100" meant 100 s to the
// config but 100 ms to most users.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f != 0 {
		return 0, fmt.Errorf("%q has no unit: add a unit, e.g. 100ms or 1s", s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (expected e.g. 1s, 250ms, 1m30s or a number of seconds)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}

// JudgeConfig is the judge: section: the tracker's judge configuration (one
// definition, with its defaults, for the arena, `arena analyze` and the
// report), or Off.
type JudgeConfig struct {
	Off bool
	tracker.JudgeConfig
}

// MarshalYAML writes "off" for a disabled judge.
func (j JudgeConfig) MarshalYAML() (any, error) {
	if j.Off {
		return "off", nil
	}
	return j.JudgeConfig, nil
}

// OutputConfig says where results go and how many games the PGN keeps.
type OutputConfig struct {
	Dir string  `yaml:"dir"`
	PGN PGNMode `yaml:"pgn"`
}

// PGNMode is which games games.pgn holds: all, none, or the last N.
type PGNMode struct {
	None bool
	Last int // 0 with None false: all games
}

func (m PGNMode) String() string {
	switch {
	case m.None:
		return "none"
	case m.Last > 0:
		return fmt.Sprintf("last %d", m.Last)
	}
	return "all"
}

// MarshalYAML writes the mode as "all", "none" or "last N".
func (m PGNMode) MarshalYAML() (any, error) { return m.String(), nil }

// ParsePGNMode parses "all", "none" or "last N".
func ParsePGNMode(s string) (PGNMode, error) {
	f := strings.Fields(strings.ToLower(s))
	switch {
	case len(f) == 1 && f[0] == "all":
		return PGNMode{}, nil
	case len(f) == 1 && f[0] == "none":
		return PGNMode{None: true}, nil
	case len(f) == 2 && f[0] == "last":
		n, err := strconv.Atoi(f[1])
		if err == nil && n > 0 {
			return PGNMode{Last: n}, nil
		}
	}
	return PGNMode{}, fmt.Errorf("%q is not a PGN mode (expected all, none or \"last N\" with N >= 1)", s)
}

// Marshal returns the config as YAML (the run directory's config.yaml).
func (c *Config) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Load reads, validates and resolves a config file. Errors name the file,
// the line and the key ("x.yaml:7: engines[1].engine: unknown engine ...").
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Parse is Load on data already read; path is used in messages and to find
// relative openings files.
func Parse(path string, data []byte) (*Config, error) {
	doc, err := singleDocument(path, data)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: path}
	root := doc.Content[0]
	if root.Kind == yaml.MappingNode && keyNode(root, "sweep") != root {
		return d.sweep(root)
	}
	c := &Config{File: path}
	if err := d.config(root, c); err != nil {
		return nil, err
	}
	return c, nil
}

// singleDocument parses data as exactly one YAML document: a second one
// (after "---") would otherwise be ignored without a word.
func singleDocument(path string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, next yaml.Node
	err := dec.Decode(&doc)
	if err == nil {
		if err = dec.Decode(&next); err == nil {
			return nil, fmt.Errorf("%s:%d: a second YAML document; a config file holds one (remove the \"---\" and merge the two, or use a sweep)", path, next.Line)
		}
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", path, clip.String(strings.TrimPrefix(err.Error(), "yaml: ")))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty config (expected a mapping with at least engines:)", path)
	}
	return &doc, nil
}

// decoder walks the YAML tree so that every error carries file:line and
// the dotted key path.
type decoder struct{ file string }

func (d *decoder) errorf(n *yaml.Node, key, format string, args ...any) error {
	// Values beyond a screenful are what the user wrote (the lists of
	// valid keys and values built here are shorter): cut them.
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > 1024 {
			args[i] = clip.String(s)
		}
	}
	msg := fmt.Sprintf(format, args...)
	if key != "" {
		msg = key + ": " + msg
	}
	return fmt.Errorf("%s:%d: %s", d.file, n.Line, msg)
}

// mapping calls fn for every key of a mapping node, rejecting keys not in
// valid and duplicated keys.
func (d *decoder) mapping(n *yaml.Node, path string, valid []string, fn func(key string, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, path, "expected a mapping with keys %s, got %s", strings.Join(valid, ", "), kindName(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kp := join(path, k.Value)
		if !slices.Contains(valid, k.Value) {
			return d.errorf(k, kp, "unknown key %q (valid keys: %s)", k.Value, strings.Join(valid, ", "))
		}
		if line, dup := seen[k.Value]; dup {
			return d.errorf(k, kp, "duplicate key (first set on line %d)", line)
		}
		seen[k.Value] = k.Line
		if err := fn(k.Value, v); err != nil {
			return err
		}
	}
	return nil
}

// keyNode returns the key node of a mapping entry (for its line number).
func keyNode(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i]
		}
	}
	return n
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

func (d *decoder) scalar(n *yaml.Node, path, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", d.errorf(n, path, "expected %s, got %s", what, kindName(n))
	}
	return n.Value, nil
}

func (d *decoder) str(n *yaml.Node, path string) (string, error) {
	return d.scalar(n, path, "a string")
}

// maxNameLen bounds match and engine names: they become directory names,
// table cells and PGN tags.
const maxNameLen = 200

func (d *decoder) name(n *yaml.Node, path string) (string, error) {
	s, err := d.str(n, path)
	if err == nil && len(s) > maxNameLen {
		err = d.errorf(n, path, "%q is %d bytes long, expected at most %d", s, len(s), maxNameLen)
	}
	return s, err
}

func (d *decoder) int(n *yaml.Node, path string, min int64) (int64, error) {
	s, err := d.scalar(n, path, "an integer")
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
	if err != nil {
		return 0, d.errorf(n, path, "%q is not an integer", s)
	}
	if v < min {
		return 0, d.errorf(n, path, "%d is too small (expected at least %d)", v, min)
	}
	return v, nil
}

func (d *decoder) float(n *yaml.Node, path string) (float64, error) {
	s, err := d.scalar(n, path, "a number")
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, d.errorf(n, path, "%q is not a number", s)
	}
	return v, nil
}

func (d *decoder) bool(n *yaml.Node, path string) (bool, error) {
	s, err := d.scalar(n, path, "true or false")
	if err != nil {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, d.errorf(n, path, "%q is not a boolean (expected true or false)", s)
}

func (d *decoder) duration(n *yaml.Node, path string) (Duration, error) {
	s, err := d.scalar(n, path, "a duration")
	if err != nil {
		return 0, err
	}
	v, err := ParseDuration(s)
	if err != nil {
		return 0, d.errorf(n, path, "%v", err)
	}
	return Duration(v), nil
}

var topKeys = []string{"name", "format", "games", "pairs", "max_moves", "game_end", "seed", "time_margin", "move_timeout", "concurrency", "limits", "engines",
	"anchor", "openings", "sprt", "judge", "output", "sweep"}

func (d *decoder) config(n *yaml.Node, c *Config) error {
	c.Games = DefaultGames
	c.Concurrency = 1
	c.MaxMoves = DefaultMaxMoves
	c.GameEnd = GameEndClaim
	c.Seed = DefaultSeed
	c.TimeMargin = Duration(DefaultTimeMargin)
	c.MoveTimeout = Duration(DefaultMoveTimeout)
	c.Judge = JudgeConfig{JudgeConfig: tracker.JudgeConfig{}.WithDefaults()}
	c.Output = OutputConfig{Dir: DefaultOutputDir}
	c.Pairs = DefaultPairs
	var enginesNode, formatNode, anchorNode *yaml.Node
	var overrides []*limitsSpec
	err := d.mapping(n, "", topKeys, func(key string, v *yaml.Node) error {
		var err error
		var i int64
		switch key {
		case "name":
			c.Name, err = d.name(v, key)
		case "format":
			formatNode = v
			if c.Format, err = d.str(v, key); err == nil && !slices.Contains(formats, c.Format) {
				err = d.errorf(v, key, "%q is not a format (expected %s)", c.Format, strings.Join(formats, ", "))
			}
		case "pairs":
			c.Pairs, err = d.bool(v, key)
		case "anchor":
			anchorNode = v
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
		case "game_end":
			if c.GameEnd, err = d.str(v, key); err == nil && c.GameEnd != GameEndClaim && c.GameEnd != GameEndFivefold {
				err = d.errorf(v, key, "%q is not a game-end rule (expected %s or %s)", c.GameEnd, GameEndClaim, GameEndFivefold)
			}
		case "seed":
			c.Seed, err = d.int(v, key, math.MinInt64)
		case "time_margin":
			c.TimeMargin, err = d.duration(v, key)
		case "move_timeout":
			c.MoveTimeout, err = d.duration(v, key)
		case "limits":
			var l *limitsSpec
			if l, err = d.limits(v, key); err == nil {
				c.Limits = l.Limits
			}
		case "engines":
			enginesNode = v
			c.Engines, overrides, err = d.engines(v, key)
		case "openings":
			c.Openings, err = d.openings(v, key)
		case "judge":
			err = d.judge(v, key, &c.Judge)
		case "output":
			err = d.output(v, key, &c.Output)
			// "sweep" is taken out by Parse before the settings are decoded.
		}
		return err
	})
	if err != nil {
		return err
	}
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
	if c.Name == "" {
		c.Name = strings.TrimSuffix(filepath.Base(d.file), filepath.Ext(d.file))
	}
	return d.tournament(n, c, formatNode, anchorNode)
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
	if total := int64(c.Games) * int64(len(c.Pairings())); total > MaxGames {
		return d.errorf(keyNode(n, "games"), "games", "%d games per pairing times %d pairings is %d games, more than the %d a run may schedule", c.Games, len(c.Pairings()), total, MaxGames)
	}
	if c.SPRT != nil && len(c.Engines) != 2 {
		return d.errorf(keyNode(n, "sprt"), "sprt", "an SPRT tests a match of exactly 2 engines, %d given", len(c.Engines))
	}
	return nil
}

var sprtKeys = []string{"elo0", "elo1", "alpha", "beta", "model"}

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

var limitKeys = []string{"movetime", "nodes", "depth", "tc"}

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

var engineKeys = []string{"name", "engine", "command", "args", "options", "limits"}

func (d *decoder) engines(n *yaml.Node, path string) ([]EngineConfig, []*limitsSpec, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, nil, d.errorf(n, path, "expected a list of engines, got %s", kindName(n))
	}
	var out []EngineConfig
	var overrides []*limitsSpec
	names := map[string]int{}
	for i, en := range n.Content {
		ep := fmt.Sprintf("%s[%d]", path, i)
		var e EngineConfig
		var over *limitsSpec
		var optNodes map[string]*yaml.Node
		var engineNode *yaml.Node
		err := d.mapping(en, ep, engineKeys, func(key string, v *yaml.Node) error {
			kp := join(ep, key)
			var err error
			switch key {
			case "name":
				e.Name, err = d.name(v, kp)
			case "engine":
				engineNode = v
				e.Engine, err = d.str(v, kp)
			case "command":
				e.Command, err = d.str(v, kp)
			case "args":
				if v.Kind != yaml.SequenceNode {
					return d.errorf(v, kp, "expected a list of strings, got %s", kindName(v))
				}
				for j, a := range v.Content {
					s, err := d.str(a, fmt.Sprintf("%s[%d]", kp, j))
					if err != nil {
						return err
					}
					e.Args = append(e.Args, s)
				}
			case "options":
				e.Options, optNodes, err = d.options(v, kp)
			case "limits":
				over, err = d.limits(v, kp)
			}
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		if err := d.engine(en, engineNode, ep, &e, optNodes); err != nil {
			return nil, nil, err
		}
		if line, dup := names[e.Name]; dup {
			return nil, nil, d.errorf(en, ep+".name", "duplicate engine name %q (also used by the engine on line %d; names must be distinct)", e.Name, line)
		}
		names[e.Name] = en.Line
		out = append(out, e)
		overrides = append(overrides, over)
	}
	return out, overrides, nil
}

// engine checks an engine entry's kind and options and fills in its name.
func (d *decoder) engine(n, engineNode *yaml.Node, path string, e *EngineConfig, optNodes map[string]*yaml.Node) error {
	if e.Engine == "" {
		if e.Command == "" {
			return d.errorf(n, path, "missing engine: (a built-in engine: %s; or \"uci\" with command:)", builtinList())
		}
		e.Engine = UCIEngine
	}
	if e.Engine == UCIEngine {
		if e.Command == "" {
			return d.errorf(n, path+".command", "missing (engine: uci needs the command that starts the engine, e.g. command: stockfish)")
		}
		if e.Name == "" {
			e.Name = filepath.Base(e.Command)
		}
		return nil
	}
	spec, err := engines.Lookup(e.Engine)
	if err != nil {
		return d.errorf(engineNode, path+".engine", "unknown engine %q (built-in engines: %s; or \"uci\" with command:)", e.Engine, builtinList())
	}
	if e.Command != "" || len(e.Args) > 0 {
		return d.errorf(n, path, "command and args are only for engine: uci (%s is a built-in engine)", e.Engine)
	}
	for name, v := range e.Options {
		if _, err := spec.UserValues(map[string]string{name: v}); err != nil {
			return d.errorf(optNodes[name], path+".options."+name, "%v", err)
		}
	}
	user, err := spec.UserValues(e.Options)
	if err != nil {
		return d.errorf(n, path+".options", "%v", err)
	}
	resolved, err := spec.Resolve(user)
	if err != nil {
		return d.errorf(n, path+".options", "%v", err)
	}
	// Some options are only checked by building the engine (a model file
	// that does not load). Building it once here reports them at the config
	// line, before any engine process or run directory exists.
	eng, err := spec.New(resolved)
	if err != nil {
		return d.errorf(n, path+".options", "%v", err)
	}
	if err := eng.Close(); err != nil {
		return d.errorf(n, path+".options", "%v", err)
	}
	if len(user) > 0 {
		e.Options = user
	}
	e.Resolved = resolved
	if e.Name == "" {
		e.Name = e.Engine
	}
	return nil
}

func builtinList() string {
	names := engines.Names()
	if len(names) == 0 {
		return "none registered"
	}
	return strings.Join(names, ", ")
}

func (d *decoder) options(n *yaml.Node, path string) (map[string]string, map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, nil, d.errorf(n, path, "expected a mapping of option names to values, got %s", kindName(n))
	}
	opts := map[string]string{}
	nodes := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kp := join(path, k.Value)
		if _, dup := opts[k.Value]; dup {
			return nil, nil, d.errorf(k, kp, "duplicate option")
		}
		s, err := d.scalar(v, kp, "a value")
		if err != nil {
			return nil, nil, err
		}
		opts[k.Value] = s
		nodes[k.Value] = k
	}
	return opts, nodes, nil
}

var openingKeys = []string{"file", "format", "order", "plies", "start"}

func (d *decoder) openings(n *yaml.Node, path string) (*openings.Config, error) {
	o := &openings.Config{Order: DefaultOpeningOrd, Start: 1}
	err := d.mapping(n, path, openingKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		var err error
		switch key {
		case "file":
			o.File, err = d.str(v, kp)
		case "order":
			if o.Order, err = d.str(v, kp); err == nil && o.Order != "sequential" && o.Order != "random" {
				err = d.errorf(v, kp, "%q is not an order (expected sequential or random)", o.Order)
			}
		case "format":
			if o.Format, err = d.str(v, kp); err == nil && !slices.Contains([]string{openings.FormatEPD, openings.FormatPGN, openings.FormatPolyglot}, o.Format) {
				err = d.errorf(v, kp, "%q is not a book format (expected epd, pgn or polyglot)", o.Format)
			}
		case "plies":
			var i int64
			i, err = d.int(v, kp, 0)
			o.Plies = int(i)
		case "start":
			var i int64
			i, err = d.int(v, kp, 1)
			o.Start = int(i)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if o.File == "" {
		return nil, d.errorf(n, path+".file", "missing (an .epd or .pgn file of openings)")
	}
	file, err := resolvePath(o.File, d.file)
	if err != nil {
		return nil, d.errorf(n, path+".file", "%v", err)
	}
	o.File = file
	switch format := openings.FormatOf(*o); {
	case o.Plies > 0 && format == openings.FormatEPD:
		return nil, d.errorf(keyNode(n, "plies"), path+".plies", "only for PGN and Polyglot books (%s is an EPD/FEN file, whose lines are the openings)", filepath.Base(file))
	case o.Plies == 0 && format == openings.FormatPolyglot:
		return nil, d.errorf(n, path+".plies", "missing: how many plies to follow the Polyglot book %s (e.g. plies: 8)", filepath.Base(file))
	}
	ops, err := openings.Load(*o)
	if err != nil {
		return nil, d.errorf(n, path+".file", "%v", err)
	}
	if o.Start > len(ops) {
		return nil, d.errorf(keyNode(n, "start"), path+".start", "%d is beyond the book's %d openings", o.Start, len(ops))
	}
	return o, nil
}

// resolvePath finds a file named relative to the current directory or, failing
// that, to the config file's directory, and returns it absolute so a resumed
// run finds it from anywhere.
func resolvePath(name, configFile string) (string, error) {
	candidates := []string{name}
	if !filepath.IsAbs(name) && configFile != "" {
		candidates = append(candidates, filepath.Join(filepath.Dir(configFile), name))
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return filepath.Abs(c)
		}
	}
	return "", fmt.Errorf("file %q not found (tried %s)", name, strings.Join(candidates, ", "))
}

var judgeKeys = []string{"engine", "depth", "cap", "mate_score", "workers", "hash", "threads", "protocol", "timeout"}

func (d *decoder) judge(n *yaml.Node, path string, j *JudgeConfig) error {
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "off", "false", "none":
			j.Off = true
			return nil
		case "on", "true":
			return nil
		}
		return d.errorf(n, path, "%q is not valid (expected off, or a mapping with keys %s)", n.Value, strings.Join(judgeKeys, ", "))
	}
	return d.mapping(n, path, judgeKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		var err error
		var i int64
		switch key {
		case "engine":
			j.Command, err = d.str(v, kp)
		case "protocol":
			if j.Protocol, err = d.str(v, kp); err == nil && j.Protocol != tracker.ProtocolPosition && j.Protocol != tracker.ProtocolThesis {
				err = d.errorf(v, kp, "%q is not a judge protocol (expected %s or %s)", j.Protocol, tracker.ProtocolPosition, tracker.ProtocolThesis)
			}
		case "timeout":
			var t Duration
			if t, err = d.duration(v, kp); err == nil && t <= 0 {
				err = d.errorf(v, kp, "%v is not a timeout (expected a positive duration such as 2m)", t.D())
			}
			j.Timeout = t.D()
		case "depth":
			i, err = d.int(v, kp, 1)
			j.Depth = int(i)
		case "cap":
			i, err = d.int(v, kp, 1)
			j.Cap = int(i)
		case "mate_score":
			i, err = d.int(v, kp, 1)
			j.MateScore = int(i)
		case "workers":
			i, err = d.int(v, kp, 1)
			j.Workers = int(i)
		case "hash":
			i, err = d.int(v, kp, 1)
			j.HashMB = int(i)
		case "threads":
			i, err = d.int(v, kp, 1)
			j.Threads = int(i)
		}
		return err
	})
}

var outputKeys = []string{"dir", "pgn"}

func (d *decoder) output(n *yaml.Node, path string, o *OutputConfig) error {
	return d.mapping(n, path, outputKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		s, err := d.str(v, kp)
		if err != nil {
			return err
		}
		switch key {
		case "dir":
			if s == "" {
				return d.errorf(v, kp, "must not be empty")
			}
			o.Dir = s
		case "pgn":
			m, err := ParsePGNMode(s)
			if err != nil {
				return d.errorf(v, kp, "%v", err)
			}
			o.PGN = m
		}
		return nil
	})
}
