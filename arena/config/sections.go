package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/arena/openings"
	"arena/engines"
	"arena/internal/clip"
	"arena/tracker"
)

var engineKeys = KeysOf("engines[]")

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
			default:
				err = d.engineHandling(key, v, kp, &e)
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
			if NoBuiltins != "" {
				return d.errorf(n, path, "missing command: (%s)", NoBuiltins)
			}
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
		if NoBuiltins != "" {
			return d.errorf(engineNode, path+".engine", "unknown engine %q: %s", e.Engine, NoBuiltins)
		}
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
	if err := resolveBuiltin(spec, e, !d.recorded); err != nil {
		return d.errorf(n, path+".options", "%v", err)
	}
	return nil
}

// resolveBuiltin checks a built-in engine's options and fills in its
// canonical user options, the resolved view and the default name; with
// build, it also builds the engine once.
func resolveBuiltin(spec engines.Spec, e *EngineConfig, build bool) error {
	user, err := spec.UserValues(e.Options)
	if err != nil {
		return err
	}
	resolved, err := spec.Resolve(user)
	if err != nil {
		return err
	}
	// Some options are only checked by building the engine (a model file
	// that does not load). Building it once here reports them at the config
	// line, before any engine process or run directory exists.
	if build {
		eng, err := spec.New(resolved)
		if err != nil {
			return err
		}
		if err := eng.Close(); err != nil {
			return err
		}
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

// NoBuiltins, when set, is why this binary has no built-in engines and what to
// do instead; a config naming one (or none) is refused with it rather than
// with an empty list of built-in engines. The arena-worker build (cmd/arena,
// tag worker) sets it: it links no engine packages, to stay small, and a user
// who copied it to a node must learn to use the full arena binary, not that
// "heuristic" does not exist.
var NoBuiltins string

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
		if err := CheckOption(k.Value, s); err != nil {
			return nil, nil, d.errorf(v, kp, "%v", err)
		}
		opts[k.Value] = s
		nodes[k.Value] = k
	}
	return opts, nodes, nil
}

var openingKeys = KeysOf("openings")

func (d *decoder) openings(n *yaml.Node, path string) (*openings.Config, error) {
	o := &openings.Config{Order: DefaultOpeningOrd, Start: 1}
	err := d.mapping(n, path, openingKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		var err error
		switch key {
		case "file":
			o.File, err = d.str(v, kp)
		case "order":
			if o.Order, err = d.str(v, kp); err == nil && !slices.Contains([]string{openings.OrderSequential, openings.OrderRandom, openings.OrderWeighted}, o.Order) {
				err = d.errorf(v, kp, "%q is not an order (expected sequential, random or weighted)", o.Order)
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
	case o.Order == openings.OrderWeighted && format != openings.FormatPolyglot:
		return nil, d.errorf(keyNode(n, "order"), path+".order", "weighted draws by a Polyglot book's move weights; %s (format %s) has none (use sequential or random)", filepath.Base(file), format)
	}
	ops, err := openings.Load(*o)
	if err != nil {
		return nil, d.errorf(n, path+".file", "%v", err)
	}
	// A weighted draw's start is a use number, not a line of the book.
	if o.Start > len(ops) && o.Order != openings.OrderWeighted {
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

var judgeKeys = KeysOf("judge")

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

// CheckOption refuses an engine option that would not reach the engine as
// one "setoption name NAME value VALUE" line: a control character (CR or
// LF would end the line and start another command: "x\nquit") in the name
// or the value, or the word "value" in the name, where an engine (as
// Stockfish does) ends the name and starts the value.
func CheckOption(name, value string) error {
	for _, f := range []struct{ what, s string }{{"name", name}, {"value", value}} {
		if i := strings.IndexFunc(f.s, func(r rune) bool { return r != '\t' && (r < 0x20 || r == 0x7f) }); i >= 0 {
			return fmt.Errorf("option %q: its %s holds the control character %q (byte %d): a UCI command is one line, and a line break would send the rest as another command", clip.String(name), f.what, f.s[i], i)
		}
	}
	for _, w := range strings.Fields(name) {
		if strings.EqualFold(w, "value") {
			return fmt.Errorf("option %q: its name holds the word \"value\", which ends an option's name in \"setoption name NAME value VALUE\"", clip.String(name))
		}
	}
	return nil
}
