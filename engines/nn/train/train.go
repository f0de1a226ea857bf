// Package train trains the thesis ValueNet (arena/engines/nn) in pure Go:
// forward and backward passes of every layer (3x3 and 1x1 convolutions,
// BatchNorm in training mode with running statistics, ReLU, linear, tanh),
// mean squared error, Adam, mini-batches over two or more goroutines, a
// validation split and the best checkpoint by validation loss; and the
// self-play reinforcement loop of the thesis (SelfPlay).
//
// Matrix products run in 8x32 tiles by the training micro-kernel of
// package gemm (AVX-512 or AVX2 assembly when the CPU has it, else portable
// Go; ARENA_GEMM forces one) directly on zero-bordered board
// activations, so a 3x3 convolution needs no im2col copy. Runs are
// reproducible: the same data, seed and worker count give the same weights.
package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"arena/engines"
	"arena/engines/nn"
	"arena/engines/nn/gemm"
	"arena/engines/nn/optim"
)

// CPScale is the centipawn scale of the supervised target tanh(cp /
// CPScale): lichess's winning-chances slope (engines.WinScale), the curve
// the value engines' ValueToCP inverts, so a trained net reports scores on
// Stockfish's scale. 300 cp maps to 0.50, 800 cp to 0.90.
const CPScale = 1 / engines.WinScale

// CPTarget is the training target of a Stockfish score from White's point
// of view: tanh(cp/CPScale), and exactly ±1 for a mate.
func CPTarget(cp int, mate bool) float32 {
	if mate {
		if cp > 0 {
			return 1
		}
		return -1
	}
	return float32(math.Tanh(float64(cp) / CPScale))
}

// Sample is one training position: its pieces and the target value from
// White's point of view in [-1, 1].
type Sample struct {
	Board  nn.Placement
	Target float32
}

// Config controls Fit.
type Config struct {
	Epochs int     // passes over the training split (default 10)
	Batch  int     // positions per step, a multiple of 8 (default 256)
	LR     float64 // Adam learning rate (default 1e-3)
	// Cosine anneals the learning rate from LR to 0 over the run, step by
	// step (lr * (1 + cos(pi * step / steps)) / 2); otherwise it is constant.
	Cosine      bool
	ValFraction float64 // share of the samples held out for validation (default 0.1)
	Seed        uint64  // initial weights, the split and the batch order
	Workers     int     // goroutines per step (default GOMAXPROCS)
	Init        *Model  // start from these weights instead of a fresh model
	Progress    io.Writer
}

func (c Config) withDefaults() Config {
	if c.Epochs == 0 {
		c.Epochs = 10
	}
	if c.Batch == 0 {
		c.Batch = 256
	}
	if c.LR == 0 {
		c.LR = 1e-3
	}
	if c.ValFraction == 0 {
		c.ValFraction = 0.1
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Epochs < 1:
		return fmt.Errorf("epochs is %d, expected >= 1", c.Epochs)
	case c.Batch < 8 || c.Batch%8 != 0:
		return fmt.Errorf("batch is %d, expected a positive multiple of 8", c.Batch)
	case c.LR <= 0 || c.LR > 1:
		return fmt.Errorf("learning rate is %v, expected in (0, 1]", c.LR)
	case c.ValFraction <= 0 || c.ValFraction >= 1:
		return fmt.Errorf("validation fraction is %v, expected in (0, 1)", c.ValFraction)
	case c.Workers < 1:
		return fmt.Errorf("workers is %d, expected >= 1", c.Workers)
	}
	return nil
}

// Epoch is the record of one pass.
type Epoch struct {
	Epoch     int
	TrainLoss float64 // mean over the epoch's batches (training-mode BatchNorm)
	ValLoss   float64 // over the validation split (running statistics, as PyTorch's eval mode)
	Samples   int
	Elapsed   time.Duration
}

// Result is what Fit returns.
type Result struct {
	Best      *Model // the weights of the epoch with the lowest validation loss
	BestEpoch int
	BestVal   float64
	Epochs    []Epoch
	Train     int // samples in the training split
	Val       int
	Elapsed   time.Duration
}

// Fit trains on samples: Epochs passes of shuffled mini-batches (the last
// incomplete batch of an epoch is dropped; the shuffle changes every epoch),
// evaluating the validation split after each. Cancelling ctx stops after
// the current batch and returns the best model so far with ctx's error.
func Fit(ctx context.Context, samples []Sample, cfg Config) (Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x747261696e))
	order := rng.Perm(len(samples))
	nVal := int(math.Round(float64(len(samples)) * cfg.ValFraction))
	val, trainIdx := order[:nVal], order[nVal:]
	if nVal == 0 || len(trainIdx) < cfg.Batch {
		return Result{}, fmt.Errorf("%d samples: too few for a validation split of %v and one batch of %d", len(samples), cfg.ValFraction, cfg.Batch)
	}
	m := cfg.Init
	if m == nil {
		m = NewModel(cfg.Seed)
	} else {
		m = m.Clone()
	}
	res := Result{BestVal: math.Inf(1), Train: len(trainIdx), Val: nVal}
	start := time.Now()
	k, err := gemm.Default()
	if err != nil {
		return Result{}, err
	}
	ws := newWorkspace(cfg.Batch, cfg.Workers, k)
	opt := optim.NewAdam(len(m.params), cfg.LR)
	boards := make([]nn.Placement, cfg.Batch)
	targets := make([]float32, cfg.Batch)
	for ep := 1; ep <= cfg.Epochs; ep++ {
		t0 := time.Now()
		rng.Shuffle(len(trainIdx), func(i, j int) { trainIdx[i], trainIdx[j] = trainIdx[j], trainIdx[i] })
		var sum float64
		steps := len(trainIdx) / cfg.Batch
		for s := range steps {
			if cfg.Cosine {
				done := float64((ep-1)*steps+s) / float64(cfg.Epochs*steps)
				opt.LR = cfg.LR * (1 + math.Cos(math.Pi*done)) / 2
			}
			if err := ctx.Err(); err != nil {
				res.Elapsed = time.Since(start)
				if res.Best == nil {
					res.Best = m
				}
				return res, err
			}
			for i, idx := range trainIdx[s*cfg.Batch : (s+1)*cfg.Batch] {
				boards[i], targets[i] = samples[idx].Board, samples[idx].Target
			}
			sum += ws.step(m, opt, boards, targets)
		}
		e := Epoch{Epoch: ep, TrainLoss: sum / float64(steps), ValLoss: ws.meanLoss(m, samples, val), Samples: steps * cfg.Batch, Elapsed: time.Since(t0)}
		res.Epochs = append(res.Epochs, e)
		best := ""
		if e.ValLoss < res.BestVal {
			res.Best, res.BestVal, res.BestEpoch = m.Clone(), e.ValLoss, ep
			best = " (best)"
		}
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "epoch %d/%d: train loss %.5f, val loss %.5f%s, %.0f samples/s, %s\n",
				ep, cfg.Epochs, e.TrainLoss, e.ValLoss, best, float64(e.Samples)/e.Elapsed.Seconds(), e.Elapsed.Round(time.Second))
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// step trains on one batch and returns its loss (before the update).
func (ws *workspace) step(m *Model, opt *optim.Adam, boards []nn.Placement, targets []float32) float64 {
	ws.load(boards)
	ws.forward(m, true)
	loss := ws.loss(targets)
	ws.backward(m)
	opt.Update(m.params, ws.grads, ws.parallel)
	return loss
}

// Loss is the mean squared error of m (BatchNorm with running statistics)
// on samples[idx...] (all samples when idx is nil). The error is a bad
// ARENA_GEMM.
func Loss(m *Model, samples []Sample, idx []int) (float64, error) {
	k, err := gemm.Default()
	if err != nil {
		return 0, err
	}
	return newWorkspace(256, runtime.GOMAXPROCS(0), k).meanLoss(m, samples, idx), nil
}

// meanLoss is Loss in ws.
func (ws *workspace) meanLoss(m *Model, samples []Sample, idx []int) float64 {
	if idx == nil {
		idx = make([]int, len(samples))
		for i := range idx {
			idx[i] = i
		}
	}
	if len(idx) == 0 {
		return math.NaN()
	}
	boards := make([]nn.Placement, ws.batch)
	var sum float64
	for i := 0; i < len(idx); i += ws.batch {
		n := min(ws.batch, len(idx)-i)
		for j := range ws.batch {
			boards[j] = samples[idx[i+min(j, n-1)]].Board
		}
		ws.load(boards)
		ws.forward(m, false)
		for j := range n {
			d := float64(ws.v[j]) - float64(samples[idx[i+j]].Target)
			sum += d * d
		}
	}
	return sum / float64(len(idx))
}
