package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"arena/arena/openings"
	"arena/tracker"
)

// TestKeysMatchTypes checks the declaration against the types the config
// resolves into: every YAML field of each section's type is declared, and
// every declared key is a field, except the keys the parser consumes
// (log: is given to the engines; sweep: expands into settings).
func TestKeysMatchTypes(t *testing.T) {
	types := map[string]reflect.Type{
		"":                  reflect.TypeFor[Config](),
		"limits":            reflect.TypeFor[Limits](),
		"engines[]":         reflect.TypeFor[EngineConfig](),
		"engines[].book":    reflect.TypeFor[EngineBook](),
		"openings":          reflect.TypeFor[openings.Config](),
		"judge":             reflect.TypeFor[tracker.JudgeConfig](),
		"output":            reflect.TypeFor[OutputConfig](),
		"adjudicate":        reflect.TypeFor[Adjudicate](),
		"adjudicate.draw":   reflect.TypeFor[DrawRule](),
		"adjudicate.resign": reflect.TypeFor[ResignRule](),
		"sprt":              reflect.TypeFor[tracker.SPRT](),
	}
	consumed := map[string][]string{"": {"log", "sweep"}}
	for _, s := range Sections {
		typ, ok := types[s.Path]
		if !ok {
			t.Errorf("section %q: no type known to this test", s.Path)
			continue
		}
		var fields []string
		for f := range typ.Fields() {
			if tag := strings.Split(f.Tag.Get("yaml"), ",")[0]; tag != "" && tag != "-" {
				fields = append(fields, tag)
			}
		}
		declared := KeysOf(s.Path)
		for _, f := range fields {
			if !slices.Contains(declared, f) {
				t.Errorf("%s has the YAML field %q, not declared in Sections[%q]", typ, f, s.Path)
			}
		}
		for _, k := range declared {
			if !slices.Contains(fields, k) && !slices.Contains(consumed[s.Path], k) {
				t.Errorf("Sections[%q] declares %q, which %s has no field for", s.Path, k, typ)
			}
		}
	}
}

// TestKeyDefaults checks each literal default the reference prints against
// the value a config that leaves the key out resolves to, as config.yaml
// writes it (keys that config.yaml leaves out when unset are skipped).
func TestKeyDefaults(t *testing.T) {
	src := twoEngines + "limits: {depth: 1}\nsprt: {elo0: 0, elo1: 5}\nopenings: {file: " + exampleBookPath + "}\n"
	c, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range Sections {
		if strings.Contains(s.Path, "[]") {
			continue
		}
		for _, k := range s.Keys {
			want, ok := literal(k.Default)
			if !ok {
				continue
			}
			n := lookup(doc.Content[0], strings.Split(join(s.Path, k.Name), "."))
			if n == nil {
				continue
			}
			checked++
			if got := render(n); got != want {
				t.Errorf("%s: the reference's default is %s, a config without it resolves to %s", join(s.Path, k.Name), want, got)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d defaults checked; the resolved config lost its keys?", checked)
	}
}

// literal is the backquoted value a Default starts with.
func literal(d string) (string, bool) {
	if !strings.HasPrefix(d, "`") {
		return "", false
	}
	v, _, ok := strings.Cut(d[1:], "`")
	return v, ok
}

func lookup(n *yaml.Node, path []string) *yaml.Node {
	if len(path) == 0 {
		return n
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == path[0] {
			return lookup(n.Content[i+1], path[1:])
		}
	}
	return nil
}

// render writes a scalar as is and a list of scalars as "[a, b]".
func render(n *yaml.Node) string {
	if n.Kind != yaml.SequenceNode {
		return n.Value
	}
	var items []string
	for _, c := range n.Content {
		items = append(items, c.Value)
	}
	return fmt.Sprintf("[%s]", strings.Join(items, ", "))
}

func TestRunOnlyKeys(t *testing.T) {
	got := RunOnlyKeys()
	for _, k := range []string{"concurrency", "output", "engines[].log", "judge.timeout"} {
		if !slices.Contains(got, k) {
			t.Errorf("RunOnlyKeys() = %v, missing %s", got, k)
		}
	}
	if slices.Contains(got, "games") || slices.Contains(got, "engines[].limits") {
		t.Errorf("RunOnlyKeys() = %v holds a key that changes the games", got)
	}
	for key, want := range map[string]bool{"engines[1].log": true, "output.pgn_comments": true, "judge.workers": true,
		"engines[1].limits.nodes": false, "judge.depth": false, "outputs": false, "games": false} {
		if IsRunOnly(key) != want {
			t.Errorf("IsRunOnly(%q) = %v, want %v", key, !want, want)
		}
	}
}

// TestEveryDeclaredKeyIsDecoded sets each declared key to a value no key
// accepts (a mapping with an unknown key) and expects an error naming the
// key: a key declared but missing from the decoder's cases would be
// accepted without a word.
func TestEveryDeclaredKeyIsDecoded(t *testing.T) {
	for _, s := range Sections {
		for _, k := range s.Keys {
			path := strings.ReplaceAll(join(s.Path, k.Name), "[]", "[0]")
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(twoEngines+"limits: {depth: 1}\n"), &doc); err != nil {
				t.Fatal(err)
			}
			segs, err := parseKeyPath(path)
			if err != nil {
				t.Fatal(err)
			}
			probe := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "zz_probe"}, {Kind: yaml.ScalarNode, Tag: "!!int", Value: "1"}}}
			if err := setPath(doc.Content[0], segs, probe, doc.Content[0]); err != nil {
				t.Fatal(err)
			}
			text, err := yaml.Marshal(&doc)
			if err != nil {
				t.Fatal(err)
			}
			// recorded: the engines are not built, which the probes need not.
			_, err = parse(&decoder{file: "x.yaml", recorded: true}, text)
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("%s set to a mapping: error %v, want one naming %s", path, err, path)
			}
		}
	}
}
