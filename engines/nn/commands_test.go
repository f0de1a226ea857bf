package nn

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	var out bytes.Buffer
	if err := Describe(&out, "testdata/valuenet_ckpt.pt"); err != nil {
		t.Fatal(err)
	}
	// Compare with the column alignment removed.
	var lines []string
	for _, line := range strings.Split(out.String(), "\n") {
		lines = append(lines, strings.Join(strings.Fields(line), " "))
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"\nformat " + FormatTorchCheckpoint + "\n",
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
}

func TestConvert(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.safetensors")
	if _, err := Convert("testdata/valuenet_ckpt.pt", out, "self-play, 3 generations"); err != nil {
		t.Fatal(err)
	}
	_, meta, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Format != FormatSafetensors || meta.Generation != 3 || meta.BestWR != 0.55 || meta.Source != "valuenet_ckpt.pt" || meta.Training != "self-play, 3 generations" {
		t.Errorf("converted file's metadata %+v", meta)
	}
	// Converting the safetensors again keeps the original source.
	out2 := filepath.Join(t.TempDir(), "m2.safetensors")
	if meta, err = Convert(out, out2, ""); err != nil {
		t.Fatal(err)
	}
	if meta.Source != "valuenet_ckpt.pt" || meta.Training != "self-play, 3 generations" {
		t.Errorf("second conversion's metadata %+v", meta)
	}
	if _, err := Convert("testdata/golden.json", out, ""); err == nil || !strings.Contains(err.Error(), "golden.json") {
		t.Errorf("converting a JSON file: error %v, expected one naming it", err)
	}
}

func TestReadPositions(t *testing.T) {
	text := `# comment
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5; id "spanish";
8/8/4k3/8/8/4K3/4P3/8 b - -
8/8/4k3/8/8/4K3/4P3/8 b - - 12 40;
`
	got, err := ReadPositions(strings.NewReader(text), "t.epd")
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
	_, err = ReadPositions(strings.NewReader("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1\n8/8/8/8/8/8/8/8 w - -\n"), "t.epd")
	if err == nil || !strings.HasPrefix(err.Error(), "t.epd:2: ") {
		t.Errorf("a position without kings: error %v, expected one starting t.epd:2:", err)
	}
	if _, err = ReadPositions(strings.NewReader("# nothing\n"), "e.epd"); err == nil || !strings.Contains(err.Error(), "e.epd: no positions") {
		t.Errorf("empty file: error %v", err)
	}
}

func TestWriteValues(t *testing.T) {
	g := readGolden(t)
	n, _, err := Load("testdata/valuenet_state.pt")
	if err != nil {
		t.Fatal(err)
	}
	fens := make([]string, len(g.Positions))
	for i, p := range g.Positions {
		fens[i] = p.FEN
	}
	var out bytes.Buffer
	if err := WriteValues(&out, n, fens); err != nil {
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
	if err := WriteValues(&out, n, []string{"8/8/8/8/8/8/8/8 w - - 0 1"}); err == nil || !strings.Contains(err.Error(), "8/8/8/8/8/8/8/8") {
		t.Errorf("bad FEN: error %v, expected one quoting it", err)
	}
}
