package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/nnue"
)

func TestNNUEArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"datagen", "selfplay"}, "no output file"},
		{[]string{"datagen", "selfplay", "--out", "x.txt", "--nodes", "0"}, "nodes is 0"},
		{[]string{"datagen", "selfplay", "--out", "x.txt", "--label", "sf"}, `label "sf"`},
		{[]string{"train", "nnue", "--out", "x.nnue"}, "--data and --out are required"},
		{[]string{"train", "nnue", "--data", "x.txt", "--out", "x.nnue", "--activation", "relu"}, "screlu or crelu"},
		{[]string{"train", "nnue", "--data", "x.txt", "--out", "x.nnue", "--lambda", "2"}, "lambda 2"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestNNUEPipeline runs the two commands end to end on a small scale:
// self-play data, then a net that reads back in the file format.
func TestNNUEPipeline(t *testing.T) {
	dir := t.TempDir()
	data, net := filepath.Join(dir, "sp.txt"), filepath.Join(dir, "n.nnue")
	var out, errb bytes.Buffer
	if code := run([]string{"datagen", "selfplay", "--out", data, "--nodes", "300", "--positions", "200", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("datagen selfplay: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "per CPU-second") {
		t.Errorf("datagen selfplay printed %q, expected its speed", out.String())
	}
	out.Reset()
	if code := run([]string{"train", "nnue", "--data", data, "--out", net, "--hidden", "64", "--epochs", "2", "--batch", "64", "--positions", "200", "--quiet"}, &out, &errb); code != 0 {
		t.Fatalf("train nnue: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "validation loss") || !strings.Contains(out.String(), "samples/s") {
		t.Errorf("train nnue printed %q, expected the losses and the speed", out.String())
	}
	q, err := nnue.Load(net)
	if err != nil || q.Hidden != 64 || q.Activation != nnue.SCReLU || q.Scale != 400 {
		t.Fatalf("the net read back: %+v, %v", q, err)
	}
	errb.Reset()
	if code := run([]string{"train", "nnue", "--data", data, "--out", net, "--positions", "100000", "--quiet"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "expected at least 100000") {
		t.Errorf("--positions beyond the file: exit %d, stderr %q", code, errb.String())
	}
}
