package dctrain

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/deepchess"
)

// fixture is 120 games of configs/deepchess/datagen.yaml (Stockfish at 3,000
// against 600 nodes), moves only.
const fixture = "testdata/games.jsonl.gz"

// TestTrainLearnsPairs trains a small net on the fixture's games and checks
// what training must achieve: the pairs it trained on are told apart far
// better than by chance, held-out pairs better than by chance, and the
// net saved by the checkpoint loads and agrees with the accuracy.
func TestTrainLearnsPairs(t *testing.T) {
	d, err := ReadGames([]string{fixture}, 5, openFile)
	if err != nil {
		t.Fatal(err)
	}
	if d.Held.Games == 0 || d.Train.Games < 4*d.Held.Games {
		t.Fatalf("split: %d train and %d held-out games", d.Train.Games, d.Held.Games)
	}
	dir := filepath.Join(t.TempDir(), "net")
	var log bytes.Buffer
	cfg := Config{Pos2Vec: []int{32, 16}, Head: []int{16}, PretrainEpochs: 1, PretrainPositions: 1024, PretrainLR: 1e-3,
		Epochs: 4, PairsPerEpoch: 4096, LR: 2e-3, LRDecay: 0.9, Batch: 64, Workers: 2, Seed: 1, HeldPairs: 2000, Log: &log,
		Checkpoint: func(r *Result) error { return r.Net.Save(dir, map[string]string{"note": "test"}) }}
	res, err := Train(d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.TrainAcc < 0.75 || res.HeldAccuracy < 0.6 || res.Epochs != 4 || res.HeldPairs != 2000 {
		t.Errorf("train accuracy %.3f, held-out %.3f after %d epochs on %d pairs; want >= 0.75, >= 0.6, 4, 2000\n%s",
			res.TrainAcc, res.HeldAccuracy, res.Epochs, res.HeldPairs, log.String())
	}
	for _, want := range []string{"pretrain layer 1 (773-32-773)", "pretrain layer 2 (32-16-32)", "epoch 4/4"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	m, md, err := deepchess.LoadModels(dir)
	if err != nil {
		t.Fatal(err)
	}
	if md["note"] != "test" {
		t.Errorf("metadata %v lacks the note", md)
	}
	acc, err := Accuracy(m, &d.Held, DrawPairs(&d.Held, 2000, newRand(1)))
	if err != nil {
		t.Fatal(err)
	}
	if acc != res.HeldAccuracy {
		t.Errorf("saved net: held-out accuracy %.4f, training reported %.4f", acc, res.HeldAccuracy)
	}
}

// TestTrainContinues: a run stopped after 2 of 4 epochs goes on from its
// checkpoint (Init, FirstEpoch 3) without pre-training, at the learning rate
// the uninterrupted run would have had, and ends better than it started.
func TestTrainContinues(t *testing.T) {
	d, err := ReadGames([]string{fixture}, 5, openFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "net")
	cfg := Config{Pos2Vec: []int{32, 16}, Head: []int{16}, PretrainEpochs: 1, PretrainPositions: 1024, PretrainLR: 1e-3,
		Epochs: 2, PairsPerEpoch: 4096, LR: 2e-3, LRDecay: 0.5, Batch: 64, Workers: 2, Seed: 1, HeldPairs: 2000,
		Checkpoint: func(r *Result) error { return r.Net.Save(dir, nil) }}
	first, err := Train(d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := deepchess.LoadModels(dir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cfg.Epochs, cfg.Init, cfg.FirstEpoch, cfg.Log = 4, m, 3, &log
	res, err := Train(d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"epoch 3/4: 4096 pairs", "lr 0.0005,", "epoch 4/4", "lr 0.00025,"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if strings.Contains(log.String(), "pretrain") || strings.Contains(log.String(), "epoch 1/") {
		t.Errorf("continued run pre-trained or started at epoch 1:\n%s", log.String())
	}
	if res.Epochs != 4 || res.Net != m || res.TrainAcc <= first.TrainAcc {
		t.Errorf("continued run: %d epochs, train accuracy %.3f after %.3f; want 4 epochs on the initial net and a higher accuracy",
			res.Epochs, res.TrainAcc, first.TrainAcc)
	}

	cfg.Head = []int{8}
	if _, err := Train(d, cfg); err == nil || !strings.Contains(err.Error(), "initial net's head is 32-16-2, the configured one 32-8-2") {
		t.Errorf("other head widths: error %v", err)
	}
	cfg.Head, cfg.FirstEpoch = []int{16}, 5
	if _, err := Train(d, cfg); err == nil || !strings.Contains(err.Error(), "first epoch 5 is past the last, 4") {
		t.Errorf("first epoch 5 of 4: error %v", err)
	}
}

func TestTrainNeedsBothResults(t *testing.T) {
	path := writeGames(t, gameJSON(t, 1, 1, "1-0", friedLiver))
	d, err := ReadGames([]string{path}, 0, openFile)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Train(d, Config{Pos2Vec: []int{8}, Head: []int{8}, Batch: 8, Workers: 1})
	if err == nil || !strings.Contains(err.Error(), "0 from games Black won") {
		t.Errorf("error %v, want one saying no positions from games Black won", err)
	}
}
