package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/nn"
	"arena/engines/nn/dataset"
)

func TestTrainAndDatagenArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train"}, "supervised|selfplay"},
		{[]string{"train", "nosuch"}, "supervised|selfplay"},
		{[]string{"train", "supervised", "--out", "x.safetensors"}, "--data and --out are required"},
		{[]string{"train", "selfplay"}, "--out is required"},
		{[]string{"datagen"}, "no output file"},
		{[]string{"datagen", "--out", "x.tsv", "--every", "0"}, "every is 0"},
	} {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestTrainSupervisedCommand trains on a small datagen file and checks the
// saved net's metadata.
func TestTrainSupervisedCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.tsv")
	var buf bytes.Buffer
	buf.WriteString(dataset.Header + "\n")
	fens := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1",
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
		"3qk3/8/8/8/8/8/8/4K3 w - - 0 1",
	}
	for i := range 40 {
		r := dataset.Record{FEN: fens[i%len(fens)], CP: []int{20, 900, -900, 1200, -1200}[i%len(fens)], Result: -1}
		buf.WriteString(r.String() + "\n")
	}
	if err := os.WriteFile(data, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "net.safetensors")
	var stdout, stderr bytes.Buffer
	args := []string{"train", "supervised", "--data", data, "--out", out, "--epochs", "2", "--batch", "8", "--val", "0.2"}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "epoch 2/2") {
		t.Errorf("no per-epoch progress in %q", stderr.String())
	}
	_, meta, err := nn.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Extra["val_loss"] == "" || !strings.Contains(meta.Training, "40 positions") {
		t.Errorf("metadata %+v lacks the validation loss or the data size", meta)
	}
}
