// Package nnuetrain trains the NNUE of the nnue engine in pure Go and
// writes it in the net file format of docs/nnue.md: 768 piece-square
// inputs per perspective -> Hidden x 2 -> 1, SCReLU or clipped ReLU.
//
// The first layer is sparse: a position has at most 32 active inputs of
// 768, so forward and backward touch only those rows of the feature
// weights (about 60 rows of Hidden floats per position, against a dense
// 768 x Hidden product), which is what makes a CPU trainer fast enough.
// The loss is the WDL-blended sigmoid loss of bullet and marlinflow:
// (sigmoid(out) - target)^2 with target = lambda*result + (1-lambda)*
// sigmoid(score/scale), from the side to move's view; AdamW with a cosine
// learning-rate schedule; weights clipped to ±1.98 after every step.
//
// Training is bit-reproducible and resumable bit for bit. A batch is cut
// into a fixed number of shards (Shards, not the number of threads), each
// with its own gradient buffer, and the buffers are summed in shard order,
// so the sum does not depend on which thread ran which shard or on how
// many threads there are. Epoch e's order is a shuffle seeded by (Seed, e)
// and the learning rate is a function of the step, so a checkpoint (the
// parameters, Adam's moments and step, the epoch) is the whole state: a
// resumed run takes the same steps as an uninterrupted one.
package nnuetrain

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"time"

	"arena/engines/nn/optim"
	"arena/engines/nnue"
	"arena/internal/atomicfile"
)

// Shards is the number of parts a batch is cut into, each summing its
// gradient in its own buffer.
const Shards = 8

// Config describes a training run.
type Config struct {
	Hidden      int
	Activation  nnue.Activation
	Scale       float64 // centipawns per unit of the output (the file's scale) and the targets' sigmoid scale
	Lambda      float64 // weight of the game result in the target
	Epochs      int
	Batch       int
	LR          float64 // peak learning rate, decayed by a cosine to LR*LRFinal
	LRFinal     float64
	WeightDecay float64
	Seed        uint64
	Threads     int
	// Mirror adds every training position with its files mirrored (a-h):
	// the same value but for castling rights, which the inputs ignore.
	Mirror bool
	// StopAfter ends the run after this many epochs in all (0: Epochs),
	// with the checkpoint to resume from: training in sessions.
	StopAfter int

	Checkpoint string // written after every epoch ("" none)
	Resume     bool   // start from Checkpoint
	Progress   io.Writer
}

// Defaults fills zero fields.
func (c Config) Defaults() Config {
	if c.Hidden == 0 {
		c.Hidden = 256
	}
	if c.Activation == 0 {
		c.Activation = nnue.SCReLU
	}
	if c.Scale == 0 {
		c.Scale = 400
	}
	if c.Epochs == 0 {
		c.Epochs = 10
	}
	if c.Batch == 0 {
		c.Batch = 16384
	}
	if c.LR == 0 {
		c.LR = 0.001
	}
	if c.Threads == 0 {
		c.Threads = runtime.GOMAXPROCS(0)
	}
	return c
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.Scale <= 0:
		return fmt.Errorf("scale %v: expected > 0", c.Scale)
	case c.Lambda < 0 || c.Lambda > 1:
		return fmt.Errorf("lambda %v: expected 0..1", c.Lambda)
	case c.Epochs < 1:
		return fmt.Errorf("epochs %d: expected >= 1", c.Epochs)
	case c.Batch < Shards:
		return fmt.Errorf("batch %d: expected >= %d", c.Batch, Shards)
	case c.LR <= 0 || c.LRFinal < 0 || c.LRFinal > 1:
		return fmt.Errorf("learning rate %v, final fraction %v: expected lr > 0, final 0..1", c.LR, c.LRFinal)
	case c.WeightDecay < 0:
		return fmt.Errorf("weight decay %v: expected >= 0", c.WeightDecay)
	case c.Threads < 1:
		return fmt.Errorf("threads %d: expected >= 1", c.Threads)
	case c.Resume && c.Checkpoint == "":
		return errors.New("resume needs a checkpoint file")
	}
	return nil
}

// fingerprint is what a checkpoint must share with the run resuming it.
func (c Config) fingerprint(train, val *Data) string {
	return fmt.Sprintf("hidden %d, activation %d, scale %v, lambda %v, epochs %d, batch %d, lr %v, final %v, wd %v, mirror %v, seed %d, data %016x/%d, validation %016x/%d",
		c.Hidden, c.Activation, c.Scale, c.Lambda, c.Epochs, c.Batch, c.LR, c.LRFinal, c.WeightDecay, c.Mirror, c.Seed,
		train.checksum(), train.Len(), val.checksum(), val.Len())
}

// checksum identifies a data set's contents.
func (d *Data) checksum() uint64 {
	h := fnv.New64a()
	var b [2]byte
	for _, f := range d.Feats {
		b[0], b[1] = byte(f), byte(f>>8)
		h.Write(b[:])
	}
	for i := range d.STM {
		b[0], b[1] = byte(d.Score[i]), byte(d.Score[i]>>8)
		h.Write(b[:])
		h.Write([]byte{d.STM[i], d.Result[i], byte(d.Off[i+1] - d.Off[i])})
	}
	return h.Sum64()
}

// Split cuts d into training and validation sets, the validation set being
// the last frac of the positions: whole games at the end of a self-play
// file, so that positions of one game are rarely on both sides.
func (d *Data) Split(frac float64) (train, val *Data) {
	nv := int(math.Round(frac * float64(d.Len())))
	return d.slice(0, d.Len()-nv), d.slice(d.Len()-nv, d.Len())
}

func (d *Data) slice(lo, hi int) *Data {
	s := &Data{STM: d.STM[lo:hi], Score: d.Score[lo:hi], Result: d.Result[lo:hi]}
	base := d.Off[lo]
	s.Feats = d.Feats[base:d.Off[hi]]
	s.Off = make([]uint32, hi-lo+1)
	for i := range s.Off {
		s.Off[i] = d.Off[lo+i] - base
	}
	return s
}

// Report is the outcome of a run.
type Report struct {
	Epochs       int     // epochs trained by this run
	Samples      int64   // samples trained by this run
	TrainLoss    float64 // mean loss of the last epoch
	ValLoss      float64 // the validation loss of the final net
	ConstLoss    float64 // the validation loss of the best constant prediction (the training targets' mean)
	Elapsed, CPU time.Duration
	ResumedEpoch int // epochs the checkpoint held (0: a fresh run)
}

// checkpoint is the whole state of a run after an epoch.
type checkpoint struct {
	Fingerprint string
	Epoch       int
	Params      []float32
	Step        int
	M, V        []float32
}

// trainer holds a run's buffers.
type trainer struct {
	cfg     Config
	net     *Net
	opt     *optim.Adam
	grads   [Shards][]float32
	scratch [Shards]*scratch
	losses  [Shards]float64
}

// Train trains a net on train, reporting the loss on val after every
// epoch, and returns it.
func Train(cfg Config, train, val *Data) (*Net, Report, error) {
	cfg = cfg.Defaults()
	var rep Report
	if err := cfg.Validate(); err != nil {
		return nil, rep, err
	}
	if train.Len() == 0 {
		return nil, rep, errors.New("no training positions")
	}
	net, err := NewNet(cfg.Hidden, cfg.Activation, cfg.Seed)
	if err != nil {
		return nil, rep, err
	}
	t := newTrainer(cfg, net)
	fp := cfg.fingerprint(train, val)
	first := 0
	if cfg.Resume {
		if first, err = t.restore(cfg.Checkpoint, fp); err != nil {
			return nil, rep, err
		}
		rep.ResumedEpoch = first
	}
	trainT := train.Targets(cfg.Lambda, cfg.Scale)
	valT := val.Targets(cfg.Lambda, cfg.Scale)
	rep.ConstLoss = constLoss(trainT, valT)
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "train nnue: %d training, %d validation positions; constant predictor's validation loss %.6f\n",
			train.Len(), val.Len(), rep.ConstLoss)
	}
	// Index i >= train.Len() of an epoch's order is the mirrored copy of
	// position i - train.Len().
	order := make([]int32, train.Len())
	if cfg.Mirror {
		order = make([]int32, 2*train.Len())
	}
	steps := (len(order) + cfg.Batch - 1) / cfg.Batch
	total := steps * cfg.Epochs
	start, cpu0 := time.Now(), cpuTime()
	lastReport := start
	last := cfg.Epochs
	if cfg.StopAfter > 0 {
		last = min(last, cfg.StopAfter)
	}
	for epoch := first; epoch < last; epoch++ {
		for i := range order {
			order[i] = int32(i)
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(epoch)+1))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var epochLoss float64
		for b := range steps {
			idx := order[b*cfg.Batch : min((b+1)*cfg.Batch, len(order))]
			step := epoch*steps + b
			t.opt.LR = cfg.LR * (cfg.LRFinal + (1-cfg.LRFinal)*0.5*(1+math.Cos(math.Pi*float64(step)/float64(total))))
			epochLoss += t.step(train, trainT, idx)
			rep.Samples += int64(len(idx))
			if cfg.Progress != nil && time.Since(lastReport) >= 2*time.Second {
				lastReport = time.Now()
				wall := time.Since(start)
				rate := float64(rep.Samples) / wall.Seconds()
				left := float64(int64(last-first)*int64(len(order))-rep.Samples) / rate
				fmt.Fprintf(cfg.Progress, "train nnue: epoch %d/%d, batch %d/%d, %.0f samples/s (%.0f per CPU-s), loss %.6f, lr %.2e, ETA %s\n",
					epoch+1, cfg.Epochs, b+1, steps, rate, float64(rep.Samples)/(cpuTime()-cpu0).Seconds(),
					epochLoss/float64(b*cfg.Batch+len(idx)), t.opt.LR, (time.Duration(left) * time.Second).Round(time.Second))
			}
		}
		rep.Epochs++
		rep.TrainLoss = epochLoss / float64(len(order))
		rep.ValLoss = t.loss(val, valT)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "train nnue: epoch %d/%d done: training loss %.6f, validation loss %.6f (constant %.6f)\n",
				epoch+1, cfg.Epochs, rep.TrainLoss, rep.ValLoss, rep.ConstLoss)
		}
		if cfg.Checkpoint != "" {
			if err := t.save(cfg.Checkpoint, fp, epoch+1); err != nil {
				return nil, rep, err
			}
		}
	}
	if rep.Epochs == 0 {
		rep.ValLoss = t.loss(val, valT)
	}
	rep.Elapsed, rep.CPU = time.Since(start), cpuTime()-cpu0
	return net, rep, nil
}

func newTrainer(cfg Config, net *Net) *trainer {
	t := &trainer{cfg: cfg, net: net, opt: optim.NewAdam(len(net.Params), cfg.LR)}
	t.opt.WeightDecay = cfg.WeightDecay
	for i := range Shards {
		t.grads[i] = make([]float32, len(net.Params))
		t.scratch[i] = newScratch(cfg.Hidden)
	}
	return t
}

// parallel runs f(shard) for every shard on cfg.Threads goroutines.
func (t *trainer) parallel(f func(shard int)) {
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(t.cfg.Threads, Shards) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				s := next
				next++
				mu.Unlock()
				if s >= Shards {
					return
				}
				f(s)
			}
		}()
	}
	wg.Wait()
}

// step trains on one batch and returns the sum of its losses.
func (t *trainer) step(d *Data, targets []float32, idx []int32) float64 {
	inv := 1 / float32(len(idx))
	t.parallel(func(s int) {
		g := t.grads[s]
		clear(g)
		sc := t.scratch[s]
		var loss float64
		for _, i := range idx[s*len(idx)/Shards : (s+1)*len(idx)/Shards] {
			mirror := 0
			if int(i) >= d.Len() {
				i, mirror = i-int32(d.Len()), 7
			}
			feats := d.Feats[d.Off[i]:d.Off[i+1]]
			p := sigmoid(t.net.forward(sc, feats, d.STM[i], mirror))
			diff := p - targets[i]
			loss += float64(diff * diff)
			t.net.backward(sc, len(feats), 2*diff*p*(1-p)*inv, g)
		}
		t.losses[s] = loss
	})
	// One parallel pass over ranges of the parameters: sum the shards'
	// gradients into the first in shard order, take the AdamW step, clip.
	t.opt.Update(t.net.Params, t.grads[0], func(n int, f func(w, lo, hi int)) {
		t.parallel(func(s int) {
			lo, hi := s*n/Shards, (s+1)*n/Shards
			dst := t.grads[0][lo:hi]
			for k := 1; k < Shards; k++ {
				add(dst, t.grads[k][lo:hi])
			}
			f(s, lo, hi)
			t.net.clip(lo, hi)
		})
	})
	var loss float64
	for _, l := range t.losses {
		loss += l
	}
	return loss
}

// loss is the mean loss of the net on d.
func (t *trainer) loss(d *Data, targets []float32) float64 {
	if d.Len() == 0 {
		return math.NaN()
	}
	t.parallel(func(s int) {
		sc := t.scratch[s]
		var loss float64
		for i := s * d.Len() / Shards; i < (s+1)*d.Len()/Shards; i++ {
			p := sigmoid(t.net.forward(sc, d.Feats[d.Off[i]:d.Off[i+1]], d.STM[i], 0))
			diff := p - targets[i]
			loss += float64(diff * diff)
		}
		t.losses[s] = loss
	})
	var loss float64
	for _, l := range t.losses {
		loss += l
	}
	return loss / float64(d.Len())
}

// constLoss is the validation loss of predicting the training targets'
// mean for every position: the bar a net must clear.
func constLoss(train, val []float32) float64 {
	var mean float64
	for _, v := range train {
		mean += float64(v)
	}
	mean /= float64(len(train))
	var loss float64
	for _, v := range val {
		loss += (float64(v) - mean) * (float64(v) - mean)
	}
	return loss / float64(len(val))
}

func (t *trainer) save(path, fp string, epoch int) error {
	step, m, v := t.opt.State()
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(checkpoint{Fingerprint: fp, Epoch: epoch, Params: t.net.Params, Step: step, M: m, V: v}); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b.Bytes())
}

// restore loads a checkpoint and returns the epochs it holds.
func (t *trainer) restore(path, fp string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("resume: %w", err)
	}
	var c checkpoint
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		return 0, fmt.Errorf("resume: %s: %w", path, err)
	}
	if c.Fingerprint != fp {
		return 0, fmt.Errorf("resume: %s was made by a run with %s; this run has %s", path, c.Fingerprint, fp)
	}
	if len(c.Params) != len(t.net.Params) || len(c.M) != len(c.Params) || len(c.V) != len(c.Params) {
		return 0, fmt.Errorf("resume: %s: parameter count %d, expected %d", path, len(c.Params), len(t.net.Params))
	}
	copy(t.net.Params, c.Params)
	t.opt.Restore(c.Step, c.M, c.V)
	return c.Epoch, nil
}
