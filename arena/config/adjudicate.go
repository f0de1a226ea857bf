package config

import "gopkg.in/yaml.v3"

// Adjudication rules (GameRecord.Adjudication, Summary.Adjudications).
const (
	AdjudicateDraw     = "draw"
	AdjudicateResign   = "resign"
	AdjudicateMaxMoves = "max_moves"
)

// Adjudicate holds the score-based adjudication rules of fastchess's and
// cutechess-cli's -draw and -resign; a nil rule is off. Scores are the
// engines' own, as they report them with each move: the arena adjudicates
// on what the players believe, as those tools do, not on the judge's
// evaluation (which comes after the game).
type Adjudicate struct {
	Draw   *DrawRule   `yaml:"draw,omitempty"`
	Resign *ResignRule `yaml:"resign,omitempty"`
}

// DrawRule: the game is a draw once at least MoveNumber full moves have
// been played and both engines' scores have stayed within ±Score
// centipawns for MoveCount consecutive moves each (2×MoveCount plies). A
// capture or pawn move restarts the count (that move itself counts), and a
// mate score breaks it, as in fastchess.
type DrawRule struct {
	MoveNumber int `yaml:"movenumber"`
	MoveCount  int `yaml:"movecount"`
	Score      int `yaml:"score"`
}

// ResignRule: an engine loses once its own score has been at -Score
// centipawns or worse (or a mate against it) for MoveCount consecutive
// moves of its own. TwoSided: both engines must agree, the loser at -Score
// or worse and the winner at +Score or better, for MoveCount moves each
// (2×MoveCount consecutive plies).
type ResignRule struct {
	MoveCount int  `yaml:"movecount"`
	Score     int  `yaml:"score"`
	TwoSided  bool `yaml:"twosided"`
}

var (
	adjudicateKeys = KeysOf("adjudicate")
	drawKeys       = KeysOf("adjudicate.draw")
	resignKeys     = KeysOf("adjudicate.resign")
)

// adjudicate reads the adjudicate: mapping.
func (d *decoder) adjudicate(n *yaml.Node, path string) (Adjudicate, error) {
	var a Adjudicate
	err := d.mapping(n, path, adjudicateKeys, func(key string, v *yaml.Node) error {
		var err error
		switch kp := join(path, key); key {
		case "draw":
			a.Draw, err = d.drawRule(v, kp)
		case "resign":
			a.Resign, err = d.resignRule(v, kp)
		}
		return err
	})
	return a, err
}

func (d *decoder) drawRule(n *yaml.Node, path string) (*DrawRule, error) {
	r := &DrawRule{}
	set := map[string]bool{}
	err := d.mapping(n, path, drawKeys, func(key string, v *yaml.Node) error {
		set[key] = true
		var i int64
		var err error
		switch kp := join(path, key); key {
		case "movenumber":
			i, err = d.int(v, kp, 0)
			r.MoveNumber = int(i)
		case "movecount":
			i, err = d.int(v, kp, 1)
			r.MoveCount = int(i)
		case "score":
			i, err = d.int(v, kp, 0)
			r.Score = int(i)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"movecount", "score"} {
		if !set[k] {
			return nil, d.errorf(n, join(path, k), "missing (a draw is adjudicated when both scores stay within score cp for movecount moves, e.g. draw: {movenumber: 40, movecount: 8, score: 10})")
		}
	}
	return r, nil
}

func (d *decoder) resignRule(n *yaml.Node, path string) (*ResignRule, error) {
	r := &ResignRule{}
	set := map[string]bool{}
	err := d.mapping(n, path, resignKeys, func(key string, v *yaml.Node) error {
		set[key] = true
		var i int64
		var err error
		switch kp := join(path, key); key {
		case "movecount":
			i, err = d.int(v, kp, 1)
			r.MoveCount = int(i)
		case "score":
			i, err = d.int(v, kp, 1)
			r.Score = int(i)
		case "twosided":
			r.TwoSided, err = d.bool(v, kp)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"movecount", "score"} {
		if !set[k] {
			return nil, d.errorf(n, join(path, k), "missing (an engine resigns when its score stays at -score cp or worse for movecount moves, e.g. resign: {movecount: 3, score: 600})")
		}
	}
	return r, nil
}
