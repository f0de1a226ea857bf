package engines

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// OptionType is the type of an engine option, with the UCI option types' meaning.
type OptionType string

const (
	Spin   OptionType = "spin"   // integer within [Min, Max]
	Check  OptionType = "check"  // true or false
	Combo  OptionType = "combo"  // one of Vars
	String OptionType = "string" // free text (e.g. a path)
)

// Option describes one option of a built-in engine.
type Option struct {
	Name    string
	Type    OptionType
	Default string
	Min     int64 // Spin only
	Max     int64 // Spin only
	Vars    []string
	Help    string
	// ByPreset: a preset sets this option (Register marks it). Its values
	// include FromPreset, which is the same as not setting it.
	ByPreset bool
}

// FromPreset is the value of an option a preset sets that leaves it to the
// preset: the same as not setting it. It lets a client that sends only the
// values differing from an option's declared default (python-chess, GUIs)
// set either value of a switch whatever the preset says: over UCI such an
// option is declared with FromPreset as its default (engines/uci).
const FromPreset = "preset"

// Options are an engine's option values keyed by option name. The same type
// holds two things, kept apart by where it comes from: the user layer (only
// the options someone set, from a config, --option or setoption; see
// Spec.UserValues) and the resolved view a constructor receives (every
// option: default < preset < user; see Spec.Resolve).
type Options map[string]string

// Int returns a Spin option's value; the value was validated by Resolve.
func (o Options) Int(name string) int {
	v, _ := strconv.ParseInt(o[name], 10, 64)
	return int(v)
}

// Bool returns a Check option's value.
func (o Options) Bool(name string) bool { return o[name] == "true" }

// PresetOption is the option that selects a preset, added by Register to
// every engine that declares presets.
const PresetOption = "preset"

// DefaultPreset is the preset value that applies no layer: the engine's
// defaults.
const DefaultPreset = "default"

// Preset is a named layer of option values applied over an engine's
// defaults and under the values the user set.
type Preset struct {
	Name   string
	Help   string
	Values map[string]string
}

// Spec describes a built-in engine: its name, what it is, its options, its
// presets and a constructor that receives every option resolved.
type Spec struct {
	Name        string
	Description string
	Options     []Option
	Presets     []Preset
	New         func(opts Options) (Engine, error)
}

var registry = map[string]Spec{}

// Register adds a built-in engine. It is called from init functions and
// panics on a programming error (a duplicate name, a preset naming an
// unknown option or a bad value). An engine with presets gets the combo
// option "preset": "default" plus the presets' names.
func Register(s Spec) {
	if _, dup := registry[s.Name]; dup {
		panic("engines: duplicate engine " + s.Name)
	}
	s.Options = append(s.Options, moveOverheadOption)
	if len(s.Presets) > 0 {
		s.Options = append(slices.Clone(s.Options), presetOption(s.Presets))
		for _, p := range s.Presets {
			for name, v := range p.Values {
				i := slices.IndexFunc(s.Options, func(o Option) bool { return strings.EqualFold(o.Name, name) })
				bad := i < 0 || s.Options[i].Name == PresetOption
				if !bad {
					norm, err := s.Options[i].Check(v)
					bad = err != nil || norm == FromPreset
				}
				if bad {
					panic(fmt.Sprintf("engines: engine %s: preset %s: bad option %s=%s", s.Name, p.Name, name, v))
				}
				s.Options[i].ByPreset = true
			}
		}
	}
	registry[s.Name] = s
}

// MoveOverheadOption is the option Register gives every built-in engine,
// named as Stockfish's: milliseconds kept back from the clock on every move
// for the part of the move's time the engine does not see (the GUI writing
// "go", the pipe, the scheduler before the engine reads it, and after its
// bestmove until the GUI reads it). The engines do not read it: the UCI
// server puts it into Limits.Overhead (an in-process search has no pipe).
const MoveOverheadOption = "Move Overhead"

// DefaultMoveOverhead is the Move Overhead default, sized on the 2-core
// machines these engines are measured on (docs/parity.md, "Clocks"): the
// time a harness's go-to-bestmove measurement exceeds the engine's own
// under load.
const DefaultMoveOverhead = 100 * time.Millisecond

var moveOverheadOption = Option{Name: MoveOverheadOption, Type: Spin,
	Default: strconv.FormatInt(DefaultMoveOverhead.Milliseconds(), 10), Min: 0, Max: 10_000,
	Help: "milliseconds kept back from the clock on every move for the GUI's and the pipe's latency (wtime/btime only)"}

// presetOption describes the preset combo of an engine with presets.
func presetOption(presets []Preset) Option {
	vars := []string{DefaultPreset}
	help := DefaultPreset + ": the defaults"
	for _, p := range presets {
		vars = append(vars, p.Name)
		help += "; " + p.Name + ": " + p.Help
	}
	help += " (options you set apply on top of the preset)"
	return Option{Name: PresetOption, Type: Combo, Default: DefaultPreset, Vars: vars, Help: help}
}

// List returns every registered engine, sorted by name.
func List() []Spec {
	out := make([]Spec, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the registered engine names, sorted.
func Names() []string {
	var names []string
	for _, s := range List() {
		names = append(names, s.Name)
	}
	return names
}

// Lookup finds a built-in engine by name; the error lists the valid names.
func Lookup(name string) (Spec, error) {
	s, ok := registry[name]
	if !ok {
		return Spec{}, fmt.Errorf("unknown engine %q (built-in engines: %s)", name, strings.Join(Names(), ", "))
	}
	return s, nil
}

// New looks up a built-in engine and constructs it with the given option values.
func New(name string, values map[string]string) (Engine, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	opts, err := s.Resolve(values)
	if err != nil {
		return nil, err
	}
	return s.New(opts)
}

// Option finds an option by name, case-insensitively as UCI does.
func (s Spec) Option(name string) (Option, bool) {
	for _, o := range s.Options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}

// UserValues validates the values a user set and returns them keyed by the
// options' canonical names, in canonical form: the user layer, which is
// what travels from a config to an engine process. A value FromPreset
// leaves its option out of the layer. Errors name the engine
// and option and say what was expected.
func (s Spec) UserValues(values map[string]string) (Options, error) {
	user := Options{}
	for name, v := range values {
		o, ok := s.Option(name)
		if !ok {
			var valid []string
			for _, o := range s.Options {
				valid = append(valid, o.Name)
			}
			return nil, fmt.Errorf("engine %s: unknown option %q (valid options: %s)", s.Name, name, strings.Join(valid, ", "))
		}
		norm, err := o.Check(v)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", s.Name, err)
		}
		if norm != FromPreset {
			user[o.Name] = norm
		}
	}
	return user, nil
}

// Resolve validates the user's values and layers them: every option's
// default, then the preset the user chose (or the default preset), then the
// user's values, so an option the user set wins whatever the preset says
// and whatever order the values arrived in.
func (s Spec) Resolve(values map[string]string) (Options, error) {
	user, err := s.UserValues(values)
	if err != nil {
		return nil, err
	}
	opts := Options{}
	for _, o := range s.Options {
		opts[o.Name] = o.Default
	}
	if p, ok := s.preset(user[PresetOption]); ok {
		for name, v := range p.Values {
			o, _ := s.Option(name)
			opts[o.Name], _ = o.Check(v)
		}
	}
	for name, v := range user {
		opts[name] = v
	}
	return opts, nil
}

// preset finds a preset by name (the default preset, and an empty name,
// have no layer).
func (s Spec) preset(name string) (Preset, bool) {
	for _, p := range s.Presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Check validates a value for the option and returns it in canonical form.
func (o Option) Check(v string) (string, error) {
	v = strings.TrimSpace(v)
	orPreset := ""
	if o.ByPreset {
		if strings.EqualFold(v, FromPreset) {
			return FromPreset, nil
		}
		orPreset = ", or " + FromPreset
	}
	switch o.Type {
	case Spin:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("option %s: %q is not an integer (expected %d..%d%s)", o.Name, v, o.Min, o.Max, orPreset)
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("option %s: %d is out of range (expected %d..%d%s)", o.Name, n, o.Min, o.Max, orPreset)
		}
		return strconv.FormatInt(n, 10), nil
	case Check:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "", fmt.Errorf("option %s: %q is not a boolean (expected true or false%s)", o.Name, v, orPreset)
		}
		return strconv.FormatBool(b), nil
	case Combo:
		for _, c := range o.Vars {
			if strings.EqualFold(c, v) {
				return c, nil
			}
		}
		return "", fmt.Errorf("option %s: %q is not one of %s%s", o.Name, v, strings.Join(o.Vars, ", "), orPreset)
	default:
		return v, nil
	}
}
