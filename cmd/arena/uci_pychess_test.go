package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"arena/engines"
)

// pyChess configures an engine as python-chess 1.11 does (chess/engine.py,
// UciProtocol._setoption): at the handshake every option's declared default,
// parsed by the option's type, becomes the value the client believes the
// engine has; configure parses each value by the declared type and sends
// setoption only when the parsed value differs from that belief. Debian
// bookworm has no python3-chess and CI reaches no other registry, so the
// test runs the rule rather than the library; the rule is what made
// configure({"preset": "strong", "lmr": False}) send nothing while lmr was
// declared "type check default false".
type pyChess struct {
	s       *uciSession
	options map[string]pyOption
	config  map[string]any
}

type pyOption struct {
	typ  string
	vars []string
}

// startPyChess starts "arena uci ENGINE" and reads its options up to uciok.
func startPyChess(t *testing.T, engine string) *pyChess {
	t.Helper()
	p := &pyChess{s: startUCI(t, engine), options: map[string]pyOption{}, config: map[string]any{}}
	p.s.send("uci")
	for p.s.out.Scan() {
		f := strings.Fields(p.s.out.Text())
		if len(f) == 1 && f[0] == "uciok" {
			return p
		}
		if len(f) < 6 || f[0] != "option" || f[1] != "name" || f[3] != "type" || f[5] != "default" {
			continue
		}
		o := pyOption{typ: f[4]}
		def := f[6]
		for i := 7; i+1 < len(f); i += 2 {
			if f[i] == "var" {
				o.vars = append(o.vars, f[i+1])
			}
		}
		p.options[f[2]] = o
		v, err := o.parse(def)
		if err != nil {
			t.Fatalf("option %s: its default: %v (python-chess refuses the handshake)", f[2], err)
		}
		p.config[f[2]] = v
	}
	t.Fatalf("no uciok: %v", p.s.out.Err())
	return nil
}

// pyStr is Python's str() of a configure value.
func pyStr(v any) string {
	if b, ok := v.(bool); ok {
		return map[bool]string{true: "True", false: "False"}[b]
	}
	return fmt.Sprint(v)
}

// parse is python-chess's Option.parse.
func (o pyOption) parse(v any) (any, error) {
	switch o.typ {
	case "check":
		if b, ok := v.(bool); ok {
			return b, nil
		}
		return v != "" && v != "false", nil
	case "spin":
		return strconv.Atoi(pyStr(v))
	case "combo":
		if s := pyStr(v); slices.Contains(o.vars, s) {
			return s, nil
		}
		return nil, fmt.Errorf("invalid value for combo option, got: %s (available: %s)", pyStr(v), strings.Join(o.vars, ", "))
	default:
		return pyStr(v), nil
	}
}

// configure sends the values (in the order given) as python-chess does.
func (p *pyChess) configure(t *testing.T, values ...any) {
	t.Helper()
	for i := 0; i+1 < len(values); i += 2 {
		name := values[i].(string)
		o, ok := p.options[name]
		if !ok {
			t.Fatalf("engine does not support option %s", name)
		}
		v, err := o.parse(values[i+1])
		if err != nil {
			t.Fatalf("option %s: %v", name, err)
		}
		if v == p.config[name] {
			continue
		}
		value := pyStr(v)
		if b, ok := v.(bool); ok {
			value = strconv.FormatBool(b)
		}
		p.s.send("setoption name " + name + " value " + value)
		p.config[name] = v
	}
}

// Every option a preset sets can be set to either value by a client that
// sends only values differing from the declared default: with preset
// strong, lmr False (a Python bool, or the string "false") turns LMR off,
// True leaves it on, and hash 0 (the engine's default, which strong raises
// to 64 MB) turns the table off; each search to depth 8 from the start
// position counts the nodes the engine counts in process with those options.
func TestPythonChessConfigureOverridesPreset(t *testing.T) {
	nodes := func(opts map[string]string) int64 {
		e, err := engines.New("heuristic", opts)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		r, err := e.Search(context.Background(), engines.Position{}, engines.Limits{Depth: 8}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.Nodes
	}
	strong := nodes(map[string]string{"preset": "strong"})
	noLMR := nodes(map[string]string{"preset": "strong", "lmr": "false"})
	noHash := nodes(map[string]string{"preset": "strong", "hash": "0"})
	if noLMR == strong || noHash == strong {
		t.Fatalf("strong %d nodes, without LMR %d, without the table %d: the test cannot tell them apart", strong, noLMR, noHash)
	}
	for _, c := range []struct {
		values []any
		want   int64
	}{
		{[]any{"preset", "strong", "lmr", false}, noLMR},
		{[]any{"preset", "strong", "lmr", "false"}, noLMR},
		{[]any{"lmr", false, "preset", "strong"}, noLMR},
		{[]any{"preset", "strong", "lmr", true}, strong},
		{[]any{"preset", "strong"}, strong},
		{[]any{"preset", "strong", "hash", 0}, noHash},
	} {
		p := startPyChess(t, "heuristic")
		p.configure(t, c.values...)
		if _, depth, got := p.s.search("ucinewgame", "position startpos", "go depth 8"); depth != 8 || got != c.want {
			t.Errorf("configure%v: depth %d, %d nodes, want depth 8, %d nodes (strong %d, without LMR %d, without the table %d)",
				c.values, depth, got, c.want, strong, noLMR, noHash)
		} else {
			t.Logf("configure%v: %d nodes to depth 8", c.values, got)
		}
	}
}
