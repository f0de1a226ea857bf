package dctrain

import (
	"fmt"
	"math/rand/v2"

	"arena/engines/deepchess"
	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// pretrain initialises Pos2Vec layer by layer as DeepChess does: layer k is
// the encoder of an autoencoder (ReLU code, linear reconstruction) trained
// to reproduce layer k-1's activations on the training positions; the first
// one reconstructs the 0/1 input bits through a sigmoid (binary
// cross-entropy). Later layers see the already trained layers' outputs.
func pretrain(p2v *mlp.Model, s *Split, cfg *Config, rng *rand.Rand) error {
	if cfg.PretrainEpochs <= 0 {
		return nil
	}
	positions := samplePositions(s, cfg.PretrainPositions, rng)
	layers := p2v.Layers()
	in := deepchess.Inputs
	batch := cfg.Batch
	x := make([]float32, batch*deepchess.Inputs)
	for k, l := range layers {
		ae, err := mlp.New(mlp.Arch{Name: "deepchess-autoencoder", Inputs: in,
			Layers: []mlp.Dense{{Out: l.Out, Act: mlp.ReLU}, {Out: in, Act: mlp.Identity}}}, cfg.Seed+uint64(k)+10)
		if err != nil {
			return err
		}
		tape, err := ae.NewTape(batch, cfg.Workers)
		if err != nil {
			return err
		}
		prefix, err := prefixNet(p2v, k)
		if err != nil {
			return err
		}
		adam := optim.NewAdam(len(ae.Params), cfg.PretrainLR)
		grad := make([]float32, len(ae.Params))
		dOut := make([]float32, batch*in)
		target := make([]float32, batch*in)
		for epoch := 1; epoch <= cfg.PretrainEpochs; epoch++ {
			rng.Shuffle(len(positions), func(i, j int) { positions[i], positions[j] = positions[j], positions[i] })
			var sum float64
			steps := 0
			for lo := 0; lo+batch <= len(positions); lo += batch {
				for r, ref := range positions[lo : lo+batch] {
					ref.set.Dense(ref.i, x[r*deepchess.Inputs:(r+1)*deepchess.Inputs])
				}
				if prefix != nil {
					prefix.ForwardBatch(x, batch, target)
				} else {
					copy(target, x[:batch*in])
				}
				out := tape.Forward(target, batch)
				if k == 0 {
					sum += mlp.SigmoidBCE(out, target, dOut)
				} else {
					sum += mlp.MSE(out, target, dOut)
				}
				tape.Backward(dOut, grad, nil)
				adamStep(adam, ae, grad, tape)
				steps++
			}
			cfg.logf("pretrain layer %d (%d-%d-%d): epoch %d/%d, %d positions, loss %.5f", k+1, in, l.Out, in, epoch, cfg.PretrainEpochs, steps*batch, sum/float64(max(steps, 1)))
		}
		enc := ae.Layers()[0]
		copy(l.W, enc.W)
		copy(l.B, enc.B)
		in = l.Out
	}
	return nil
}

// prefixNet is an evaluator of Pos2Vec's first k layers (nil for k = 0).
func prefixNet(p2v *mlp.Model, k int) (*mlp.Evaluator, error) {
	if k == 0 {
		return nil, nil
	}
	a := p2v.Arch
	a.Layers = a.Layers[:k]
	m, err := mlp.New(a, 0)
	if err != nil {
		return nil, err
	}
	src := p2v.Layers()
	for i, l := range m.Layers() {
		copy(l.W, src[i].W)
		copy(l.B, src[i].B)
	}
	net, err := m.Compile()
	if err != nil {
		return nil, fmt.Errorf("pretrain: %w", err)
	}
	return net.NewEvaluator(256), nil
}

type posRef struct {
	set *Positions
	i   int
}

// samplePositions draws up to n training positions without replacement.
func samplePositions(s *Split, n int, rng *rand.Rand) []posRef {
	var all []posRef
	for _, set := range []*Positions{&s.WhiteWon, &s.BlackWon} {
		for i := range set.Len() {
			all = append(all, posRef{set, i})
		}
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	if n > 0 && n < len(all) {
		all = all[:n]
	}
	return all
}
