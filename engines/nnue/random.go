package nnue

import "math/rand/v2"

// RandomNet returns a net of the given width and activation with
// deterministic random weights (QA 255, QB 64, scale 400), sized so that
// accumulators stay far from int16's limits and evaluations are of
// centipawn size. It plays nonsense; tests and benchmarks use it where the
// shipped net's values do not matter.
func RandomNet(seed uint64, hidden int, act Activation) *Net {
	r := rand.New(rand.NewPCG(seed, 0x6e6e7565))
	ints := func(k, lim int) []int16 {
		v := make([]int16, k)
		for i := range v {
			v[i] = int16(r.IntN(2*lim+1) - lim)
		}
		return v
	}
	outLim := 8
	if act == CReLU {
		outLim = 64
	}
	return &Net{Hidden: hidden, QA: 255, QB: 64, Scale: 400, Activation: act,
		FeatureWeights: ints(Inputs*hidden, 64), FeatureBias: ints(hidden, 64),
		OutputWeights: ints(2*hidden, outLim), OutputBias: int32(r.IntN(2001) - 1000)}
}
