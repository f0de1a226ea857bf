package nnuetrain

import (
	"math"

	"arena/engines/nnue"
	"arena/internal/atomicfile"
)

// The quantisation of the shipped format: feature weights and bias x QA,
// output weights x QB (docs/nnue.md). The file itself, its reader and the
// integer evaluation are the engine's (package nnue): the trainer hands
// it a quantised nnue.Net and measures that net with the engine's own
// arithmetic, so there is one implementation of the format.
const (
	QA = 255
	QB = 64
)

// Quantise converts the float net to the engine's integer net: feature
// weights and bias x QA, output weights x QB, output bias x QA*QB,
// rounded and clamped to int16 (int32 for the output bias). It returns
// the number of values clamped.
func (n *Net) Quantise(scale int) (*nnue.Net, int) {
	q := &nnue.Net{Hidden: n.Hidden, QA: QA, QB: QB, Scale: int32(scale), Activation: n.Activation}
	clamped := 0
	conv := func(src []float32, mul float64) []int16 {
		out := make([]int16, len(src))
		for i, v := range src {
			x := math.Round(float64(v) * mul)
			if x > math.MaxInt16 || x < math.MinInt16 {
				clamped++
				x = max(min(x, math.MaxInt16), math.MinInt16)
			}
			out[i] = int16(x)
		}
		return out
	}
	q.FeatureWeights = conv(n.W, QA)
	q.FeatureBias = conv(n.B, QA)
	q.OutputWeights = conv(n.O, QB)
	ob := math.Round(float64(n.OB[0]) * QA * QB)
	if ob > math.MaxInt32 || ob < math.MinInt32 {
		clamped++
		ob = max(min(ob, math.MaxInt32), math.MinInt32)
	}
	q.OutputBias = int32(ob)
	return q, clamped
}

// WriteNet writes q to path atomically in the net file format.
func WriteNet(path string, q *nnue.Net) error {
	data, err := q.Bytes()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}

// QuantisedLoss is q's mean loss on d (the trainer's loss, with the
// engine's integer evaluation in place of the float one): what
// quantisation cost shows as its difference from the float net's.
func QuantisedLoss(q *nnue.Net, d *Data, lambda float64) float64 {
	targets := d.Targets(lambda, float64(q.Scale))
	var loss float64
	var white, black []int
	for i := range d.Len() {
		white, black = white[:0], black[:0]
		for _, f := range d.Feats[d.Off[i]:d.Off[i+1]] {
			white = append(white, int(f))
			black = append(black, Flip(int(f)))
		}
		if d.STM[i] == 1 {
			white, black = black, white
		}
		cp := q.EvaluateFeatures(white, black)
		diff := 1/(1+math.Exp(-float64(cp)/float64(q.Scale))) - float64(targets[i])
		loss += diff * diff
	}
	return loss / float64(d.Len())
}
