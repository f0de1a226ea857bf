//go:build !worker

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"arena/engines/nn"
	"arena/internal/fixture"
)

func TestDescribeModel(t *testing.T) {
	var out bytes.Buffer
	if err := describeModel(&out, fixture.Gunzip(t, nnTestdata+"valuenet_ckpt.pt.gz")); err != nil {
		t.Fatal(err)
	}
	// Compare with the column alignment removed.
	var lines []string
	for _, line := range strings.Split(out.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"\nformat " + nn.FormatTorchCheckpoint + "\n",
		"\narchitecture ValueNet-thesis\n",
		"\nparameters 757,985 trainable, 643 BatchNorm running statistics\n",
		"\ngeneration 3\n",
		"\nbest_wr 0.55\n",
		"\ntraining -\n",
		"\ntensors 27\n",
		"\nbody.6.weight F32 [128 128 3 3]\n",
		"\nbody.7.num_batches_tracked I64 []\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("info output lacks %q:\n%s", want, text)
		}
	}
	// A shipped net by name, as the engines' model option takes it.
	out.Reset()
	if err := describeModel(&out, "builtin:supervised"); err != nil || !strings.Contains(out.String(), "builtin:supervised") || !strings.Contains(out.String(), "757,985 trainable") {
		t.Errorf("builtin:supervised: %v\n%s", err, out.String())
	}
}

func TestReadPositions(t *testing.T) {
	text := `# comment
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "spanish";
8/8/4k3/8/8/4K3/4P3/8 b - -
8/8/4k3/8/8/4K3/4P3/8 b - - 12 40;
`
	got, err := readPositions(strings.NewReader(text), "t.epd")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -",
		"8/8/4k3/8/8/4K3/4P3/8 b - -",
		"8/8/4k3/8/8/4K3/4P3/8 b - - 12 40",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("ReadPositions = %q, want %q", got, want)
	}
	_, err = readPositions(strings.NewReader("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1\n8/8/8/8/8/8/8/8 w - -\n"), "t.epd")
	if err == nil || !strings.HasPrefix(err.Error(), "t.epd:2: ") {
		t.Errorf("a position without kings: error %v, expected one starting t.epd:2:", err)
	}
	if _, err = readPositions(strings.NewReader("# nothing\n"), "e.epd"); err == nil || !strings.Contains(err.Error(), "e.epd: no positions") {
		t.Errorf("empty file: error %v", err)
	}
}

func TestWriteValues(t *testing.T) {
	data, err := os.ReadFile(nnTestdata + "golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Positions []struct {
			FEN   string  `json:"fen"`
			Value float64 `json:"value"`
		} `json:"positions"`
	}
	if err := json.Unmarshal(data, &g); err != nil || len(g.Positions) < 20 {
		t.Fatalf("golden.json: %v, %d positions", err, len(g.Positions))
	}
	n, _, err := nn.Load(fixture.Gunzip(t, nnTestdata+"valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	fens := make([]string, len(g.Positions))
	for i, p := range g.Positions {
		fens[i] = p.FEN
	}
	var out bytes.Buffer
	if err := writeValues(&out, n, fens); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(fens) {
		t.Fatalf("%d lines for %d positions", len(lines), len(fens))
	}
	for i, line := range lines {
		fen, value, ok := strings.Cut(line, "\t")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || fen != fens[i] || err != nil || len(value) < len("0.000000") {
			t.Fatalf("line %q: expected FEN, tab, value with 6 decimals", line)
		}
		if d := v - g.Positions[i].Value; d > 1e-6 || d < -1e-6 {
			t.Errorf("%s: printed %s, PyTorch %.7f", fen, value, g.Positions[i].Value)
		}
	}
	if err := writeValues(&out, n, []string{"8/8/8/8/8/8/8/8 w - - 0 1"}); err == nil || !strings.Contains(err.Error(), "8/8/8/8/8/8/8/8") {
		t.Errorf("bad FEN: error %v, expected one quoting it", err)
	}
}
