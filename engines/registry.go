package engines

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
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
}

// Options are resolved option values keyed by option name.
type Options map[string]string

// Int returns a Spin option's value; the value was validated by Resolve.
func (o Options) Int(name string) int {
	v, _ := strconv.ParseInt(o[name], 10, 64)
	return int(v)
}

// Bool returns a Check option's value.
func (o Options) Bool(name string) bool { return o[name] == "true" }

// Spec describes a built-in engine: its name, what it is, its options and a
// constructor that receives every option resolved (defaults filled in).
type Spec struct {
	Name        string
	Description string
	Options     []Option
	New         func(opts Options) (Engine, error)
}

var registry = map[string]Spec{}

// Register adds a built-in engine. It is called from init functions and
// panics on a programming error (a duplicate name).
func Register(s Spec) {
	if _, dup := registry[s.Name]; dup {
		panic("engines: duplicate engine " + s.Name)
	}
	registry[s.Name] = s
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

// Resolve validates values against the spec and fills in defaults. Errors
// name the engine and option and say what was expected.
func (s Spec) Resolve(values map[string]string) (Options, error) {
	opts := Options{}
	for _, o := range s.Options {
		opts[o.Name] = o.Default
	}
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
		opts[o.Name] = norm
	}
	return opts, nil
}

// Check validates a value for the option and returns it in canonical form.
func (o Option) Check(v string) (string, error) {
	v = strings.TrimSpace(v)
	switch o.Type {
	case Spin:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return "", fmt.Errorf("option %s: %q is not an integer (expected %d..%d)", o.Name, v, o.Min, o.Max)
		}
		if n < o.Min || n > o.Max {
			return "", fmt.Errorf("option %s: %d is out of range (expected %d..%d)", o.Name, n, o.Min, o.Max)
		}
		return strconv.FormatInt(n, 10), nil
	case Check:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "", fmt.Errorf("option %s: %q is not a boolean (expected true or false)", o.Name, v)
		}
		return strconv.FormatBool(b), nil
	case Combo:
		for _, c := range o.Vars {
			if strings.EqualFold(c, v) {
				return c, nil
			}
		}
		return "", fmt.Errorf("option %s: %q is not one of %s", o.Name, v, strings.Join(o.Vars, ", "))
	default:
		return v, nil
	}
}
