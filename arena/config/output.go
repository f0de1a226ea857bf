package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// OutputConfig says where results go, how many games the PGN keeps, what
// its move comments carry, whether the final positions are written and
// whether the game files are compressed when the run ends.
type OutputConfig struct {
	Dir string  `yaml:"dir"`
	PGN PGNMode `yaml:"pgn"`
	// Comments is which measurements each move's comment in games.pgn
	// carries; nil: DefaultPGNComments. Optional keys stay out of
	// config.yaml when unset, so the configs (and config hashes) of runs
	// made before they existed are unchanged.
	Comments *PGNComments `yaml:"pgn_comments,omitempty"`
	// EPD writes games.epd: the final position of every finished game, in
	// game order (fastchess's -epdout, cutechess-cli's -epdout).
	EPD bool `yaml:"epd,omitempty"`
	// Compress replaces games.jsonl, moves.csv, games.pgn and games.epd
	// by gzip files when the run ends, so that runs fit in a git commit;
	// while it plays they stay plain (arena/output's Compress).
	Compress bool `yaml:"compress,omitempty"`
}

// PGNMode is which games games.pgn holds: all, none, or the last N.
type PGNMode struct {
	None bool
	Last int // 0 with None false: all games
}

func (m PGNMode) String() string {
	switch {
	case m.None:
		return "none"
	case m.Last > 0:
		return fmt.Sprintf("last %d", m.Last)
	}
	return "all"
}

// MarshalYAML writes the mode as "all", "none" or "last N".
func (m PGNMode) MarshalYAML() (any, error) { return m.String(), nil }

// ParsePGNMode parses "all", "none" or "last N".
func ParsePGNMode(s string) (PGNMode, error) {
	f := strings.Fields(strings.ToLower(s))
	switch {
	case len(f) == 1 && f[0] == "all":
		return PGNMode{}, nil
	case len(f) == 1 && f[0] == "none":
		return PGNMode{None: true}, nil
	case len(f) == 2 && f[0] == "last":
		n, err := strconv.Atoi(f[1])
		if err == nil && n > 0 {
			return PGNMode{Last: n}, nil
		}
	}
	return PGNMode{}, fmt.Errorf("%q is not a PGN mode (expected all, none or \"last N\" with N >= 1)", s)
}

// The fields a PGN move comment can carry after the score/depth and the
// move's time, which every comment starts with (as in fastchess and
// cutechess-cli). The names are fastchess's -pgnout keys where it has them.
const (
	CommentTimeLeft = "timeleft" // tl=: the mover's clock after the move (clock limits only)
	CommentNodes    = "nodes"    // n=
	CommentSelDepth = "seldepth" // sd=
	CommentNPS      = "nps"      // nps=
	CommentPV       = "pv"       // pv="UCI moves"
	CommentMem      = "mem"      // mem=: the engine process's peak RSS
	CommentCPL      = "cpl"      // cpl=: the judge's centipawn loss
)

// CommentFields lists the fields in the order a comment writes them.
var CommentFields = []string{CommentTimeLeft, CommentNodes, CommentSelDepth, CommentNPS, CommentPV, CommentMem, CommentCPL}

// DefaultPGNComments is what the comments carried before they could be
// chosen: "{+0.32/12 0.51s n=12345 mem=35MB cpl=12}".
var DefaultPGNComments = PGNComments{Fields: []string{CommentNodes, CommentMem, CommentCPL}}

// PGNComments is the pgn_comments key: a list of CommentFields, or "none"
// for moves without comments (cutechess-cli's "min", fastchess's min=true).
type PGNComments struct {
	None   bool
	Fields []string // in CommentFields order
}

// Has reports whether the comments carry the field.
func (c PGNComments) Has(field string) bool { return slices.Contains(c.Fields, field) }

// MarshalYAML writes "none" or the list.
func (c PGNComments) MarshalYAML() (any, error) {
	if c.None {
		return "none", nil
	}
	return append([]string{}, c.Fields...), nil
}

// PGNComments is the resolved pgn_comments.
func (o OutputConfig) PGNComments() PGNComments {
	if o.Comments == nil {
		return DefaultPGNComments
	}
	return *o.Comments
}

var outputKeys = KeysOf("output")

func (d *decoder) output(n *yaml.Node, path string, o *OutputConfig) error {
	return d.mapping(n, path, outputKeys, func(key string, v *yaml.Node) error {
		kp := join(path, key)
		var err error
		switch key {
		case "dir":
			if o.Dir, err = d.str(v, kp); err == nil && o.Dir == "" {
				err = d.errorf(v, kp, "must not be empty")
			}
		case "pgn":
			var s string
			if s, err = d.str(v, kp); err == nil {
				if o.PGN, err = ParsePGNMode(s); err != nil {
					err = d.errorf(v, kp, "%v", err)
				}
			}
		case "pgn_comments":
			o.Comments, err = d.pgnComments(v, kp)
		case "epd":
			o.EPD, err = d.bool(v, kp)
		case "compress":
			o.Compress, err = d.bool(v, kp)
		}
		return err
	})
}

// pgnComments decodes "none" or a list of CommentFields.
func (d *decoder) pgnComments(n *yaml.Node, path string) (*PGNComments, error) {
	expected := fmt.Sprintf(`"none" or a list of %s`, strings.Join(CommentFields, ", "))
	if n.Kind == yaml.ScalarNode && strings.EqualFold(n.Value, "none") {
		return &PGNComments{None: true}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, path, "expected %s, got %s", expected, kindName(n))
	}
	seen := map[string]bool{}
	for i, item := range n.Content {
		ip := fmt.Sprintf("%s[%d]", path, i)
		s, err := d.str(item, ip)
		if err != nil {
			return nil, err
		}
		s = strings.ToLower(s)
		if !slices.Contains(CommentFields, s) {
			return nil, d.errorf(item, ip, "%q is not a comment field (expected %s)", s, expected)
		}
		if seen[s] {
			return nil, d.errorf(item, ip, "%q listed twice", s)
		}
		seen[s] = true
	}
	c := &PGNComments{Fields: []string{}}
	for _, f := range CommentFields {
		if seen[f] {
			c.Fields = append(c.Fields, f)
		}
	}
	return c, nil
}
