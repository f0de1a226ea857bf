package nnuetrain

import (
	"fmt"
	"math"
	"math/rand/v2"

	"arena/engines/nnue"
)

// Net is the float net being trained: 768 inputs -> Hidden per
// perspective -> 1, in the units of the file before quantisation (an
// accumulator value of 1.0 is QA, the activation clamps to [0, 1], and the
// output times the scale is the evaluation in centipawns).
type Net struct {
	Hidden     int
	Activation nnue.Activation
	// Params holds every parameter; W, B, O and OB are views of it, so the
	// optimiser and checkpoints see one vector.
	Params []float32
	W      []float32 // [768][Hidden] feature weights
	B      []float32 // [Hidden] feature bias
	O      []float32 // [2*Hidden] output weights: side to move, other side
	OB     []float32 // [1] output bias
}

// WeightClip bounds the feature and output weights after every step, as
// bullet does: quantised, a feature weight stays within ±505 and an output
// weight within ±127, so an engine may multiply a clamped activation by an
// output weight in int16 (the "lizard" SCReLU trick) without overflow.
const WeightClip = 1.98

// NewNet returns a net with seeded random weights: feature weights uniform
// in ±1/sqrt(32) (about 30 pieces are active), output weights in
// ±1/sqrt(2*Hidden), biases zero.
func NewNet(hidden int, activation nnue.Activation, seed uint64) (*Net, error) {
	if hidden < 8 || hidden%8 != 0 {
		return nil, fmt.Errorf("hidden size %d: expected a positive multiple of 8", hidden)
	}
	if activation != nnue.SCReLU && activation != nnue.CReLU {
		return nil, fmt.Errorf("activation %d: expected %d (SCReLU) or %d (clipped ReLU)", activation, nnue.SCReLU, nnue.CReLU)
	}
	n := netOf(hidden, activation, make([]float32, nnue.Inputs*hidden+3*hidden+1))
	rng := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	fw := 1 / math.Sqrt(32)
	for i := range n.W {
		n.W[i] = float32((2*rng.Float64() - 1) * fw)
	}
	ow := 1 / math.Sqrt(float64(2*hidden))
	for i := range n.O {
		n.O[i] = float32((2*rng.Float64() - 1) * ow)
	}
	return n, nil
}

// netOf lays the views over params.
func netOf(hidden int, activation nnue.Activation, params []float32) *Net {
	w := nnue.Inputs * hidden
	return &Net{Hidden: hidden, Activation: activation, Params: params,
		W:  params[:w:w],
		B:  params[w : w+hidden : w+hidden],
		O:  params[w+hidden : w+3*hidden : w+3*hidden],
		OB: params[w+3*hidden:]}
}

// scratch is one worker's buffers for a sample: accumulators, their
// gradients and the sample's feature rows.
type scratch struct {
	acc, dacc []float32 // [2*Hidden]: side to move, other side
	us, them  [32]int
}

func newScratch(hidden int) *scratch {
	return &scratch{acc: make([]float32, 2*hidden), dacc: make([]float32, 2*hidden)}
}

// forward computes the accumulators of one position (feats from White's
// perspective, stm its side to move; mirror 7 flips the board's files,
// 0 leaves it) into s and returns the output (the evaluation divided by
// the scale, side to move's view). Only the rows of the active features
// are read.
func (n *Net) forward(s *scratch, feats []uint16, stm uint8, mirror int) float32 {
	h := n.Hidden
	us, them := s.acc[:h:h], s.acc[h:2*h:2*h]
	copy(us, n.B)
	copy(them, n.B)
	for j, f := range feats {
		fu := int(f) ^ mirror // 384 and 64 are multiples of 8: the xor touches the file alone
		ft := Flip(fu)
		if stm == 1 {
			fu, ft = ft, fu
		}
		s.us[j], s.them[j] = fu, ft
	}
	sumRows(us, n.W, s.us[:len(feats)])
	sumRows(them, n.W, s.them[:len(feats)])
	ou, ot := n.O[:h:h], n.O[h:2*h:2*h]
	var sum float32
	if n.Activation == nnue.SCReLU {
		sum = outputSCReLU(us, them, ou, ot)
	} else {
		for i := range us {
			sum += clamp01(us[i])*ou[i] + clamp01(them[i])*ot[i]
		}
	}
	return sum + n.OB[0]
}

func clamp01(x float32) float32 { return min(max(x, 0), 1) }

// backward adds the gradient of the loss to grad (the layout of Params),
// given dOut, the loss's derivative by the output, and the scratch forward
// left for the same position. Only the active features' rows of grad are
// touched.
func (n *Net) backward(s *scratch, nfeats int, dOut float32, grad []float32) {
	h := n.Hidden
	g := netOf(h, n.Activation, grad)
	us, them := s.acc[:h:h], s.acc[h:2*h:2*h]
	dus, dthem := s.dacc[:h:h], s.dacc[h:2*h:2*h]
	ou, ot := n.O[:h:h], n.O[h:2*h:2*h]
	gou, got, gb := g.O[:h:h], g.O[h:2*h:2*h], g.B[:h:h]
	if n.Activation == nnue.SCReLU {
		backwardSCReLU(us, them, ou, ot, gou, got, gb, dus, dthem, dOut)
	} else {
		for i := range us {
			a, b := clamp01(us[i]), clamp01(them[i])
			gou[i] += dOut * a
			got[i] += dOut * b
			dus[i] = dOut * ou[i] * below1(us[i], inside(us[i]))
			dthem[i] = dOut * ot[i] * below1(them[i], inside(them[i]))
			gb[i] += dus[i] + dthem[i]
		}
	}
	g.OB[0] += dOut
	addToRows(g.W, s.us[:nfeats], dus)
	addToRows(g.W, s.them[:nfeats], dthem)
}

// below1 is v where x < 1 and 0 elsewhere, for x >= 0 or v = 0 (the
// derivatives: an activation is flat above 1), without a branch: the
// accumulators fall either side of 1 at random, which a branch predictor
// cannot learn. For x >= 0, x < 1 exactly when x's bits are below 1.0's.
func below1(x, v float32) float32 {
	mask := uint32(int32(math.Float32bits(x)-0x3f800000) >> 31)
	return math.Float32frombits(math.Float32bits(v) & mask)
}

// inside is clipped ReLU's derivative below 1: 1 for x > 0, else 0 (and
// 1 for -0, where either is right).
func inside(x float32) float32 {
	return math.Float32frombits(0x3f800000 &^ uint32(int32(math.Float32bits(x)-1)>>31))
}

func sigmoid(x float32) float32 { return float32(1 / (1 + math.Exp(-float64(x)))) }

// Evaluate returns the float net's evaluation of a position in units of
// the scale (side to move's view).
func (n *Net) Evaluate(feats []uint16, stm uint8) float32 {
	return n.forward(newScratch(n.Hidden), feats, stm, 0)
}

// clip bounds the feature and output weights among Params[lo:hi] to
// ±WeightClip.
func (n *Net) clip(lo, hi int) {
	w, o := len(n.W), len(n.W)+len(n.B)
	for _, r := range [2][2]int{{0, w}, {o, o + len(n.O)}} {
		for i := max(lo, r[0]); i < min(hi, r[1]); i++ {
			n.Params[i] = min(max(n.Params[i], -WeightClip), WeightClip)
		}
	}
}
