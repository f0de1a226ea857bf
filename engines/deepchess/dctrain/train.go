package dctrain

import (
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"arena/engines/deepchess"
	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// Config is a training run: the shapes, the layer-wise autoencoder
// pre-training of Pos2Vec and the training of the whole net on pairs.
type Config struct {
	Pos2Vec []int // hidden widths, e.g. 600, 400, 200, 100 (DeepChess)
	Head    []int // hidden widths before the 2 outputs, e.g. 400, 200, 100

	PretrainEpochs    int // per layer
	PretrainPositions int // positions sampled for the autoencoders
	PretrainLR        float64

	Epochs        int // pair epochs; pairs are drawn anew each epoch
	PairsPerEpoch int
	LR            float64
	LRDecay       float64 // the learning rate is multiplied by it after each epoch
	Batch         int
	Workers       int
	Seed          uint64
	HeldPairs     int // held-out pairs to measure (drawn once, from held-out games)

	Log io.Writer // progress lines; nil: none
	// Checkpoint, if set, receives the result after every pair epoch (so an
	// interrupted run keeps its last epoch).
	Checkpoint func(*Result) error

	// Init, if set, is the net training starts from instead of a fresh one,
	// and pre-training is skipped: e.g. the checkpoint of an interrupted run,
	// continued with FirstEpoch one past its last epoch. Its widths must be
	// Pos2Vec's and Head's.
	Init *deepchess.Models
	// FirstEpoch is the number of the first pair epoch (0 or 1: from the
	// start); the epochs before it count as done, and the learning rate
	// starts at LR * LRDecay^(FirstEpoch-1), as in an uninterrupted run. The
	// continued run draws other pairs and restarts Adam's moments, so it is
	// not the uninterrupted run bit for bit.
	FirstEpoch int
}

// Result is a trained net and its quality.
type Result struct {
	Net          *deepchess.Models
	HeldAccuracy float64 // on Config.HeldPairs pairs from held-out games
	HeldPairs    int
	TrainAcc     float64 // on the last epoch's pairs, while training
	Epochs       int     // pair epochs done
	Pretrain     time.Duration
	PairTraining time.Duration
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

// Train pre-trains Pos2Vec on the training positions, then trains it and the
// head on pairs (one position from a game White won, one from a game Black
// won, in random order; the head says which is White's).
func Train(d *Data, cfg Config) (*Result, error) {
	if d.Train.WhiteWon.Len() == 0 || d.Train.BlackWon.Len() == 0 {
		return nil, fmt.Errorf("training data has %d positions from games White won and %d from games Black won, need both",
			d.Train.WhiteWon.Len(), d.Train.BlackWon.Len())
	}
	if cfg.Batch < 1 || cfg.Workers < 1 {
		return nil, fmt.Errorf("batch %d and workers %d, expected both >= 1", cfg.Batch, cfg.Workers)
	}
	models, err := deepchess.NewModels(cfg.Pos2Vec, cfg.Head, cfg.Seed)
	if err != nil {
		return nil, err
	}
	first := max(cfg.FirstEpoch, 1)
	if first > cfg.Epochs {
		return nil, fmt.Errorf("first epoch %d is past the last, %d", first, cfg.Epochs)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xdc))
	if cfg.Init != nil {
		if err := sameShape(models, cfg.Init); err != nil {
			return nil, err
		}
		models = cfg.Init
		// Another stream of pairs than the first epochs'.
		rng = rand.New(rand.NewPCG(cfg.Seed, 0xdc+uint64(first)))
	}
	res := &Result{Net: models, Epochs: first - 1}
	t0 := time.Now()
	if cfg.Init == nil {
		if err := pretrain(models.Pos2Vec, &d.Train, &cfg, rng); err != nil {
			return nil, err
		}
	}
	res.Pretrain = time.Since(t0)
	t0 = time.Now()
	var held []Pair
	if d.Held.WhiteWon.Len() > 0 && d.Held.BlackWon.Len() > 0 {
		held = DrawPairs(&d.Held, cfg.HeldPairs, newRand(cfg.Seed))
	}
	tr, err := newPairTrainer(models, &cfg)
	if err != nil {
		return nil, err
	}
	for range first - 1 {
		tr.adamP.LR *= cfg.LRDecay
		tr.adamH.LR *= cfg.LRDecay
	}
	for epoch := first; epoch <= cfg.Epochs; epoch++ {
		pairs := DrawPairs(&d.Train, cfg.PairsPerEpoch, rng)
		loss, acc := tr.epoch(&d.Train, pairs)
		res.TrainAcc = acc
		line := fmt.Sprintf("epoch %d/%d: %d pairs, loss %.4f, train accuracy %.4f, lr %.2g", epoch, cfg.Epochs, len(pairs), loss, acc, tr.adamP.LR)
		if len(held) > 0 {
			res.HeldAccuracy, err = Accuracy(models, &d.Held, held)
			if err != nil {
				return nil, err
			}
			line += fmt.Sprintf(", held-out accuracy %.4f (%d pairs)", res.HeldAccuracy, len(held))
		}
		cfg.logf("%s, %v", line, time.Since(t0).Round(time.Second))
		res.HeldPairs, res.Epochs, res.PairTraining = len(held), epoch, time.Since(t0)
		if cfg.Checkpoint != nil {
			if err := cfg.Checkpoint(res); err != nil {
				return nil, err
			}
		}
		tr.adamP.LR *= cfg.LRDecay
		tr.adamH.LR *= cfg.LRDecay
	}
	return res, nil
}

// sameShape checks that net has the architecture of want (a fresh net of
// the configured widths).
func sameShape(want, net *deepchess.Models) error {
	for _, c := range []struct {
		name    string
		want, m *mlp.Model
	}{{"Pos2Vec", want.Pos2Vec, net.Pos2Vec}, {"head", want.Head, net.Head}} {
		if !c.want.Arch.Equal(&c.m.Arch) {
			return fmt.Errorf("initial net's %s is %s, the configured one %s", c.name, widths(c.m), widths(c.want))
		}
	}
	return nil
}

func widths(m *mlp.Model) string {
	s := fmt.Sprint(m.Arch.Inputs)
	for _, l := range m.Layers() {
		s += fmt.Sprintf("-%d", l.Out)
	}
	return s
}

// Pair is one training example: position A from WhiteWon and B from
// BlackWon; Swap puts B first. The label is 0 when the first position is
// the one from the game White won.
type Pair struct {
	A, B int32
	Swap bool
}

// DrawPairs draws n pairs from s, uniformly over both sets and both orders.
func DrawPairs(s *Split, n int, rng *rand.Rand) []Pair {
	pairs := make([]Pair, n)
	for i := range pairs {
		pairs[i] = Pair{A: int32(rng.IntN(s.WhiteWon.Len())), B: int32(rng.IntN(s.BlackWon.Len())), Swap: rng.IntN(2) == 1}
	}
	return pairs
}

// Accuracy is the share of pairs whose White-won position the net picks.
func Accuracy(m *deepchess.Models, s *Split, pairs []Pair) (float64, error) {
	net, err := m.Compile()
	if err != nil {
		return 0, err
	}
	ev := net.NewEvaluator()
	a, b := make([]float32, net.Dim()), make([]float32, net.Dim())
	var buf [40]int32
	right := 0
	for _, p := range pairs {
		ev.Embed(widen(s.WhiteWon.At(int(p.A)), buf[:0]), a)
		ev.Embed(widen(s.BlackWon.At(int(p.B)), buf[:0]), b)
		first := ev.Compare(a, b)
		if p.Swap {
			first = ev.Compare(b, a)
			if first < 0.5 {
				right++
			}
		} else if first > 0.5 {
			right++
		}
	}
	return float64(right) / float64(max(len(pairs), 1)), nil
}

// newRand is the source of the held-out pairs of a run with this seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x4e1d)) }

func widen(idx []int16, dst []int32) []int32 {
	for _, i := range idx {
		dst = append(dst, int32(i))
	}
	return dst
}

// adamStep applies one Adam step of grad to m over the tape's workers.
func adamStep(a *optim.Adam, m *mlp.Model, grad []float32, t *mlp.Tape) {
	a.Update(m.Params, grad, t.Parallel)
	clear(grad)
}
