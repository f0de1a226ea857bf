package datagen

import (
	"fmt"

	"arena/engines/nn"
	"arena/engines/nn/dataset"
	"arena/engines/nn/train"
)

// Samples turns records into training samples with the supervised target
// train.CPTarget (tanh(cp/CPScale), ±1 for mates). Errors name the record.
func Samples(recs []dataset.Record) ([]train.Sample, error) {
	out := make([]train.Sample, len(recs))
	for i, r := range recs {
		pl, err := nn.ParsePlacement(r.FEN)
		if err != nil {
			return nil, fmt.Errorf("record %d (%s): %w", i+1, r.FEN, err)
		}
		out[i] = train.Sample{Board: pl, Target: train.CPTarget(r.CP, r.HasMate)}
	}
	return out, nil
}
