// Package book generates balanced opening books: positions a few random
// plies from the start, kept when Stockfish (the tracker's judge) finds them
// within a given evaluation of equality, written as EPD for `openings:` in
// an arena config.
package book

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/notnil/chess"

	"arena/tracker"
)

// Defaults of Config's optional fields.
const (
	DefaultPlies     = 8
	DefaultMaxEval   = 50
	DefaultDepth     = 10
	DefaultPickDepth = 6
	DefaultMargin    = 25
	DefaultStockfish = "stockfish"
	// DefaultTriesPerPosition bounds the walks: Count × this many.
	DefaultTriesPerPosition = 50
)

// Config says what to generate.
type Config struct {
	Count   int   // positions wanted (≥ 1)
	Plies   int   // plies from the start position (≥ 1)
	MaxEval int   // keep positions whose evaluation is within ±MaxEval centipawns
	Depth   int   // Stockfish search depth of every evaluation
	Seed    int64 // seed of the random choices: same seed, same Stockfish, same book
	// Uniform picks every ply uniformly among the legal moves. Otherwise a
	// ply is picked uniformly among the sensible moves: those whose
	// resulting position Stockfish scores within Margin centipawns of the
	// best move's at PickDepth (so the book's lines look like openings,
	// not random walks that mostly hang material). PickDepth is lower than
	// Depth because every legal move of every ply is evaluated.
	Uniform   bool
	Margin    int
	PickDepth int
	// Stockfish is the judge's command (located like every UCI engine).
	Stockfish string
	// Workers is the number of Stockfish processes (a move's candidates
	// are evaluated in parallel).
	Workers int
	// MaxTries bounds the random walks (0: Count × DefaultTriesPerPosition).
	MaxTries int
}

// Position is one generated opening.
type Position struct {
	FEN   string   // full FEN
	Moves []string // the plies from the start position, in SAN
	Eval  int      // centipawns from the side to move (EPD "ce")
}

// Stats counts what happened to the random walks.
type Stats struct {
	Tried       int   // walks made
	Kept        int   // positions kept
	Duplicates  int   // walks that reached a position already seen
	Unbalanced  int   // positions outside ±MaxEval (or with a mate score)
	Ended       int   // walks that hit a position without legal moves
	Evaluations int64 // Stockfish searches (cached positions cost none)
	Stockfish   string
}

// Validate names every invalid field and what was expected.
func (c Config) Validate() error {
	var errs []error
	check := func(name string, v, lo, hi int) {
		if v < lo || v > hi {
			errs = append(errs, fmt.Errorf("%s %d: expected %d..%d", name, v, lo, hi))
		}
	}
	check("count", c.Count, 1, 1_000_000)
	check("plies", c.Plies, 1, 200)
	check("max-eval", c.MaxEval, 0, 10_000)
	check("depth", c.Depth, 1, 99)
	check("margin", c.Margin, 0, 10_000)
	if !c.Uniform {
		check("pick-depth", c.PickDepth, 1, 99)
	}
	check("workers", c.Workers, 1, 256)
	if c.MaxTries < 0 {
		errs = append(errs, fmt.Errorf("max tries %d: expected 0 (the default) or more", c.MaxTries))
	}
	return errors.Join(errs...)
}

// Generate makes cfg.Count distinct positions by random walks from the
// start position. Each walk plays cfg.Plies plies (see Config.Uniform);
// its final position is kept if it was not seen before, has a legal move and
// Stockfish evaluates it at cfg.Depth within ±cfg.MaxEval centipawns (no
// mate). progress, if not nil, is called after every walk. It returns the
// positions found so far and an error if cfg.MaxTries walks do not find
// enough.
func Generate(ctx context.Context, cfg Config, progress func(Stats)) ([]Position, Stats, error) {
	if err := cfg.Validate(); err != nil {
		return nil, Stats{}, err
	}
	if cfg.Stockfish == "" {
		cfg.Stockfish = DefaultStockfish
	}
	maxTries := cfg.MaxTries
	if maxTries == 0 {
		maxTries = cfg.Count * DefaultTriesPerPosition
	}
	judge, err := tracker.NewJudge(ctx, tracker.JudgeConfig{Command: cfg.Stockfish, Depth: cfg.Depth, Workers: cfg.Workers})
	if err != nil {
		return nil, Stats{}, err
	}
	defer judge.Close()
	g := &generator{cfg: cfg, rng: rand.New(rand.NewPCG(uint64(cfg.Seed), 0x626f6f6b))} // "book"
	if !cfg.Uniform {
		if g.picker, err = tracker.NewJudge(ctx, tracker.JudgeConfig{Command: cfg.Stockfish, Depth: cfg.PickDepth, Workers: cfg.Workers}); err != nil {
			return nil, Stats{}, err
		}
		defer g.picker.Close()
	}
	st := Stats{Stockfish: judge.Engine()}
	var out []Position
	seen := map[string]bool{}
	for len(out) < cfg.Count && st.Tried < maxTries {
		st.Tried++
		pos, moves, err := g.walk(ctx)
		switch {
		case err != nil:
			return out, st, err
		case pos == nil:
			st.Ended++
		case seen[tracker.PositionKey(pos)]:
			st.Duplicates++
		default:
			seen[tracker.PositionKey(pos)] = true
			ev, err := judge.Evaluate(ctx, pos.String())
			if err != nil {
				return out, st, err
			}
			if ev.IsMate || ev.CP < -cfg.MaxEval || ev.CP > cfg.MaxEval {
				st.Unbalanced++
				break
			}
			out = append(out, Position{FEN: pos.String(), Moves: moves, Eval: ev.CP})
			st.Kept++
		}
		st.Evaluations = judge.Evaluations()
		if g.picker != nil {
			st.Evaluations += g.picker.Evaluations()
		}
		if progress != nil {
			progress(st)
		}
	}
	if len(out) < cfg.Count {
		return out, st, fmt.Errorf("only %d of %d positions within ±%d cp after %d walks (%d duplicates, %d unbalanced, %d ended); "+
			"allow more with a larger max-eval or more plies", len(out), cfg.Count, cfg.MaxEval, st.Tried, st.Duplicates, st.Unbalanced, st.Ended)
	}
	return out, st, nil
}

type generator struct {
	cfg    Config
	picker *tracker.Judge // at PickDepth; nil with Uniform
	rng    *rand.Rand
}

// walk plays cfg.Plies plies from the start position and returns the final
// position and the moves in SAN; a nil position when a position on the way
// (or the last one) has no legal move.
func (g *generator) walk(ctx context.Context) (*chess.Position, []string, error) {
	pos := chess.StartingPosition()
	var sans []string
	for range g.cfg.Plies {
		moves := pos.ValidMoves()
		if len(moves) == 0 {
			return nil, nil, nil
		}
		candidates := moves
		if !g.cfg.Uniform {
			var err error
			if candidates, err = g.sensible(ctx, pos, moves); err != nil {
				return nil, nil, err
			}
		}
		m := candidates[g.rng.IntN(len(candidates))]
		sans = append(sans, chess.AlgebraicNotation{}.Encode(pos, m))
		pos = pos.Update(m)
	}
	if len(pos.ValidMoves()) == 0 {
		return nil, nil, nil
	}
	return pos, sans, nil
}

// sensible returns the moves whose resulting positions Stockfish scores
// within cfg.Margin of the best at cfg.PickDepth, in the order of moves. The
// positions are evaluated in parallel (the judge spreads them over its
// workers and caches them, so the first plies of later walks cost nothing).
func (g *generator) sensible(ctx context.Context, pos *chess.Position, moves []*chess.Move) ([]*chess.Move, error) {
	scores := make([]int, len(moves))
	errs := make([]error, len(moves))
	var wg sync.WaitGroup
	sem := make(chan struct{}, g.cfg.Workers)
	for i, m := range moves {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			ev, err := g.picker.Evaluate(ctx, pos.Update(m).String())
			// The child is scored from the opponent's side.
			scores[i], errs[i] = -ev.Score(g.picker.Scoring().MateScore), err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	best := scores[0]
	for _, s := range scores {
		best = max(best, s)
	}
	var out []*chess.Move
	for i, m := range moves {
		if scores[i] >= best-g.cfg.Margin {
			out = append(out, m)
		}
	}
	return out, nil
}

// WriteEPD writes the positions as EPD lines (the four position fields, then
// the opcodes id, ce — the evaluation from the side to move — acd — the
// search depth — and c0, the moves from the start position) and nothing
// else: fastchess and cutechess-cli take every line of a book for a
// position and reject a "#" comment line. The provenance goes to the
// book's side file (Provenance).
func WriteEPD(w io.Writer, positions []Position, depth int) error {
	var b strings.Builder
	width := len(fmt.Sprint(len(positions)))
	for i, p := range positions {
		fields := strings.Fields(p.FEN)
		fmt.Fprintf(&b, "%s id \"book %0*d\"; ce %d; acd %d; c0 \"%s\";\n",
			strings.Join(fields[:4], " "), width, i+1, p.Eval, depth, numbered(p.Moves))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Provenance is the text of a book's side file (openings.SideFile): each
// line of the comments as a "#" line, as books carried them on top before
// they moved beside it.
func Provenance(comments ...string) string {
	var b strings.Builder
	for _, c := range comments {
		for line := range strings.Lines(c) {
			b.WriteString("# " + strings.TrimRight(line, "\n") + "\n")
		}
	}
	return b.String()
}

// numbered writes SAN moves from the start position with move numbers:
// "1. e4 e5 2. Nf3".
func numbered(sans []string) string {
	var parts []string
	for i, s := range sans {
		if i%2 == 0 {
			parts = append(parts, fmt.Sprintf("%d.", i/2+1))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
