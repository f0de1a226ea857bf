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
// Differences from the Python listing without a switch (docs/heuristic.md
// says why; they change which cutoffs happen, not the rules): the table is keyed by the Zobrist hash instead of the
// FEN string (a fixed 16 MB table instead of a dict); the bound stored with a
// result is computed against the window the node was entered with (the
// listing compares against the already raised alpha, so it labels every
// entry an upper bound); the evaluation divides in integers; and a node is
// counted once, not twice, when the main search hands it to quiescence.
//
// Differences that change what it plays each have an option, and
// preset=thesis sets them all to the listing's behaviour: mate_score (the
// listing's evaluate scores checkmate White-relative, so it cannot mate as
// White; ours is side-to-move and distance-aware), pst (its vertically
// mirrored tables), quiescence (no quiet promotions, and its evaluate's
// mate and game-over tests at every node) and draws (python-chess's
// is_game_over: fivefold and 75 moves instead of repetition in the search,
// threefold and fifty moves). docs/heuristic.md lists every deviation.
//
// Options each switch on one technique of seed 002, done the way strong
// engines do it, on top of that core (pvs, aspiration, null_move, lmr,
// futility, razoring, iir, killers, history, countermove, check_extension,
// delta_pruning, late_move_pruning, see_pruning, a persistent hash table),
// and eval_terms adds the positional terms PeSTO lacks (evalterms.go);
// preset=strong switches them all on. Presets are layers under the options
// the user sets (see package engines), so this package never sees them.
// Each switch is declared once (switches, listingOpts): the option list,
// the presets, the resolved config and the engine's name are built from it.
//
// Option probability replaces the depth limit by Giraffe's probability limit
// (seed 003; probability.go says how it maps onto the depth arithmetic).
//
// The techniques only ever add pruning, reductions, extensions or ordering
// keys to the thesis core; with all of them off the search is the core's
// node for node (the thesis preset's tests pin that). Margins and the
// reduction table are the customary ones for a PeSTO-sized evaluation, not
// tuned on this engine's games: they were kept where the fixed-depth node
// count of the bench positions fell (docs/ablation.md), and what each buys
// in Elo is for the ablation configs (studies/ablation/configs) to say. The search
// stays fail-hard, as the thesis's, so pruning returns the bound it proved.
package heuristic

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"time"

	"arena/engines"
)

// Name is the registry name of the engine.
const Name = "heuristic"

// Option names that code outside the declaration below reads.
const (
	optMaxDepth  = "max_depth"
	optHash      = "hash"
	optEvalTerms = "eval_terms"
	optWeights   = "eval_weights"
	optNullR     = "null_move_r"
	optPST       = "pst"
	optProb      = "probability"
)

const (
	defaultMaxDepth = 10
	defaultNullR    = 3
	// strongHashMB is the persistent table size of preset=strong.
	strongHashMB = 64
)

// A switch is a check option, off by default, that sets one field of
// config. The switches and the listing's behaviours below are the
// engine's one declaration of those options: the option list (`arena
// engines`, the UCI handshake, the reference), the presets, config and
// the engine's name string are all read from them.
type switchOpt struct {
	name  string
	field func(*config) *bool
	// strong: preset=strong switches it on. plies: it counts plies, so a
	// probability-limited search (which has none) refuses it.
	strong, plies bool
	help          string
}

var switches = []switchOpt{
	{"pvs", func(c *config) *bool { return &c.pvs }, true, false,
		"principal variation search: null-window search of all but the first move, re-searched on fail high"},
	{"null_move", func(c *config) *bool { return &c.nullMove }, true, true,
		"null-move pruning, adaptive R = 3 + depth/4 (+1 when far above beta), not in check, with non-pawn material"},
	{"null_move_verify", func(c *config) *bool { return &c.nullVerify }, false, false,
		"null_move verification: a null move that fails high at depth >= 6 cuts only if a search of the node itself, R plies shallower and without a null move there, fails high too (against zugzwang)"},
	{"lmr", func(c *config) *bool { return &c.lmr }, true, true,
		"late move reductions from a table by depth and move number, quiet moves not in or giving check; re-searched on fail high"},
	{"aspiration", func(c *config) *bool { return &c.aspiration }, true, false,
		"aspiration window of +-50 cp around the previous iteration's score, doubled on each failure"},
	{"killers", func(c *config) *bool { return &c.killers }, true, false,
		"two killer moves per ply ordered after captures"},
	{"history", func(c *config) *bool { return &c.history }, true, false,
		"history heuristic: quiet moves ordered by their cutoff history (bonus to the cutting move, malus to the quiets tried before it)"},
	{"countermove", func(c *config) *bool { return &c.counter }, true, false,
		"counter-move heuristic: the quiet move that last refuted the opponent's previous move is ordered after the killers"},
	{"check_extension", func(c *config) *bool { return &c.checkExt }, true, true,
		"extend the search by one ply after a move that gives check"},
	{"futility", func(c *config) *bool { return &c.futility }, true, true,
		"futility margins: reverse futility (static eval - 80 cp x depth >= beta cuts, depth <= 6) and quiet moves skipped at depth <= 3 when static eval + 100 cp x depth + 50 <= alpha"},
	{"razoring", func(c *config) *bool { return &c.razoring }, true, true,
		"razoring: at depth <= 3 a static eval 200 + 150 cp x depth below alpha drops into quiescence"},
	{"iir", func(c *config) *bool { return &c.iir }, true, true,
		"internal iterative reduction: a node of depth >= 4 without a hash move is searched one ply shallower"},
	{"delta_pruning", func(c *config) *bool { return &c.delta }, true, false,
		"quiescence pruning: captures that cannot raise alpha by 200 cp (delta pruning) and captures of a cheaper piece on a defended square are skipped"},
	{"late_move_pruning", func(c *config) *bool { return &c.lmp }, true, true,
		"late move pruning: outside PV nodes at depth <= 8, quiet moves that do not give check are skipped once 3 + depth^2 quiet moves have been searched"},
	{"see_pruning", func(c *config) *bool { return &c.see }, true, true,
		"static exchange pruning: at depth <= 8 outside PV nodes, moves losing more than 64 cp x depth (quiet) or 20 cp x depth^2 (captures) in the exchange are skipped; in quiescence, captures losing material (instead of delta_pruning's cheaper-piece test)"},
	{optEvalTerms, func(c *config) *bool { return &c.evalTerms }, true, false,
		"evaluation terms on top of PeSTO: mobility, bishop pair, passed, doubled and isolated pawns, rooks on open files, king safety (attacks on the king's zone)"},
	{optProb, func(c *config) *bool { return &c.probability }, false, false,
		"probability-limited search (Giraffe): a node is searched while its share of the root's probability, split evenly among the legal moves at each node, is above a threshold that each iteration divides by 30; not with"},
}

// A listing option switches one deviation of the thesis listing
// (docs/heuristic.md lists them all): "correct" by default, "thesis" sets
// the field; preset=thesis sets them all.
type listingOpt struct {
	name  string
	field func(*config) *bool
	help  string
}

var listingOpts = []listingOpt{
	{optPST, func(c *config) *bool { return &c.thesisPST },
		"correct: PeSTO as published; thesis: the listing's vertically mirrored indexing (white pawns score highest on rank 2)"},
	{"mate_score", func(c *config) *bool { return &c.whiteMate },
		"correct: mate scored for the side to move, shorter mates preferred; thesis: the listing's flat -99999 if White is mated else +99999, White-relative where the search expects side-to-move, so the engine avoids mating as White"},
	{"quiescence", func(c *config) *bool { return &c.thesisQuies },
		"correct: captures and promotions; thesis: legal captures only (no quiet promotions), standing pat on the listing's evaluate (mate and game-over tests at every node)"},
	{"draws", func(c *config) *bool { return &c.thesisDraws },
		"correct: a repetition inside the search, threefold with the game, fifty moves and insufficient material are draws; thesis: python-chess's is_game_over(): stalemate, insufficient material, 75 moves, fivefold"},
}

// options lists the engine's options in the order `arena engines` and the
// UCI server show them (Register appends preset), and presets the layers
// under the user's options; both are built from the declarations above.
var options, presets = declare()

func declare() ([]engines.Option, []engines.Preset) {
	opts := []engines.Option{
		{Name: optMaxDepth, Type: engines.Spin, Default: fmt.Sprint(defaultMaxDepth), Min: 1, Max: maxDepth,
			Help: fmt.Sprintf("deepest iteration when the search has no depth limit (the thesis stops after %d; preset=strong: %d)", defaultMaxDepth, maxDepth)},
		{Name: optHash, Type: engines.Spin, Default: "0", Min: 0, Max: 4096,
			Help: fmt.Sprintf("transposition table MB kept between moves; 0 = thesis behaviour: a %d MB table cleared before every move (preset=strong: %d)", thesisTTMB, strongHashMB)},
	}
	strong := map[string]string{optHash: fmt.Sprint(strongHashMB), optMaxDepth: fmt.Sprint(maxDepth)}
	var plies []string
	for _, s := range switches {
		if s.plies {
			plies = append(plies, s.name)
		}
	}
	for _, s := range switches {
		help := s.help
		if s.name == optProb {
			help += " " + strings.Join(plies, ", ")
		}
		opts = append(opts, engines.Option{Name: s.name, Type: engines.Check, Default: "false", Help: help})
		if s.strong {
			strong[s.name] = "true"
		}
	}
	opts = append(opts,
		engines.Option{Name: optNullR, Type: engines.Spin, Default: fmt.Sprint(defaultNullR), Min: 1, Max: 6,
			Help: "null_move's base reduction: R = null_move_r + depth/4 (+1 when far above beta); the ablation's engine has 3"},
		engines.Option{Name: optWeights, Type: engines.Combo, Default: "pesto", Vars: []string{"pesto", "tuned"},
			Help: "pesto: PeSTO's piece-square tables and the textbook eval_terms weights; tuned: fitted to self-play game results by arena train texel (docs/ablation.md), for the evaluation with eval_terms"})
	thesis := map[string]string{}
	for _, l := range listingOpts {
		opts = append(opts, engines.Option{Name: l.name, Type: engines.Combo, Default: "correct", Vars: []string{"correct", "thesis"}, Help: l.help})
		thesis[l.name] = "thesis"
	}
	return opts, []engines.Preset{
		{Name: "strong", Help: fmt.Sprintf("every technique option on (the seed-002 search techniques, and eval_terms where the evaluation is PeSTO), a %d MB table kept between moves, no depth cap", strongHashMB), Values: strong},
		{Name: "thesis", Help: "the thesis listing's behaviour, bugs included (mirrored tables, White-relative mate score, its quiescence and draw rules)", Values: thesis},
	}
}

// SearchOptions returns the options that configure the search whatever the
// evaluation (all but pst and eval_terms, which belong to PeSTO), and the
// presets that set only those (strong without eval_terms), for engines built
// with NewWithEvaluator.
func SearchOptions() ([]engines.Option, []engines.Preset) {
	evalOnly := func(name string) bool { return name == optPST || name == optEvalTerms || name == optWeights }
	var opts []engines.Option
	for _, o := range options {
		if !evalOnly(o.Name) {
			opts = append(opts, o)
		}
	}
	for _, p := range presets {
		if p.Name == "strong" {
			p.Values = maps.Clone(p.Values)
			maps.DeleteFunc(p.Values, func(name, _ string) bool { return evalOnly(name) })
			return opts, []engines.Preset{p}
		}
	}
	return opts, nil
}

func init() {
	engines.Register(engines.Spec{
		Name: Name,
		Description: "thesis heuristic engine: PeSTO tapered eval, MVV-LVA, quiescence, fail-hard alpha-beta, " +
			"transposition table, iterative deepening; seed-002 techniques as options (preset=strong for all, preset=thesis for the listing's bugs)",
		Options: options,
		Presets: presets,
		New: func(opts engines.Options) (engines.Engine, error) {
			return New(opts)
		},
	})
}

// config is the resolved engine configuration.
type config struct {
	maxDepth   int
	hashMB     int  // table size
	keepTT     bool // keep the table between moves (hash > 0)
	pvs        bool
	nullMove   bool
	nullR      int  // null_move's base reduction
	nullVerify bool // verify null-move cutoffs at depth >= nullVerifyDepth
	lmr        bool
	aspiration bool
	killers    bool
	history    bool
	checkExt   bool
	counter    bool
	futility   bool
	razoring   bool
	iir        bool
	delta      bool
	lmp        bool
	see        bool
	evalTerms  bool
	weights    *Weights // eval_weights
	// probability: probability-limited search (probability.go).
	probability bool
	// The listing's behaviours (listingOpts).
	thesisPST   bool
	whiteMate   bool
	thesisQuies bool
	thesisDraws bool
}

// newConfig reads resolved options: presets are layers applied by
// engines.Spec.Resolve, so nothing here knows about them.
func newConfig(opts engines.Options) config {
	c := config{maxDepth: opts.Int(optMaxDepth), hashMB: opts.Int(optHash), nullR: opts.Int(optNullR), weights: &pestoWeights}
	if opts[optWeights] == "tuned" {
		c.weights = &tunedWeights
	}
	for _, s := range switches {
		*s.field(&c) = opts.Bool(s.name)
	}
	for _, l := range listingOpts {
		*l.field(&c) = opts[l.name] == "thesis"
	}
	c.keepTT = c.hashMB > 0
	if !c.keepTT {
		c.hashMB = thesisTTMB
	}
	return c
}

// techniques names the options in effect, for the engine's name string:
// the switches on, then the listing's behaviours.
func (c config) techniques() []string {
	var on []string
	for _, s := range switches {
		if *s.field(&c) {
			on = append(on, s.name)
		}
	}
	if c.weights == &tunedWeights {
		on = append(on, optWeights+"=tuned")
	}
	for _, l := range listingOpts {
		if *l.field(&c) {
			on = append(on, l.name+"=thesis")
		}
	}
	return on
}

// Engine is the heuristic engine. It is not safe for concurrent searches.
type Engine struct {
	name string
	cfg  config
	s    *searcher
}

// New builds an engine from options resolved by engines.Spec.Resolve
// (engines.New resolves a partial set); an option out of range is an error.
func New(opts engines.Options) (*Engine, error) {
	return NewWithEvaluator(Name, opts, nil)
}

// NewWithEvaluator is New with another static evaluation in place of
// PeSTO (nil: PeSTO), for engines that reuse this search (engines/giraffe);
// name is the engine's name in errors and in Name. opts are this engine's
// options (SearchOptions lists those that apply to any evaluation; an
// option left out has its default).
func NewWithEvaluator(name string, opts engines.Options, eval Evaluator) (*Engine, error) {
	if d := opts.Int(optMaxDepth); d < 1 || d > maxDepth {
		return nil, fmt.Errorf("%s: option %s=%q out of range (expected 1..%d; resolve options with engines.New)", name, optMaxDepth, opts[optMaxDepth], maxDepth)
	}
	cfg := newConfig(opts)
	if err := cfg.checkProbability(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if eval == nil {
		mode := pstCorrect
		if cfg.thesisPST {
			mode = pstThesis
		}
		t := newEvalTables(mode, cfg.weights)
		eval = t
		if cfg.evalTerms {
			eval = termsEval{t, cfg.weights}
		}
	}
	e := &Engine{name: name, cfg: cfg, s: newSearcher(&cfg, eval)}
	e.s.tt.resize(cfg.hashMB)
	return e, nil
}

// Name identifies the engine and the techniques switched on.
func (e *Engine) Name() string {
	on := e.cfg.techniques()
	if len(on) == 0 {
		return e.name
	}
	return e.name + " (" + strings.Join(on, ",") + ")"
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
		return engines.Result{}, fmt.Errorf("%s: search after Close", e.name)
	}
	if err := e.s.setPosition(pos); err != nil {
		return engines.Result{}, fmt.Errorf("%s: %w", e.name, err)
	}
	return e.s.run(ctx, start, lim, info), nil
}
