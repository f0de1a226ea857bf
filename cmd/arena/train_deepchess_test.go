package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/output"
	"arena/engines/deepchess"
	"arena/engines/deepchess/dctrain"
)

// TestTrainDeepChessCommand trains a tiny net on the dctrain fixture's
// games and checks what the command promises: both files, loadable by the
// engine, with the data and the held-out accuracy in the metadata. The
// games are those of a compressed run (the fixture, games.jsonl.gz), named
// as DIR/games.jsonl, and read as the plain file is.
func TestTrainDeepChessCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "net")
	fixture := filepath.Join("..", "..", "engines", "deepchess", "dctrain", "testdata", "games.jsonl.gz")
	plain, err := dctrain.ReadGames([]string{fixture}, 5, func(path string) (io.ReadCloser, error) { return output.Open(path) })
	if err != nil {
		t.Fatal(err)
	}
	run1 := compressedRun(t, fixture)
	games := filepath.Join(run1, output.GamesFile)
	var stdout, stderr bytes.Buffer
	code := run([]string{"train", "deepchess", "--games", games, "--out", out, "--pos2vec", "16,8", "--head", "8",
		"--pretrain-positions", "512", "--epochs", "2", "--pairs", "1024", "--batch", "64", "--held-pairs", "500", "--held-every", "5"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	plain.AddMirrors() // as the command does by default
	read := fmt.Sprintf("data: %d decisive games (%d drawn skipped) from %s: %d+%d train positions (White won + Black won) from %d games, %d+%d held-out positions",
		plain.Train.Games+plain.Held.Games, plain.Draws, games, plain.Train.WhiteWon.Len(), plain.Train.BlackWon.Len(), plain.Train.Games,
		plain.Held.WhiteWon.Len(), plain.Held.BlackWon.Len())
	for _, want := range []string{read, "training positions doubled by their colour-flipped mirrors", "pretrain layer 2 (16-8-16)", "epoch 2/2"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "held-out accuracy") || !strings.Contains(stdout.String(), "on 500 pairs after 2 epochs") {
		t.Errorf("stdout %q: want the held-out accuracy on 500 pairs after 2 epochs", stdout.String())
	}
	_, md, err := deepchess.LoadModels(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md["training"], "decisive games") || md["held_pairs"] != "500" || md["held_accuracy"] == "" {
		t.Errorf("metadata %v: want the data, held_pairs 500 and held_accuracy", md)
	}

	// Continued for a third epoch from its checkpoint.
	stdout.Reset()
	stderr.Reset()
	code = run([]string{"train", "deepchess", "--games", games, "--out", out, "--pos2vec", "16,8", "--head", "8",
		"--pretrain-positions", "512", "--epochs", "3", "--pairs", "1024", "--batch", "64", "--held-pairs", "500", "--held-every", "5",
		"--init", out, "--first-epoch", "3"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("continued: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "epoch 3/3") || strings.Contains(stderr.String(), "pretrain") || strings.Contains(stderr.String(), "epoch 2/3") {
		t.Errorf("continued: stderr should show epoch 3/3 only, no pre-training:\n%s", stderr.String())
	}
	_, md, err = deepchess.LoadModels(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md["training"], "then 3 epochs") || !strings.Contains(md["training"], "epochs 3-3 continued from the net in "+out) {
		t.Errorf("continued: training metadata %q", md["training"])
	}
}

func TestTrainDeepChessArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train", "deepchess", "--out", "x"}, 2, "--games and --out are required"},
		{[]string{"train", "deepchess", "--games", "g.jsonl", "--out", "x", "--pos2vec", "64,0"}, 1, `--pos2vec "64,0": expected comma-separated positive widths`},
		{[]string{"train", "deepchess", "--games", "nosuch.jsonl", "--out", "x"}, 1, "nosuch.jsonl"},
		{[]string{"train", "deepchess", "--games", "g.jsonl", "--out", "x", "--init", "x"}, 2, "--init and --first-epoch (above 1) go together"},
		{[]string{"train", "deepchess", "--games", "g.jsonl", "--out", "x", "--first-epoch", "3"}, 2, "--init and --first-epoch (above 1) go together"},
		{[]string{"train", "deepchess", "--games", "g.jsonl", "--out", "x", "--init", "nosuch", "--first-epoch", "3"}, 1, "nosuch"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errb.String(), c.code, c.want)
		}
	}
}
