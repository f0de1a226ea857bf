package giraffe

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// TDLeafConfig is a TD-Leaf(λ) self-play run, the seed's training after
// the supervised start: each iteration takes Batch start positions (a
// position of the data with one random legal move played), plays Moves
// moves of self-play from each with the giraffe engine at Nodes nodes a
// move, and moves the net's value of the leaf of the start position's
// principal variation by Σ λ^m (v(m+1) - v(m)), the λ-weighted changes of
// the search's value over the game (an MSE target, one Adam step an
// iteration). Values are White's expected result on the tanh scale; a game
// that ends keeps its result as the value of the remaining moves.
type TDLeafConfig struct {
	Starts     []string   // FENs of start positions
	Model      *mlp.Model // trained in place
	Iterations int
	Batch      int     // start positions per iteration (Giraffe: 256)
	Moves      int     // self-play moves from each (Giraffe: 12)
	Lambda     float64 // Giraffe: 0.7
	Nodes      int     // search budget a move
	LR         float64
	Seed       uint64
	Workers    int
	Progress   io.Writer // a line per iteration; nil: none
}

// TDLeafResult sums up a run.
type TDLeafResult struct {
	Iterations int     // completed
	MeanError  float64 // mean |Σ λ^m d_m| of the last iteration
	Elapsed    time.Duration
}

// TDLeaf runs cfg; an interrupted run (ctx) keeps the iterations done.
func TDLeaf(ctx context.Context, cfg TDLeafConfig) (TDLeafResult, error) {
	start := time.Now()
	if len(cfg.Starts) == 0 || cfg.Batch <= 0 || cfg.Moves <= 0 || cfg.Nodes <= 0 || cfg.LR <= 0 || cfg.Lambda < 0 || cfg.Lambda > 1 {
		return TDLeafResult{}, fmt.Errorf("td-leaf: start positions, batch, moves, nodes and lr must be positive and lambda in [0, 1]")
	}
	workers := max(cfg.Workers, 1)
	tape, err := cfg.Model.NewTape(cfg.Batch, workers)
	if err != nil {
		return TDLeafResult{}, err
	}
	opt := optim.NewAdam(len(cfg.Model.Params), cfg.LR)
	grad := make([]float32, len(cfg.Model.Params))
	leaves := make([]float32, cfg.Batch*NumFeatures)
	errs := make([]float32, cfg.Batch)
	target, dOut := make([]float32, cfg.Batch), make([]float32, cfg.Batch)
	var res TDLeafResult
	for it := 0; it < cfg.Iterations && ctx.Err() == nil; it++ {
		net, err := cfg.Model.Compile()
		if err != nil {
			return res, err
		}
		if err := playBatch(ctx, cfg, net, it, leaves, errs); err != nil {
			return res, err
		}
		if ctx.Err() != nil {
			break
		}
		out := tape.Forward(leaves, cfg.Batch)
		var sumErr float64
		for i := range target {
			target[i] = out[i] + errs[i]
			sumErr += math.Abs(float64(errs[i]))
		}
		mlp.MSE(out[:cfg.Batch], target, dOut)
		clear(grad)
		tape.Backward(dOut, grad, nil)
		opt.Update(cfg.Model.Params, grad, tape.Parallel)
		res.Iterations, res.MeanError = it+1, sumErr/float64(cfg.Batch)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "iteration %d: mean |TD error| %.4f (%s)\n", it+1, res.MeanError, time.Since(start).Round(time.Second))
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// playBatch plays the iteration's games, Workers at a time, each worker
// with its own engine over net, and writes each start position's leaf
// features and TD error. Game i depends only on the seed, the iteration
// and i, never on the worker that played it.
func playBatch(ctx context.Context, cfg TDLeafConfig, net *mlp.Net, it int, leaves, errs []float32) error {
	spec, err := engines.Lookup(Name)
	if err != nil {
		return err
	}
	// A small table kept between the moves of a game, cleared between games.
	opts, err := spec.Resolve(map[string]string{"hash": "1"})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errc := make(chan error, max(cfg.Workers, 1))
	next := make(chan int, cfg.Batch)
	for i := range cfg.Batch {
		next <- i
	}
	close(next)
	for range max(cfg.Workers, 1) {
		ev := newEvaluator(net)
		eng, err := heuristic.NewWithEvaluator(Name, opts, ev)
		if err != nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer eng.Close()
			var x Extractor
			for i := range next {
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(it)<<32|uint64(i)))
				e, err := playGame(ctx, cfg, eng, cfg.Starts[rng.IntN(len(cfg.Starts))], rng, &x, leaves[i*NumFeatures:(i+1)*NumFeatures])
				if err != nil {
					errc <- err
					return
				}
				errs[i] = e
			}
		}()
	}
	wg.Wait()
	close(errc)
	return <-errc
}

// playGame plays one self-play game from fen after a random move, writes
// the features of the first search's PV leaf into leaf and returns the
// start position's TD error.
func playGame(ctx context.Context, cfg TDLeafConfig, eng *heuristic.Engine, fen string, rng *rand.Rand, x *Extractor, leaf []float32) (float32, error) {
	p, err := board.ParseFEN(fen)
	if err != nil {
		return 0, fmt.Errorf("td-leaf: start position %q: %w", fen, err)
	}
	var ml board.MoveList
	if p.GenerateLegal(&ml); ml.Len > 0 {
		p.MakeMove(ml.Moves[rng.IntN(ml.Len)])
	}
	eng.NewGame()
	values := make([]float64, 0, cfg.Moves+1)
	for m := 0; m <= cfg.Moves; m++ {
		if v, over := terminalValue(p); over {
			if m == 0 {
				x.Features(p, leaf)
			}
			for len(values) <= cfg.Moves {
				values = append(values, v)
			}
			break
		}
		res, err := eng.Search(ctx, engines.Position{FEN: p.FEN()}, engines.Limits{Nodes: int64(cfg.Nodes)}, nil)
		if err != nil {
			return 0, err
		}
		values = append(values, whiteValue(p, res.Score))
		if m == 0 {
			writeLeaf(p, res.PV, x, leaf)
		}
		mv, err := p.ParseMove(res.Move)
		if err != nil {
			return 0, fmt.Errorf("td-leaf: engine move %q in %s: %w", res.Move, p.FEN(), err)
		}
		p.MakeMove(mv)
	}
	return float32(tdError(values, cfg.Lambda)), nil
}

// tdError is Σ_m λ^m (v(m+1) - v(m)) over the game's values from the start
// position on: the seed's update rule, whose λ^(j-t) weighs the first
// change by 1 (its worked example weighs it by λ, so its 3.92 is λ times
// this error).
func tdError(values []float64, lambda float64) float64 {
	e, w := 0.0, 1.0
	for m := 0; m+1 < len(values); m++ {
		e += w * (values[m+1] - values[m])
		w *= lambda
	}
	return e
}

// terminalValue is White's result when the game is over in p.
func terminalValue(p *board.Position) (float64, bool) {
	switch st := p.Status(); {
	case st == board.Checkmate && p.SideToMove() == board.White:
		return -1, true
	case st == board.Checkmate:
		return 1, true
	case st != board.Ongoing:
		return 0, true
	}
	return 0, false
}

// whiteValue converts a search score for the side to move in p to White's
// value on the tanh scale (a mate is ±1).
func whiteValue(p *board.Position, s engines.Score) float64 {
	v := math.Tanh(float64(s.CP) / cpScale)
	switch {
	case s.Mate > 0:
		v = 1
	case s.Mate < 0:
		v = -1
	}
	if p.SideToMove() == board.Black {
		return -v
	}
	return v
}

// writeLeaf writes the features of the position at the end of pv, played
// from p (p is left as it was).
func writeLeaf(p *board.Position, pv []string, x *Extractor, leaf []float32) {
	made := 0
	for _, s := range pv {
		m, err := p.ParseMove(s)
		if err != nil {
			break
		}
		p.MakeMove(m)
		made++
	}
	x.Features(p, leaf)
	for ; made > 0; made-- {
		p.UnmakeMove()
	}
}
