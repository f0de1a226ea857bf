// Package config is the arena's YAML schema: the Config type, its defaults,
// its validation (every error names the file, line and key) and sweep
// expansion (one resolved Config per value of the swept key). It knows
// nothing of running games; the arena package imports it, never the other
// way round, so the schema can be read (arena check, the report, shards
// and merges) without the runner.
//
// Every key is declared once, in Sections (keys.go): its type, default,
// meaning and whether it is run-only. The parser's lists of valid keys, the
// order --print-config writes, the run-only keys of the drift check and the
// reference (arena reference, docs/reference-keys.md) are read from it. The
// decoding of each key stays a case of a switch, where its checks read
// best; the tests hold the two together (a declared key without a case,
// a YAML field without a declaration, a documented default that is not
// the resolved one all fail).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	"arena/engines/uci"
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
	FormatKnockout   = "knockout"    // single elimination, seeded in config order (arena/record/knockout.go)
)

var formats = []string{FormatMatch, FormatRoundRobin, FormatGauntlet, FormatKnockout}

// UCIEngine is the engines[].engine value for an external UCI binary.
const UCIEngine = "uci"

// Config is a match description with every default filled in. It marshals to
// the resolved config.yaml written into the run directory, which Load reads
// back unchanged (that is how --resume restores a run).
type Config struct {
	Name   string `yaml:"name"`
	Format string `yaml:"format"` // FormatMatch, FormatRoundRobin, FormatGauntlet or FormatKnockout
	Games  int    `yaml:"games"`  // per pairing of engines (knockout: per encounter, before tie-breaks)
	// Concurrency is the number of games played at once, each with its
	// own engine processes (arena run --concurrency overrides it).
	Concurrency int `yaml:"concurrency"`
	// RatingInterval, above 0, prints the Elo with its interval and the
	// pentanomial counts every RatingInterval finished games (arena run
	// --rating-interval overrides it).
	RatingInterval int `yaml:"rating_interval,omitempty"`
	// Pairs: consecutive games of a pairing are a game pair, one opening
	// played with the colours swapped; false: every game takes the next
	// opening (colours still alternate).
	Pairs bool `yaml:"pairs"`
	// NoSwap and Reverse change the colours (arena/colours.go).
	NoSwap   bool `yaml:"noswap,omitempty"`
	Reverse  bool `yaml:"reverse,omitempty"`
	MaxMoves int  `yaml:"max_moves"`
	// GameEnd is GameEndClaim (threefold and fifty moves claimed at once)
	// or GameEndFivefold (played on to fivefold repetition and 75 moves).
	GameEnd string `yaml:"game_end"`
	// Adjudicate holds the score-based draw and resign rules (adjudicate.go).
	Adjudicate Adjudicate `yaml:"adjudicate,omitempty"`
	Seed       int64      `yaml:"seed"`
	TimeMargin Duration   `yaml:"time_margin"`
	// TimeForfeit decides what a move later than its limit plus the time
	// margin does: lose on time (on, the default) or be played with its
	// overrun recorded (off).
	TimeForfeit TimeForfeit `yaml:"time_forfeit,omitempty"`
	MoveTimeout Duration    `yaml:"move_timeout"`
	// StartTimeout, NewGameTimeout and PingTimeout bound every engine's
	// and the judge's answers outside a search (uci.Timeouts; fastchess's
	// -startup-ms, -ucinewgame-ms, -ping-ms): the start-up, the readyok
	// after ucinewgame, and every other readyok. 0 (a config built in
	// code): the UCI client's default. They change no game, so ConfigHash
	// leaves them out.
	StartTimeout   Duration       `yaml:"start_timeout,omitempty"`
	NewGameTimeout Duration       `yaml:"ucinewgame_timeout,omitempty"`
	PingTimeout    Duration       `yaml:"ping_timeout,omitempty"`
	Limits         Limits         `yaml:"limits"`
	Engines        []EngineConfig `yaml:"engines"`
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
	// Engine handling (engine.go): TimeMargin overrides the config's;
	// Workdir is the process's working directory; Restart is a Restart*
	// policy ("" = auto); Log is the UCI traffic log directory (the
	// config's log: when unset).
	TimeMargin *Duration `yaml:"time_margin,omitempty"`
	Workdir    string    `yaml:"workdir,omitempty"`
	Restart    string    `yaml:"restart,omitempty"`
	Log        string    `yaml:"log,omitempty"`
	// Ponder lets the engine think on the reply it expects while its
	// opponent thinks (UCI "go ponder"; arena/ponder.go).
	Ponder bool `yaml:"ponder,omitempty"`
	// Book is the engine's own Polyglot book, whose moves the arena plays
	// for it (arena/enginebook.go); nil: none.
	Book *EngineBook `yaml:"book,omitempty"`
}

// EngineBook is an engine's own opening book, as cutechess-cli's
// book=FILE bookdepth=N.
type EngineBook struct {
	File string `yaml:"file"` // a Polyglot .bin book, absolute once resolved
	// Depth is how many of its moves per game the engine takes from the
	// book at most; 0: as long as the book has a move.
	Depth int `yaml:"depth,omitempty"`
}

// EngineTimeouts are the UCI client's timeouts of every engine and the
// judge.
func (c *Config) EngineTimeouts() uci.Timeouts {
	return uci.Timeouts{StartTimeout: c.StartTimeout.D(), NewGameTimeout: c.NewGameTimeout.D(), PingTimeout: c.PingTimeout.D()}
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

// Margin is the engine's time margin: its own time_margin, else global
// (the config's).
func (e EngineConfig) Margin(global Duration) time.Duration {
	if e.TimeMargin != nil {
		return e.TimeMargin.D()
	}
	return global.D()
}

// TimeForfeit is the time_forfeit setting. Its zero value is on, and on is
// left out of config.yaml, so that the configs and run directories written
// before the key existed (every one of which forfeited late moves) read,
// and hash (ConfigHash), as what they played.
type TimeForfeit struct{ Off bool }

// On reports whether a late move loses on time.
func (t TimeForfeit) On() bool { return !t.Off }

// IsZero makes omitempty leave out the default, on.
func (t TimeForfeit) IsZero() bool { return !t.Off }

func (t TimeForfeit) String() string {
	if t.Off {
		return "off"
	}
	return "on"
}

// MarshalYAML writes on or off.
func (t TimeForfeit) MarshalYAML() (any, error) { return t.String(), nil }

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
		return 0, fmt.Errorf("%q is not a duration (expected a number with a unit, e.g. 1s, 250ms, 1m30s, or 0)", s)
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

// MarshalIn returns the config as written into the run directory dir: the
// files it reads (the opening book, engines' own books and working
// directories) named relative to dir. Load resolves a relative path against the current
// directory and then the config file's, so a run directory committed with
// the repository resumes from any checkout of it, wherever it lives.
func (c *Config) MarshalIn(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	rel := func(p string) string {
		if !filepath.IsAbs(p) {
			return p
		}
		if r, err := filepath.Rel(abs, p); err == nil {
			return r
		}
		return p
	}
	cc := *c
	if c.Openings != nil {
		o := *c.Openings
		o.File = rel(o.File)
		cc.Openings = &o
	}
	cc.Engines = slices.Clone(c.Engines)
	for i := range cc.Engines {
		if cc.Engines[i].Workdir != "" {
			cc.Engines[i].Workdir = rel(cc.Engines[i].Workdir)
		}
		if b := cc.Engines[i].Book; b != nil {
			nb := *b
			nb.File = rel(nb.File)
			cc.Engines[i].Book = &nb
		}
	}
	return cc.Marshal()
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

// LoadRecorded reads the config.yaml of a run directory for a tool that
// plays nothing: as Load, but the built-in engines are not built (decoder).
func LoadRecorded(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return parse(&decoder{file: path, recorded: true}, data)
}

// Parse is Load on data already read; path is used in messages and to find
// relative openings files.
func Parse(path string, data []byte) (*Config, error) {
	return parse(&decoder{file: path}, data)
}

func parse(d *decoder, data []byte) (*Config, error) {
	path := d.file
	doc, err := singleDocument(path, data)
	if err != nil {
		return nil, err
	}
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
