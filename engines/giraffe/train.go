package giraffe

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/nn/dataset"
	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// cpScale is the centipawn scale of the training target tanh(cp/cpScale):
// engines.WinScale, the inverse of nnengine.ValueToCP, so that the engine
// reads a trained value back as the centipawns it was trained on (the
// ValueNet trainer's scale too).
const cpScale = 1 / engines.WinScale

// TrainConfig is a supervised training run on Stockfish-labelled positions.
type TrainConfig struct {
	Records     []dataset.Record // labelled positions
	Init        *mlp.Model       // start from these weights (nil: fresh, from Seed)
	Epochs      int
	Batch       int
	LR          float64
	ValFraction float64 // share of the positions held out for validation
	Seed        uint64
	Workers     int
	// Mirror also trains on every training position with the colours
	// swapped (ranks flipped, score negated): twice the data, and the net
	// sees Black's pieces on the squares where only White's appeared.
	// Validation uses the original positions only.
	Mirror   bool
	Progress io.Writer // per-epoch lines; nil: none
}

// TrainResult is the model of the epoch with the lowest validation loss.
type TrainResult struct {
	Model              *mlp.Model
	Train, Val         int     // positions
	BestEpoch          int     // 1-based
	TrainLoss, ValLoss float64 // MSE on the tanh scale, of the best epoch
	Elapsed            time.Duration
}

// Train fits the net to the positions' Stockfish scores by Adam on the mean
// squared error between the net's output and tanh(cp/cpScale) (mates are
// ±1), and returns the epoch with the lowest validation loss. The run is
// a function of the data, the seed and the worker count. It stops early,
// with the best epoch so far, when ctx is cancelled.
func Train(ctx context.Context, cfg TrainConfig) (TrainResult, error) {
	start := time.Now()
	if cfg.Batch <= 0 || cfg.Epochs <= 0 || cfg.LR <= 0 || cfg.ValFraction <= 0 || cfg.ValFraction >= 1 {
		return TrainResult{}, fmt.Errorf("train giraffe: batch, epochs and lr must be positive and val in (0, 1)")
	}
	recs := cfg.Records
	if cfg.Mirror {
		recs = append(recs[:len(recs):len(recs)], mirrorRecords(recs)...)
	}
	in, target, err := encode(recs)
	if err != nil {
		return TrainResult{}, err
	}
	n := len(cfg.Records)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x67697261))
	perm := rng.Perm(n)
	nVal := int(float64(n) * cfg.ValFraction)
	if nVal < 1 || n-nVal < cfg.Batch {
		return TrainResult{}, fmt.Errorf("train giraffe: %d positions, too few for a batch of %d and a validation share of %v", n, cfg.Batch, cfg.ValFraction)
	}
	valIdx, trainIdx := perm[:nVal], perm[nVal:]
	if cfg.Mirror {
		// Record i+n is the mirror of record i: it trains with its original.
		for _, i := range perm[nVal:] {
			trainIdx = append(trainIdx, i+n)
		}
	}
	m := cfg.Init
	if m == nil {
		if m, err = mlp.New(Arch, cfg.Seed); err != nil {
			return TrainResult{}, err
		}
	} else if !m.Arch.Equal(&Arch) {
		return TrainResult{}, fmt.Errorf("train giraffe: initial net has architecture %s, expected %s", &m.Arch, &Arch)
	}
	tape, err := m.NewTape(cfg.Batch, max(cfg.Workers, 1))
	if err != nil {
		return TrainResult{}, err
	}
	t := trainer{m: m, tape: tape, in: in, target: target, batch: cfg.Batch,
		opt: optim.NewAdam(len(m.Params), cfg.LR), grad: make([]float32, len(m.Params))}
	res := TrainResult{Train: len(trainIdx), Val: nVal, ValLoss: math.Inf(1)}
	for epoch := 1; epoch <= cfg.Epochs && ctx.Err() == nil; epoch++ {
		rng.Shuffle(len(trainIdx), func(i, j int) { trainIdx[i], trainIdx[j] = trainIdx[j], trainIdx[i] })
		trainLoss := t.epoch(ctx, trainIdx)
		if ctx.Err() != nil {
			break
		}
		valLoss := t.loss(valIdx)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "epoch %d: train MSE %.5f, validation MSE %.5f (%s)\n", epoch, trainLoss, valLoss, time.Since(start).Round(time.Second))
		}
		if valLoss < res.ValLoss {
			res.Model, res.BestEpoch, res.TrainLoss, res.ValLoss = m.Clone(), epoch, trainLoss, valLoss
		}
	}
	res.Elapsed = time.Since(start)
	if res.Model == nil {
		return res, ctx.Err()
	}
	return res, nil
}

// encode computes every position's features and target.
func encode(recs []dataset.Record) (in, target []float32, err error) {
	in = make([]float32, len(recs)*NumFeatures)
	target = make([]float32, len(recs))
	var x Extractor
	for i, r := range recs {
		p, err := board.ParseFEN(r.FEN)
		if err != nil {
			return nil, nil, fmt.Errorf("train giraffe: position %d: %w", i+1, err)
		}
		x.Features(p, in[i*NumFeatures:])
		target[i] = Target(r)
	}
	return in, target, nil
}

// mirrorRecords returns recs with the colours swapped: the board flipped
// top to bottom, White's pieces Black's and the other way round, the side
// to move, castling rights and en passant square swapped to match, and the
// scores and result negated.
func mirrorRecords(recs []dataset.Record) []dataset.Record {
	out := make([]dataset.Record, len(recs))
	for i, r := range recs {
		m := dataset.Record{FEN: MirrorFEN(r.FEN), CP: -r.CP, Mate: -r.Mate, HasMate: r.HasMate, Result: r.Result}
		if r.Result >= 0 {
			m.Result = 1 - r.Result
		}
		out[i] = m
	}
	return out
}

// MirrorFEN swaps the colours of a FEN position (see mirrorRecords). A
// malformed FEN comes back malformed, for the parser to report.
func MirrorFEN(fen string) string {
	f := strings.Fields(fen)
	if len(f) < 4 {
		return fen
	}
	ranks := strings.Split(f[0], "/")
	slices.Reverse(ranks)
	f[0] = swapCase(strings.Join(ranks, "/"))
	f[1] = map[string]string{"w": "b", "b": "w"}[f[1]]
	if f[2] != "-" {
		var c []byte
		swapped := swapCase(f[2])
		for _, r := range "KQkq" {
			if strings.ContainsRune(swapped, r) {
				c = append(c, byte(r))
			}
		}
		f[2] = string(c)
	}
	if len(f[3]) == 2 {
		f[3] = f[3][:1] + string('1'+'8'-rune(f[3][1]))
	}
	return strings.Join(f, " ")
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// Target is the training target of a labelled position: White's expected
// result tanh(cp/cpScale), ±1 for a forced mate.
func Target(r dataset.Record) float32 {
	if r.HasMate {
		if r.CP > 0 {
			return 1
		}
		return -1
	}
	return float32(math.Tanh(float64(r.CP) / cpScale))
}

// trainer holds one run's state.
type trainer struct {
	m          *mlp.Model
	tape       *mlp.Tape
	opt        *optim.Adam
	grad       []float32
	in, target []float32
	batch      int
	bin, bt    []float32 // the batch's inputs and targets
}

// gather copies the rows idx into the batch buffers.
func (t *trainer) gather(idx []int) (in, target []float32) {
	t.bin, t.bt = t.bin[:0], t.bt[:0]
	for _, i := range idx {
		t.bin = append(t.bin, t.in[i*NumFeatures:(i+1)*NumFeatures]...)
		t.bt = append(t.bt, t.target[i])
	}
	return t.bin, t.bt
}

// epoch runs one pass of Adam steps over idx (a last partial batch is
// dropped) and returns the mean training loss.
func (t *trainer) epoch(ctx context.Context, idx []int) float64 {
	dOut := make([]float32, t.batch)
	var sum float64
	steps := 0
	for lo := 0; lo+t.batch <= len(idx) && ctx.Err() == nil; lo += t.batch {
		in, target := t.gather(idx[lo : lo+t.batch])
		out := t.tape.Forward(in, t.batch)
		sum += mlp.MSE(out, target, dOut)
		clear(t.grad)
		t.tape.Backward(dOut, t.grad, nil)
		t.opt.Update(t.m.Params, t.grad, t.tape.Parallel)
		steps++
	}
	return sum / float64(max(steps, 1))
}

// loss is the mean squared error over idx, evaluated in batches.
func (t *trainer) loss(idx []int) float64 {
	var sum float64
	for lo := 0; lo < len(idx); lo += t.batch {
		hi := min(lo+t.batch, len(idx))
		in, target := t.gather(idx[lo:hi])
		out := t.tape.Forward(in, hi-lo)
		for i, o := range out[:hi-lo] {
			d := float64(o - target[i])
			sum += d * d
		}
	}
	return sum / float64(len(idx))
}
