package config

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Sweep is an experiment run once per value of one config key.
type Sweep struct {
	// Key is the dotted path of the swept key, as written in the config:
	// "limits.movetime", "games", "engines[1].options.max_depth".
	Key string
	// Values describes each setting: a scalar as written ("1s"), anything
	// else in YAML flow style ("{movetime: 1s}").
	Values []string
	// Configs is the resolved config of each setting; its Name is the
	// sweep's name followed by "KEY=VALUE".
	Configs []*Config
}

// MaxSweepSettings bounds the values of a sweep (each one is a run
// directory and a config decoded in memory).
const MaxSweepSettings = 10_000

// sweep decodes a config with a sweep: key. Every setting is the config with
// the swept key set to one value, decoded and validated like a config of its
// own, so an error names the file, the line (the value's own line in the
// sweep list) and the key, followed by the setting.
func (d *decoder) sweep(root *yaml.Node) (*Config, error) {
	base := &yaml.Node{Kind: yaml.MappingNode, Tag: root.Tag, Line: root.Line, Column: root.Column}
	var sweepKey, sweepNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "sweep" {
			base.Content = append(base.Content, k, v)
			continue
		}
		if sweepKey != nil {
			return nil, d.errorf(k, "sweep", "duplicate key (first set on line %d)", sweepKey.Line)
		}
		sweepKey, sweepNode = k, v
	}
	if sweepNode.Kind != yaml.MappingNode || len(sweepNode.Content) != 2 {
		return nil, d.errorf(sweepNode, "sweep", "expected a mapping of one key to a list of values, e.g. sweep: {limits.movetime: [1s, 3s, 5s]}, got %s", kindName(sweepNode))
	}
	k, list := sweepNode.Content[0], sweepNode.Content[1]
	path := "sweep." + k.Value
	segs, err := parseKeyPath(k.Value)
	if err != nil {
		return nil, d.errorf(k, path, "%v", err)
	}
	if top := segs[0].key; !slices.Contains(topKeys, top) || slices.Contains(notSweepable(), top) {
		var valid []string
		for _, t := range topKeys {
			if !slices.Contains(notSweepable(), t) {
				valid = append(valid, t)
			}
		}
		return nil, d.errorf(k, path, "cannot sweep %q (the key must start with one of: %s)", top, strings.Join(valid, ", "))
	}
	if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, d.errorf(list, path, "expected a non-empty list of values, got %s", kindName(list))
	}
	if len(list.Content) > MaxSweepSettings {
		return nil, d.errorf(list, path, "%d values is more than the %d settings a sweep may have", len(list.Content), MaxSweepSettings)
	}
	s := &Sweep{Key: k.Value}
	seen := map[string]int{}
	var baseName string
	for i, v := range list.Content {
		label := describeNode(v)
		if line, dup := seen[label]; dup {
			return nil, d.errorf(v, path, "value %s listed twice (first on line %d)", label, line)
		}
		seen[label] = v.Line
		tree := copyNode(base)
		if err := setPath(tree, segs, copyNode(v), k); err != nil {
			return nil, d.errorf(v, path, "%v", err)
		}
		c := &Config{File: d.file}
		if err := d.config(tree, c); err != nil {
			return nil, fmt.Errorf("%w (sweep setting %d: %s = %s)", err, i+1, k.Value, label)
		}
		baseName = c.Name
		c.Name = fmt.Sprintf("%s %s=%s", c.Name, k.Value, label)
		s.Values = append(s.Values, label)
		s.Configs = append(s.Configs, c)
	}
	first := *s.Configs[0]
	first.Name = baseName
	first.Sweep = s
	return &first, nil
}

// keySeg is one step of a dotted key path: a mapping key, optionally
// followed by a list index ("engines[1]").
type keySeg struct {
	key   string
	index int // -1: none
}

var segRe = regexp.MustCompile(`^([^\[\]]+)(?:\[(\d+)\])?$`)

// parseKeyPath splits "engines[1].options.max_depth" into its steps.
func parseKeyPath(p string) ([]keySeg, error) {
	var segs []keySeg
	for _, part := range strings.Split(p, ".") {
		m := segRe.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("%q is not a key path (expected dotted keys with optional [index], e.g. limits.movetime or engines[1].options.max_depth)", p)
		}
		seg := keySeg{key: m[1], index: -1}
		if m[2] != "" {
			seg.index, _ = strconv.Atoi(m[2])
		}
		segs = append(segs, seg)
	}
	return segs, nil
}

// setPath sets the node at segs in the mapping root to value, creating
// missing mappings on the way (with the line of at, the sweep's key, for
// messages about them).
func setPath(root *yaml.Node, segs []keySeg, value, at *yaml.Node) error {
	cur := root
	where := ""
	for si, s := range segs {
		last := si == len(segs)-1
		where = join(where, s.key)
		if cur.Kind != yaml.MappingNode {
			return fmt.Errorf("%s is %s, not a mapping", strings.TrimSuffix(where, "."+s.key), kindName(cur))
		}
		i := -1
		for j := 0; j+1 < len(cur.Content); j += 2 {
			if cur.Content[j].Value == s.key {
				i = j
				break
			}
		}
		switch {
		case i < 0 && s.index >= 0:
			return fmt.Errorf("%s is not set, so it has no element [%d]", where, s.index)
		case i < 0:
			next := value
			if !last {
				next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: at.Line, Column: at.Column}
			}
			key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.key, Line: at.Line, Column: at.Column}
			cur.Content = append(cur.Content, key, next)
			cur = next
			continue
		case last && s.index < 0:
			cur.Content[i+1] = value
			return nil
		}
		cur = cur.Content[i+1]
		if s.index >= 0 {
			where = fmt.Sprintf("%s[%d]", where, s.index)
			if cur.Kind != yaml.SequenceNode {
				return fmt.Errorf("%s is %s, not a list", strings.TrimSuffix(where, fmt.Sprintf("[%d]", s.index)), kindName(cur))
			}
			if s.index >= len(cur.Content) {
				return fmt.Errorf("%s does not exist (the list has %d elements)", where, len(cur.Content))
			}
			if last {
				cur.Content[s.index] = value
				return nil
			}
			cur = cur.Content[s.index]
		}
	}
	return nil
}

// copyNode deep-copies a YAML tree, so that each setting edits its own.
func copyNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, ch := range n.Content {
		c.Content[i] = copyNode(ch)
	}
	return &c
}

// describeNode is a sweep value as text: a scalar as written, anything else
// in YAML flow style.
func describeNode(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	c := copyNode(n)
	var flow func(*yaml.Node)
	flow = func(x *yaml.Node) {
		x.Style = yaml.FlowStyle
		x.HeadComment, x.LineComment, x.FootComment = "", "", ""
		for _, ch := range x.Content {
			flow(ch)
		}
	}
	flow(c)
	out, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Sprintf("(line %d)", n.Line)
	}
	return strings.TrimSpace(string(out))
}
