package config

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/internal/clip"
)

// decoder walks the YAML tree so that every error carries file:line and
// the dotted key path.
// decoder decodes one config file. recorded marks a run's config.yaml read
// back by a tool that plays nothing (arena export, arena analyze RUN_DIR):
// arena run checked it when it wrote it, and its built-in engines are not
// built again, since a model file named relative to where the run started
// need not be found from here.
type decoder struct {
	file     string
	recorded bool
}

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

// timeout is a duration above 0: a wait for an engine's answer.
func (d *decoder) timeout(n *yaml.Node, path string) (Duration, error) {
	v, err := d.duration(n, path)
	if err == nil && v <= 0 {
		err = d.errorf(n, path, "must be above 0 (how long an engine may take to answer, e.g. 30s)")
	}
	return v, err
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
