package arena

// Config drift: a run directory's config.yaml can be edited between two
// sessions of one run, and the shards of a merge can come from configs that
// differ. Both are checked key by key against what was played: every
// summary.json records the played config as flat keys (GameKeys: the
// resolved config without the run-only keys, books by the digest of their
// positions), and --resume and arena merge refuse any difference, naming
// each key ("engines[1].limits.nodes: 3000 -> 7"). The run-only keys are
// declared once, with the keys (config.Key.RunOnly), and are the only ones
// that may change.
//
// Runs recorded before summaries held the played keys carry only their
// config_sha256, computed by the former ConfigHash over the marshalled
// config with books by their raw bytes; such a run is checked by that hash
// (legacyConfigHash), which cannot name keys, and a mismatch is only a
// warning: committed runs of still older arenas hashed other keys, and
// refusing them would make them unresumable. A book whose provenance lines
// moved to its side file (BOOK.txt; see openings.SideFile) is hashed with
// those lines put back on top, as it was when the run was played.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"arena/arena/config"
	"arena/arena/openings"
	"arena/arena/record"
)

// GameKeys flattens the resolved config into the keys that define its
// games ("engines[1].limits.nodes" -> "3000"), run-only keys left out. The
// opening book and engines' own books are given by the SHA-256 of their
// content (an EPD book's position lines only, so comment lines are not
// part of it), not by where they lie.
func GameKeys(cfg *config.Config) (map[string]string, error) {
	data, err := cfg.Marshal()
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	keys := map[string]string{}
	flatten(keys, "", doc.Content[0])
	for k := range keys {
		if config.IsRunOnly(k) {
			delete(keys, k)
		}
	}
	if o := cfg.Openings; o != nil && o.File != "" {
		if keys["openings.file"], err = bookDigest(o.File, openings.FormatOf(*o) == openings.FormatEPD, false); err != nil {
			return nil, fmt.Errorf("opening book: %w", err)
		}
	}
	for i, e := range cfg.Engines {
		if e.Book != nil {
			if keys[fmt.Sprintf("engines[%d].book.file", i)], err = bookDigest(e.Book.File, false, false); err != nil {
				return nil, fmt.Errorf("engine %q: book: %w", e.Name, err)
			}
		}
	}
	return keys, nil
}

// flatten adds node's scalars to keys under their paths.
func flatten(keys map[string]string, path string, n *yaml.Node) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			flatten(keys, join(n.Content[i].Value), n.Content[i+1])
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			flatten(keys, path+"["+strconv.Itoa(i)+"]", c)
		}
	default:
		keys[path] = n.Value
	}
}

// bookDigest is "sha256:HEX" of a book's content: with positions, of an
// EPD book's lines that hold a position (no blank or "#" lines); with
// legacy, of the bytes the book had when its provenance was still on top
// of it (the side file's lines, then the book).
func bookDigest(file string, positions, legacy bool) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	if legacy {
		if side, err := os.ReadFile(openings.SideFile(file)); err == nil && !bytes.HasPrefix(data, []byte("#")) {
			data = append(side, data...)
		}
	}
	h := sha256.New()
	if !positions {
		h.Write(data)
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, len(data)+1)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line != "" && !strings.HasPrefix(line, "#") {
				h.Write([]byte(line + "\n"))
			}
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// ConfigHash identifies a resolved config: the SHA-256 of its GameKeys, so
// that the run-only keys and where the books lie change it not: shards of
// one run share the hash when they ran from checkouts in different places
// and at different concurrencies.
func ConfigHash(cfg *config.Config) (string, error) {
	keys, err := GameKeys(cfg)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		fmt.Fprintf(h, "%s=%q\n", k, keys[k])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// legacyConfigHash is the config_sha256 of runs recorded before summaries
// held the played keys: the marshalled config without the keys that
// changed no game then, books by their raw bytes.
func legacyConfigHash(cfg *config.Config) (string, error) {
	c := *cfg
	c.Concurrency = 0
	c.RatingInterval = 0
	c.StartTimeout, c.NewGameTimeout, c.PingTimeout = 0, 0, 0
	c.Output.Dir = ""
	c.Output.Compress = false
	var err error
	if cfg.Openings != nil && cfg.Openings.File != "" {
		o := *cfg.Openings
		if o.File, err = bookDigest(o.File, false, true); err != nil {
			return "", fmt.Errorf("opening book: %w", err)
		}
		c.Openings = &o
	}
	c.Engines = slices.Clone(cfg.Engines)
	for i, e := range c.Engines {
		if e.Book != nil {
			b := *e.Book
			if b.File, err = bookDigest(b.File, false, true); err != nil {
				return "", fmt.Errorf("engine %q: book: %w", e.Name, err)
			}
			c.Engines[i].Book = &b
		}
	}
	data, err := c.Marshal()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// checkPlayed refuses cfg (a run directory's config.yaml, as loaded) when
// it differs in a key that defines the games from what the run's summary
// says was played. A run with no summary yet has played nothing. A run
// recorded before the played keys is checked by its hash, which older
// arenas computed over other keys: a mismatch there is a warning (the
// returned string), since it cannot tell an edit from a change of the hash.
func checkPlayed(cfg *config.Config, prev *record.Summary) (string, error) {
	if prev == nil {
		return "", nil
	}
	if prev.PlayedConfig == nil {
		if prev.ConfigHash == "" {
			return "", nil
		}
		h, err := legacyConfigHash(cfg)
		if err != nil || h == prev.ConfigHash {
			return "", err
		}
		return fmt.Sprintf("%s cannot be checked against the config the run was played with: the run predates the record of its keys, and its config sha256 (%.12s in summary.json, %.12s now) was computed by an older arena or the file was edited; continuing with config.yaml as it is",
			cfg.File, prev.ConfigHash, h), nil
	}
	keys, err := GameKeys(cfg)
	if err != nil {
		return "", err
	}
	if diff := diffKeys(prev.PlayedConfig, keys); len(diff) > 0 {
		return "", fmt.Errorf("%s differs from the config this run was played with:\n  %s\nthese keys change what a game is; only run-only keys may change (%s): put back the played values, or start a new run",
			cfg.File, strings.Join(diff, "\n  "), strings.Join(config.RunOnlyKeys(), ", "))
	}
	return "", nil
}

// diffKeys lists the keys whose values differ between a and b, as
// "key: A -> B" ("(unset)" for a missing key), sorted.
func diffKeys(a, b map[string]string) []string {
	show := func(m map[string]string, k string) string {
		v, ok := m[k]
		if !ok {
			return "(unset)"
		}
		if v == "" || strings.ContainsAny(v, " \t\n:#") {
			return strconv.Quote(v)
		}
		return v
	}
	var out []string
	for k, va := range a {
		if vb, ok := b[k]; !ok || va != vb {
			out = append(out, k+": "+show(a, k)+" -> "+show(b, k))
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k+": (unset) -> "+show(b, k))
		}
	}
	sort.Strings(out)
	return out
}
