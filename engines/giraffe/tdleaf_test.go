package giraffe

import (
	"context"
	"math"
	"slices"
	"testing"

	"arena/engines/nn/mlp"
)

// TestTDError: the seed's worked example (scores 10, 20, 20, 20, -10, -10,
// -10, 40, 40, 40, 40, 40 over 12 moves) totals 3.92 with the first change
// weighted by λ; the update rule weighs it by 1, λ^-1 times that.
func TestTDError(t *testing.T) {
	v := []float64{10, 20, 20, 20, -10, -10, -10, 40, 40, 40, 40, 40}
	if e := tdError(v, 0.7); math.Abs(e*0.7-3.92) > 0.01 {
		t.Errorf("TD error %v, expected 3.92/0.7 = %v", e, 3.92/0.7)
	}
}

// TestTDLeafRuns: a tiny run changes the weights and is reproducible; the
// games do not depend on the number of workers playing them (the gradient
// sums do, in the last bits, as in every mlp training).
func TestTDLeafRuns(t *testing.T) {
	recs := heldout(t)
	var starts []string
	for _, r := range recs[:50] {
		starts = append(starts, r.FEN)
	}
	cfg := TDLeafConfig{Starts: starts, Iterations: 2, Batch: 4, Moves: 3, Lambda: 0.7, Nodes: 60, LR: 1e-3, Seed: 9, Workers: 2}
	run := func() *mlp.Model {
		m, _, err := mlp.ReadSafetensors(shippedFile(t))
		if err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.Model = m
		res, err := TDLeaf(context.Background(), c)
		if err != nil || res.Iterations != 2 {
			t.Fatalf("%d iterations, error %v", res.Iterations, err)
		}
		return m
	}
	a, b := run(), run()
	orig, _, _ := mlp.ReadSafetensors(shippedFile(t))
	if slices.Equal(a.Params, orig.Params) {
		t.Error("TD-Leaf left the weights unchanged")
	}
	if !slices.Equal(a.Params, b.Params) {
		t.Error("two runs trained different weights")
	}
	net, err := orig.Compile()
	if err != nil {
		t.Fatal(err)
	}
	games := func(workers int) ([]float32, []float32) {
		c := cfg
		c.Workers = workers
		leaves, errs := make([]float32, c.Batch*NumFeatures), make([]float32, c.Batch)
		if err := playBatch(context.Background(), c, net, 0, leaves, errs); err != nil {
			t.Fatal(err)
		}
		return leaves, errs
	}
	l1, e1 := games(1)
	l2, e2 := games(2)
	if !slices.Equal(l1, l2) || !slices.Equal(e1, e2) {
		t.Errorf("games differ with 1 and 2 workers: TD errors %v and %v", e1, e2)
	}
	if slices.Equal(e1, make([]float32, len(e1))) {
		t.Errorf("every TD error is 0: %v", e1)
	}
}
