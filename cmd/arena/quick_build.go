package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"arena/arena/config"
)

// quickName is the match name when -event gives none (the run directory is
// results/quick-TIMESTAMP).
const quickName = "quick"

// topOrder and engineOrder are the order of the printed config's keys: the
// declaration's (config.Sections).
var (
	topOrder    = config.KeysOf("")
	engineOrder = config.KeysOf("engines[]")
)

// eachTopLevel are the -each keys written once at the top level, which
// every engine inherits, rather than into every engine.
var eachTopLevel = map[string]bool{"tc": true, "st": true, "nodes": true, "depth": true, "plies": true, "timemargin": true}

// unsupportedEngineKeys are engine options of fastchess or cutechess-cli
// that arena has no equivalent for, with what it offers instead.
var unsupportedEngineKeys = map[string]string{
	"conf":     "arena has no engines.json; builtin=NAME plays one of arena's own engines (arena engines lists them)",
	"initstr":  "UCI options (option.NAME=VALUE) cover what engines need",
	"stderr":   "an engine's stderr tail is shown when it fails to start or crashes",
	"trust":    "arena decides every game end itself",
	"whitepov": "UCI scores are from the side to move",
	"tscale":   "the config key move_timeout bounds moves under node and depth limits",
	"debug":    "the UCI traffic log is the config key engines[].log: DIR",
	"log":      "the UCI traffic log is the config key engines[].log: DIR",
}

// build makes the config's YAML tree from the parsed flags.
func (q *quickMatch) build() error {
	if total := int64(q.rounds) * int64(q.games); total > config.MaxGames {
		return fmt.Errorf("-rounds %d -games %d: %d games, more than the %d a run may schedule", q.rounds, q.games, total, config.MaxGames)
	}
	if lookup(q.top, "name") == nil {
		set(q.top, "name", scalar(quickName, 0))
	}
	set(q.top, "games", scalar(strconv.Itoa(q.rounds*q.games), q.origin(fmt.Sprintf("-rounds %d -games %d", q.rounds, q.games))))
	// -games 2 is fastchess's game pair, -repeat cutechess's: one opening
	// played once with each colour.
	pairs := q.repeat || q.games == 2
	set(q.top, "pairs", scalar(strconv.FormatBool(pairs), q.origin(fmt.Sprintf("-games %d (-repeat: %v)", q.games, q.repeat))))
	var perEngine []token
	for _, t := range q.each {
		if !eachTopLevel[t.key] {
			perEngine = append(perEngine, t)
			continue
		}
		if err := limitKey(q.top, child(q.top, "limits", t.at, yaml.MappingNode), t); err != nil {
			return err
		}
	}
	if len(q.engines) > 0 {
		list := &yaml.Node{Kind: yaml.SequenceNode, Line: q.engAt[0]}
		for i, toks := range q.engines {
			m := mapping(q.engAt[i])
			for _, t := range append(append([]token(nil), perEngine...), toks...) {
				if err := engineKey(m, t); err != nil {
					return err
				}
			}
			list.Content = append(list.Content, ordered(m, engineOrder))
		}
		set(q.top, "engines", list)
	}
	q.root = ordered(q.top, topOrder)
	return nil
}

// ordered is the mapping m with the keys of order first, in that order,
// then any others as they came: a key added to the flags but not to the
// order list is printed last, never dropped.
func ordered(m *yaml.Node, order []string) *yaml.Node {
	out := mapping(m.Line)
	for _, k := range order {
		if v := lookup(m, k); v != nil {
			set(out, k, v)
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i].Value; !slices.Contains(order, k) {
			set(out, k, m.Content[i+1])
		}
	}
	return out
}

// engineKey writes one engine option into the engine's mapping; an option
// given twice (by -each and by -engine) keeps the later, the engine's own.
func engineKey(m *yaml.Node, t token) error {
	v := scalar(t.value, t.at)
	switch k := t.key; {
	case k == "cmd" && strings.Contains(t.value, "/"):
		set(m, "command", scalar(absIfExists(t.value), t.at)) // a path, not a name looked up in PATH
	case k == "cmd":
		set(m, "command", v)
	case k == "builtin":
		set(m, "engine", v)
	case k == "name":
		set(m, "name", v)
	case k == "dir":
		set(m, "workdir", scalar(absIfExists(t.value), t.at))
	case k == "restart":
		set(m, "restart", v)
	case k == "ponder":
		set(m, "ponder", v)
	case k == "book":
		set(child(m, "book", t.at, yaml.MappingNode), "file", scalar(absIfExists(t.value), t.at))
	case k == "bookdepth":
		set(child(m, "book", t.at, yaml.MappingNode), "depth", v)
	case k == "args":
		list := &yaml.Node{Kind: yaml.SequenceNode, Line: t.at}
		for _, a := range strings.Fields(t.value) {
			list.Content = append(list.Content, scalar(a, t.at))
		}
		set(m, "args", list)
	case k == "arg":
		list := child(m, "args", t.at, yaml.SequenceNode)
		list.Content = append(list.Content, v)
	case strings.HasPrefix(k, "option.") && len(k) > len("option."):
		set(child(m, "options", t.at, yaml.MappingNode), strings.TrimPrefix(k, "option."), v)
	case eachTopLevel[k]:
		return limitKey(m, child(m, "limits", t.at, yaml.MappingNode), t)
	case k == "proto":
		if t.value != "uci" {
			return fmt.Errorf("%s: not supported, because arena speaks UCI only", t.typed)
		}
	default:
		if why, ok := unsupportedEngineKeys[k]; ok {
			return fmt.Errorf("%s: not supported, because %s", t.typed, why)
		}
		return fmt.Errorf("%s: unknown engine option %q (expected cmd, builtin, name, dir, args, arg, option.NAME, tc, st, nodes, depth, plies, timemargin, restart, ponder, book, bookdepth or proto)", t.typed, k)
	}
	return nil
}

// limitKey writes a limit (into limits) or the time margin (into engine):
// tc as written, st in seconds as a duration, depth for plies, and
// timemargin in milliseconds as both other tools count it.
func limitKey(engine, limits *yaml.Node, t token) error {
	switch t.key {
	case "tc", "nodes":
		set(limits, t.key, scalar(t.value, t.at))
	case "depth", "plies":
		set(limits, "depth", scalar(t.value, t.at))
	case "st":
		d, err := seconds(t.value, time.Second)
		if err != nil || d <= 0 {
			return fmt.Errorf("%s: expected a positive number of seconds (st=0.1) or a duration (st=100ms)", t.typed)
		}
		set(limits, "movetime", scalar(d.String(), t.at))
	case "timemargin":
		d, err := seconds(t.value, time.Millisecond)
		if err != nil {
			return fmt.Errorf("%s: expected milliseconds (timemargin=200) or a duration (timemargin=200ms)", t.typed)
		}
		set(engine, "time_margin", scalar(d.String(), t.at))
	}
	return nil
}

// seconds reads a number of units, or a duration with its unit.
func seconds(s string, unit time.Duration) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f > 1e6 {
			return 0, fmt.Errorf("%s out of range", s)
		}
		return time.Duration(f * float64(unit)), nil
	}
	return config.ParseDuration(s)
}

// absIfExists makes an existing relative path absolute, so that the printed
// config plays from any directory; anything else is left for the config to
// report.
func absIfExists(path string) string {
	if _, err := os.Stat(path); err == nil {
		if abs, err := filepath.Abs(path); err == nil {
			return abs
		}
	}
	return path
}

func scalar(v string, at int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: v, Line: at}
}

func mapping(at int) *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Line: at} }

// set puts key: v into the mapping m, replacing an earlier value (a later
// flag wins, as in both other tools).
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i].Line, m.Content[i+1] = v.Line, v
			return
		}
	}
	m.Content = append(m.Content, scalar(key, v.Line), v)
}

// child is the node of the given kind under key in m, made if missing.
func child(m *yaml.Node, key string, at int, kind yaml.Kind) *yaml.Node {
	if c := lookup(m, key); c != nil && c.Kind == kind {
		return c
	}
	c := &yaml.Node{Kind: kind, Line: at}
	set(m, key, c)
	return c
}

// lookup is the value under key in the mapping m, nil if none.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func (q *quickMatch) setTop(key, value string, at int) error {
	set(q.top, key, scalar(value, at))
	return nil
}
