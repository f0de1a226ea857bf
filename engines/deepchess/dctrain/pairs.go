package dctrain

import (
	"arena/engines/deepchess"
	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// pairTrainer trains the Siamese net: one Pos2Vec tape over both positions
// of every pair (rows 0..B-1 the first positions, B..2B-1 the second), the
// head on the two vectors side by side, and the head's input gradient split
// back onto the two halves, so Pos2Vec's gradient sums both of its uses.
type pairTrainer struct {
	m            *deepchess.Models
	batch, dim   int
	p2v, head    *mlp.Tape
	adamP, adamH *optim.Adam
	gradP, gradH []float32
	x            []float32 // [2B][Inputs]
	pairIn       []float32 // [B][2 dim]
	dLogits      []float32 // [B][2]
	dPair        []float32 // [B][2 dim]
	dVec         []float32 // [2B][dim]
	labels       []int
}

func newPairTrainer(m *deepchess.Models, cfg *Config) (*pairTrainer, error) {
	b := cfg.Batch
	p2v, err := m.Pos2Vec.NewTape(2*b, cfg.Workers)
	if err != nil {
		return nil, err
	}
	head, err := m.Head.NewTape(b, cfg.Workers)
	if err != nil {
		return nil, err
	}
	dim := m.Pos2Vec.Arch.Outputs()
	return &pairTrainer{
		m: m, batch: b, dim: dim, p2v: p2v, head: head,
		adamP: optim.NewAdam(len(m.Pos2Vec.Params), cfg.LR), adamH: optim.NewAdam(len(m.Head.Params), cfg.LR),
		gradP: make([]float32, len(m.Pos2Vec.Params)), gradH: make([]float32, len(m.Head.Params)),
		x: make([]float32, 2*b*deepchess.Inputs), pairIn: make([]float32, b*2*dim),
		dLogits: make([]float32, b*2), dPair: make([]float32, b*2*dim), dVec: make([]float32, 2*b*dim),
		labels: make([]int, b),
	}, nil
}

// epoch trains on pairs in batches (a last partial batch is dropped) and
// returns the mean loss and the share of pairs classified right before
// each step.
func (t *pairTrainer) epoch(s *Split, pairs []Pair) (loss, acc float64) {
	b, dim, n := t.batch, t.dim, deepchess.Inputs
	steps, right := 0, 0
	for lo := 0; lo+b <= len(pairs); lo += b {
		for r, p := range pairs[lo : lo+b] {
			first, second := &s.WhiteWon, &s.BlackWon
			i, j := int(p.A), int(p.B)
			t.labels[r] = 0
			if p.Swap {
				first, second, i, j = second, first, j, i
				t.labels[r] = 1
			}
			first.Dense(i, t.x[r*n:(r+1)*n])
			second.Dense(j, t.x[(b+r)*n:(b+r+1)*n])
		}
		vec := t.p2v.Forward(t.x, 2*b)
		for r := range b {
			copy(t.pairIn[r*2*dim:], vec[r*dim:(r+1)*dim])
			copy(t.pairIn[r*2*dim+dim:], vec[(b+r)*dim:(b+r+1)*dim])
		}
		logits := t.head.Forward(t.pairIn, b)
		for r, l := range t.labels {
			if (logits[2*r] > logits[2*r+1]) == (l == 0) {
				right++
			}
		}
		loss += mlp.SoftmaxCE(logits, t.labels, t.dLogits)
		t.head.Backward(t.dLogits, t.gradH, t.dPair)
		for r := range b {
			copy(t.dVec[r*dim:(r+1)*dim], t.dPair[r*2*dim:])
			copy(t.dVec[(b+r)*dim:(b+r+1)*dim], t.dPair[r*2*dim+dim:])
		}
		t.p2v.Backward(t.dVec, t.gradP, nil)
		adamStep(t.adamH, t.m.Head, t.gradH, t.head)
		adamStep(t.adamP, t.m.Pos2Vec, t.gradP, t.p2v)
		steps++
	}
	return loss / float64(max(steps, 1)), float64(right) / float64(max(steps*b, 1))
}
