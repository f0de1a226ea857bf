package train

import (
	"context"
	"math"
	"slices"
	"testing"

	"arena/engines/board"
	"arena/engines/nn"
)

// materialSamples labels random positions with tanh of their material
// balance: a target a small net learns quickly.
func materialSamples(t *testing.T, n int) []Sample {
	values := [...]float64{1, 3, 3, 5, 9, 0}
	var out []Sample
	for _, pl := range randomBoards(t, n, 9) {
		diff := 0.0
		for _, v := range pl {
			switch {
			case v > 0:
				diff += values[v-1]
			case v < 0:
				diff -= values[-v-1]
			}
		}
		out = append(out, Sample{Board: pl, Target: float32(math.Tanh(diff / 3))})
	}
	return out
}

func TestFitLearnsAndIsReproducible(t *testing.T) {
	samples := materialSamples(t, 640)
	cfg := Config{Epochs: 3, Batch: 32, LR: 2e-3, ValFraction: 0.2, Seed: 4, Workers: 2}
	a, err := Fit(context.Background(), samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Fit(context.Background(), samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Best.params, b.Best.params) || a.BestVal != b.BestVal {
		t.Fatal("two runs with the same seed and workers gave different weights")
	}
	first, last := a.Epochs[0], a.Epochs[len(a.Epochs)-1]
	if last.TrainLoss >= first.TrainLoss {
		t.Fatalf("training loss did not fall: %v", a.Epochs)
	}
	// The saved (best) model is the epoch with the lowest validation loss.
	for _, e := range a.Epochs {
		if e.ValLoss < a.BestVal {
			t.Fatalf("best val %v but epoch %d had %v", a.BestVal, e.Epoch, e.ValLoss)
		}
	}
	if got, err := Loss(a.Best, samples, nil); err != nil || math.IsNaN(got) || got <= 0 {
		t.Fatalf("loss of the best model %v, %v", got, err)
	}
	if _, err := Fit(context.Background(), samples[:10], cfg); err == nil {
		t.Fatal("10 samples accepted for batch 32")
	}
	if _, err := Fit(context.Background(), samples, Config{Batch: 12}); err == nil {
		t.Fatal("batch 12 accepted")
	}
}

func TestCPTarget(t *testing.T) {
	for _, c := range []struct {
		cp   int
		mate bool
		want float64
	}{{0, false, 0}, {300, false, 0.5}, {-300, false, -0.5}, {9990, true, 1}, {-9990, true, -1}} {
		if got := CPTarget(c.cp, c.mate); math.Abs(float64(got)-c.want) > 0.01 {
			t.Errorf("CPTarget(%d, %v) = %v, expected about %v", c.cp, c.mate, got, c.want)
		}
	}
}

func TestMirror(t *testing.T) {
	start, _ := nn.ParsePlacement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
	if mirror(start) != start {
		t.Fatal("the start position is its own mirror image")
	}
	pl, _ := nn.ParsePlacement("4k3/8/8/8/8/8/8/3QK3")
	want, _ := nn.ParsePlacement("3qk3/8/8/8/8/8/8/4K3")
	if mirror(pl) != want {
		t.Fatalf("mirror of a white queen on d1: %v, expected a black queen on d8", mirror(pl))
	}
}

func TestAdjudicate(t *testing.T) {
	for fen, want := range map[string]float64{
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1":   1,
		"4k3/8/8/8/8/8/8/3NK3 w - - 0 1":   1,
		"4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1": 0,
		"3rk3/8/8/8/8/8/8/4K3 w - - 0 1":   -1,
	} {
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := adjudicate(p); got != want {
			t.Errorf("%s adjudicated %v, expected %v", fen, got, want)
		}
	}
}

func TestSelfPlayLoop(t *testing.T) {
	var checkpoints []int
	cfg := SelfPlayConfig{Generations: 2, Games: 4, MaxPlies: 12, GateGames: 2, Seed: 3, Workers: 2,
		Train: Config{Epochs: 1, Batch: 16, Workers: 2},
		Checkpoint: func(best *Model, gen int, wr float64) error {
			if best == nil {
				t.Fatal("no model at checkpoint")
			}
			checkpoints = append(checkpoints, gen)
			return nil
		}}
	res, err := SelfPlay(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Generations) != 2 || len(checkpoints) != 2 {
		t.Fatalf("%d generations, %d checkpoints; expected 2 and 2", len(res.Generations), len(checkpoints))
	}
	lastAccepted := 0
	for _, g := range res.Generations {
		if g.Accepted != (g.Score >= 0.55) {
			t.Fatalf("generation %d: score %v, accepted %v", g.Generation, g.Score, g.Accepted)
		}
		if g.Accepted {
			lastAccepted = g.Generation
		}
	}
	if res.Generation != lastAccepted {
		t.Fatalf("best is generation %d, the last accepted was %d", res.Generation, lastAccepted)
	}
	// Greedy gate games from the same seed replay identically.
	net, _ := nn.New(NewModel(1).Weights())
	c := cfg.withDefaults()
	a, _ := playGames(context.Background(), c, net, net, 2, 1, true)
	b, _ := playGames(context.Background(), c, net, net, 2, 1, true)
	if len(a[0].positions) != len(b[0].positions) || a[0].result != b[0].result {
		t.Fatal("a gate game did not replay")
	}
}
