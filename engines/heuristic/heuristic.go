// Package heuristic is the thesis's heuristic chess engine (Kostin 2025,
// THESIS.md section 1.2) on the fast bitboard board, with the stronger search
// techniques of seed 002 available as options.
//
// With default options it is the thesis engine:
//   - PeSTO tapered evaluation (material + piece-square tables, phase
//     N=1 B=1 R=2 Q=4 capped at 24), from the side to move;
//   - move ordering: hash move first, then captures by MVV-LVA
//     (victim*10 - attacker + 1000 with P=1 N=3 B=3 R=5 Q=9 K=0), then the
//     rest, as a stable descending sort;
//   - quiescence search over legal captures (stand pat, fail-hard);
//   - fail-hard negamax alpha-beta with a transposition table (exact, lower
//     and upper bounds, depth, best move) cleared before every move;
//   - iterative deepening from depth 1 to max_depth (10); the time is checked
//     every 2048 nodes and an aborted iteration is discarded.
//
// Deliberate differences from the Python listing, none of which changes what
// the engine searches: the table is keyed by the Zobrist hash instead of the
// FEN string (a fixed 16 MB table instead of a dict); the bound stored with a
// result is computed against the window the node was entered with (the
// listing compares against the already raised alpha, so it labels almost
// every entry an upper bound); mates are scored 99999-ply rather than a flat
// 99999 so that the engine prefers the shortest mate and reports its
// distance; repetitions (any repetition inside the search, a third
// occurrence counting the game history) and the fifty-move rule score 0 as
// python-chess's is_game_over(claim_draw=False) would not; the evaluation
// divides in integers; and a node is counted once, not twice, when the main
// search hands it to quiescence.
//
// Options each switch on one seed-002 technique on top of that core (pvs,
// null_move, lmr, aspiration, killers, history, check_extension, a
// persistent hash table); preset=strong switches them all on. pst=thesis
// reproduces the listing's vertically mirrored table indexing.
package heuristic

import (
	"context"
	"fmt"
	"strings"
	"time"

	"arena/engines"
)

// Name is the registry name of the engine.
const Name = "heuristic"

// Option names.
const (
	optMaxDepth   = "max_depth"
	optHash       = "hash"
	optPVS        = "pvs"
	optNullMove   = "null_move"
	optLMR        = "lmr"
	optAspiration = "aspiration"
	optKillers    = "killers"
	optHistory    = "history"
	optCheckExt   = "check_extension"
	optPreset     = "preset"
	optPST        = "pst"
)

const (
	defaultMaxDepth = 10
	// strongHashMB is the table size preset=strong uses when hash is 0.
	strongHashMB = 64
)

// options lists the engine's options in the order `arena engines` and the
// UCI server show them.
var options = []engines.Option{
	{Name: optMaxDepth, Type: engines.Spin, Default: fmt.Sprint(defaultMaxDepth), Min: 1, Max: maxDepth,
		Help: "deepest iteration when the search has no depth limit (the thesis stops after 10); with preset=strong the default 10 means no cap (64)"},
	{Name: optHash, Type: engines.Spin, Default: "0", Min: 0, Max: 4096,
		Help: "transposition table MB kept between moves; 0 = thesis behaviour: a 16 MB table cleared before every move (64 MB kept with preset=strong)"},
	{Name: optPVS, Type: engines.Check, Default: "false", Help: "principal variation search: null-window search of all but the first move, re-searched on fail high"},
	{Name: optNullMove, Type: engines.Check, Default: "false", Help: "null-move pruning, R=2, at depth >= 3, not in check, with non-pawn material"},
	{Name: optLMR, Type: engines.Check, Default: "false", Help: "late move reductions by one ply from the 4th move, depth >= 3, quiet moves not in or giving check; re-searched on fail high"},
	{Name: optAspiration, Type: engines.Check, Default: "false", Help: "aspiration window of +-50 cp around the previous iteration's score, widened on failure"},
	{Name: optKillers, Type: engines.Check, Default: "false", Help: "two killer moves per ply ordered after captures"},
	{Name: optHistory, Type: engines.Check, Default: "false", Help: "history heuristic: quiet moves ordered by their cutoff history"},
	{Name: optCheckExt, Type: engines.Check, Default: "false", Help: "extend the search by one ply after a move that gives check"},
	{Name: optPreset, Type: engines.Combo, Default: "thesis", Vars: []string{"thesis", "strong"},
		Help: "thesis: only the options switched on; strong: every technique on (check options can add, not remove) and a 64 MB persistent table unless hash is set"},
	{Name: optPST, Type: engines.Combo, Default: "correct", Vars: []string{"correct", "thesis"},
		Help: "correct: PeSTO as published; thesis: the listing's vertically mirrored indexing (white pawns score highest on rank 2)"},
}

func init() {
	engines.Register(engines.Spec{
		Name: Name,
		Description: "thesis heuristic engine: PeSTO tapered eval, MVV-LVA, quiescence, fail-hard alpha-beta, " +
			"transposition table, iterative deepening; seed-002 techniques as options (preset=strong for all)",
		Options: options,
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// config is the resolved engine configuration.
type config struct {
	maxDepth   int
	hashMB     int  // table size
	keepTT     bool // keep the table between moves (hash > 0 or preset=strong)
	pvs        bool
	nullMove   bool
	lmr        bool
	aspiration bool
	killers    bool
	history    bool
	checkExt   bool
	pst        pstMode
}

// newConfig applies the preset. Options are resolved with their defaults
// filled in, so the preset cannot tell "left at the default" from "set to
// the default": strong therefore ORs every technique on and reads hash 0
// and max_depth 10 (the defaults) as "the strong values" (64 MB, no cap).
func newConfig(opts engines.Options) config {
	c := config{
		maxDepth:   opts.Int(optMaxDepth),
		hashMB:     opts.Int(optHash),
		pvs:        opts.Bool(optPVS),
		nullMove:   opts.Bool(optNullMove),
		lmr:        opts.Bool(optLMR),
		aspiration: opts.Bool(optAspiration),
		killers:    opts.Bool(optKillers),
		history:    opts.Bool(optHistory),
		checkExt:   opts.Bool(optCheckExt),
	}
	if opts[optPST] == "thesis" {
		c.pst = pstThesis
	}
	if opts[optPreset] == "strong" {
		c.pvs, c.nullMove, c.lmr, c.aspiration = true, true, true, true
		c.killers, c.history, c.checkExt = true, true, true
		if c.hashMB == 0 {
			c.hashMB = strongHashMB
		}
		if c.maxDepth == defaultMaxDepth {
			c.maxDepth = maxDepth
		}
	}
	if c.maxDepth < 1 || c.maxDepth > maxDepth {
		c.maxDepth = defaultMaxDepth
	}
	c.keepTT = c.hashMB > 0
	if !c.keepTT {
		c.hashMB = thesisTTMB
	}
	return c
}

// techniques names the options in effect, for the engine's name string.
func (c config) techniques() []string {
	var on []string
	for _, t := range []struct {
		on   bool
		name string
	}{{c.pvs, optPVS}, {c.nullMove, optNullMove}, {c.lmr, optLMR}, {c.aspiration, optAspiration},
		{c.killers, optKillers}, {c.history, optHistory}, {c.checkExt, optCheckExt}} {
		if t.on {
			on = append(on, t.name)
		}
	}
	return on
}

// Engine is the heuristic engine. It is not safe for concurrent searches.
type Engine struct {
	cfg config
	s   *searcher
}

// New builds an engine from resolved options (see engines.Spec.Resolve);
// missing options take their defaults.
func New(opts engines.Options) (*Engine, error) {
	spec, err := engines.Lookup(Name)
	if err != nil {
		return nil, err
	}
	values := map[string]string{}
	for k, v := range opts {
		values[k] = v
	}
	full, err := spec.Resolve(values)
	if err != nil {
		return nil, err
	}
	cfg := newConfig(full)
	e := &Engine{cfg: cfg, s: newSearcher(&cfg)}
	e.s.tt.resize(cfg.hashMB)
	return e, nil
}

// Name identifies the engine and the techniques switched on.
func (e *Engine) Name() string {
	on := e.cfg.techniques()
	if len(on) == 0 {
		return "heuristic (thesis)"
	}
	return "heuristic (" + strings.Join(on, ",") + ")"
}

// NewGame forgets everything learned in the previous game.
func (e *Engine) NewGame() {
	e.s.tt.clear()
	e.s.clearHeuristics()
}

// Close releases the transposition table.
func (e *Engine) Close() error {
	e.s.tt = transTable{}
	return nil
}

// Search finds a move for pos within lim; see the package documentation.
// It returns an error only for an invalid position or move list.
func (e *Engine) Search(ctx context.Context, pos engines.Position, lim engines.Limits, info engines.InfoFunc) (engines.Result, error) {
	start := time.Now()
	if e.s.tt.entries == nil {
		return engines.Result{}, fmt.Errorf("heuristic: search after Close")
	}
	if err := e.s.setPosition(pos); err != nil {
		return engines.Result{}, fmt.Errorf("heuristic: %w", err)
	}
	return e.s.run(ctx, start, lim, info), nil
}
