package nn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/engines/board"

	"arena/engines/nn/gemm"
	"arena/internal/fixture"
)

// golden is testdata/golden.json, written by testdata/make_fixtures.py from
// PyTorch 1.13 in eval mode.
type golden struct {
	Positions []struct {
		FEN    string  `json:"fen"`
		Pieces int     `json:"pieces"`
		Value  float64 `json:"value"`
	} `json:"positions"`
}

func readGolden(t testing.TB) golden {
	t.Helper()
	data, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Positions) < 20 {
		t.Fatalf("golden.json has %d positions, expected at least 20", len(g.Positions))
	}
	return g
}

// goldenInputs encodes the golden positions through board.Position, and
// checks that ParsePlacement + SetPlacement encode them identically.
func goldenInputs(t testing.TB, g golden) []Input {
	t.Helper()
	in := make([]Input, len(g.Positions))
	for i, p := range g.Positions {
		pos, err := board.ParseFEN(p.FEN)
		if err != nil {
			t.Fatal(err)
		}
		in[i].SetPosition(pos)
		pl, err := ParsePlacement(p.FEN)
		if err != nil {
			t.Fatal(err)
		}
		var viaPlacement Input
		viaPlacement.SetPlacement(&pl)
		if viaPlacement != in[i] {
			t.Fatalf("%s: SetPlacement and SetPosition encode differently", p.FEN)
		}
		var sum float32
		for _, v := range in[i] {
			sum += v
		}
		if int(sum) != p.Pieces {
			t.Fatalf("%s: %v ones in the planes, PyTorch's encoding has %d", p.FEN, sum, p.Pieces)
		}
	}
	return in
}

func TestGoldenPyTorch(t *testing.T) {
	g := readGolden(t)
	inputs := goldenInputs(t, g)
	for _, file := range []string{"valuenet_state.pt", "valuenet_ckpt.pt"} {
		w, meta, err := ReadFile(fixture.Gunzip(t, filepath.Join("testdata", file+".gz")))
		if err != nil {
			t.Fatal(err)
		}
		var portable []float32
		for _, k := range append([]*gemm.Kernels{gemm.Portable()}, gemm.Available()...) {
			n, err := newWithKernel(w, k)
			if err != nil {
				t.Fatal(err)
			}
			e := n.NewEvaluator()
			single := make([]float32, len(inputs))
			for i, p := range g.Positions {
				single[i] = e.Evaluate(&inputs[i])
				if d := math.Abs(float64(single[i]) - p.Value); d > 1e-5 {
					t.Errorf("%s, kernel %s: %s = %.7f, PyTorch %.7f (diff %.2g)", file, k.Name, p.FEN, single[i], p.Value, d)
				}
				if portable != nil && math.Abs(float64(single[i]-portable[i])) > 2e-6 {
					t.Errorf("%s, kernel %s: %s = %.7f, portable kernel %.7f", file, k.Name, p.FEN, single[i], portable[i])
				}
			}
			if portable == nil {
				portable = single
			}
			batch := make([]float32, len(inputs))
			e.EvaluateBatch(inputs, batch)
			if !slices.Equal(single, batch) {
				t.Errorf("%s, kernel %s: batched values %v differ from one-by-one %v", file, k.Name, batch, single)
			}
		}
		switch file {
		case "valuenet_state.pt":
			if meta.Format != FormatTorchStateDict || meta.HasGeneration || meta.HasBestWR {
				t.Errorf("%s: meta %+v, expected a raw state_dict without generation", file, meta)
			}
		case "valuenet_ckpt.pt":
			if meta.Format != FormatTorchCheckpoint || meta.Generation != 3 || !meta.HasGeneration || meta.BestWR != 0.55 || !meta.HasBestWR {
				t.Errorf("%s: meta %+v, expected a checkpoint with g 3, best_wr 0.55", file, meta)
			}
		}
	}
}

// TestBatchSizes runs every batch size across the chunk and tile boundaries:
// with the bounds-checked Go kernel this checks the row tables (which the
// assembly kernels trust), and every kernel must give each position the
// value it gets alone.
func TestBatchSizes(t *testing.T) {
	g := readGolden(t)
	inputs := goldenInputs(t, g)
	w, _, err := ReadFile(fixture.Gunzip(t, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	var many []Input
	for len(many) < 2*chunkBoards+7 {
		many = append(many, inputs...)
	}
	for _, k := range gemm.Available() {
		n, err := newWithKernel(w, k)
		if err != nil {
			t.Fatal(err)
		}
		e := n.NewEvaluator()
		want := make([]float32, len(inputs))
		for i := range inputs {
			want[i] = e.Evaluate(&inputs[i])
		}
		// Tail sizes around the tile height (row kernel or padded tile for the
		// linear layer), around the chunk, and several chunks.
		sizes := []int{1, 2, 3, k.MR - 1, k.MR, k.MR + 1, k.MR + 3, chunkBoards - 1, chunkBoards, chunkBoards + 1}
		if k != gemm.Portable() { // slow, and its bounds are covered by the sizes above
			sizes = append(sizes, len(many))
		}
		for _, size := range sizes {
			out := make([]float32, size)
			e.EvaluateBatch(many[:size], out)
			for i, v := range out {
				if v != want[i%len(inputs)] {
					t.Fatalf("kernel %s, batch %d: position %d = %v, alone %v", k.Name, size, i, v, want[i%len(inputs)])
				}
			}
		}
	}
}

func TestSafetensorsRoundTrip(t *testing.T) {
	w, meta, err := ReadFile(fixture.Gunzip(t, "testdata/valuenet_ckpt.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	meta.Training = "make_fixtures.py: 60 Adam steps on random material-balance boards"
	meta.Source = "valuenet_ckpt.pt"
	path := filepath.Join(t.TempDir(), "v.safetensors")
	if err := SaveSafetensors(path, w, meta); err != nil {
		t.Fatal(err)
	}
	w2, meta2, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(w2.Tensors) != len(w.Tensors) || len(w.Tensors) != len(spec) {
		t.Fatalf("%d tensors after the round trip, %d before, spec has %d", len(w2.Tensors), len(w.Tensors), len(spec))
	}
	for i := range w.Tensors {
		a, b := &w.Tensors[i], &w2.Tensors[i]
		if a.Name != b.Name || a.DType != b.DType || !slices.Equal(a.Shape, b.Shape) || !slices.Equal(a.F32, b.F32) || !slices.Equal(a.I64, b.I64) {
			t.Fatalf("tensor %d: %s %s %v differs after the round trip (%s %s %v)", i, a.Name, a.DType, a.Shape, b.Name, b.DType, b.Shape)
		}
	}
	if nbt := w2.Tensor("body.1.num_batches_tracked"); nbt == nil || len(nbt.I64) != 1 || nbt.I64[0] != 60 {
		t.Errorf("body.1.num_batches_tracked = %+v, expected the 60 training steps", nbt)
	}
	meta2.Format = meta.Format
	if meta2.Architecture != Architecture || meta2.Generation != 3 || meta2.BestWR != 0.55 || meta2.Training != meta.Training || meta2.Source != meta.Source {
		t.Errorf("metadata after the round trip %+v, expected %+v", meta2, meta)
	}

	g := readGolden(t)
	inputs := goldenInputs(t, g)
	n1, err := New(w)
	if err != nil {
		t.Fatal(err)
	}
	n2, _, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range inputs {
		if a, b := n1.Evaluate(&inputs[i]), n2.Evaluate(&inputs[i]); a != b {
			t.Errorf("%s: %v from the .pt, %v from the .safetensors", g.Positions[i].FEN, a, b)
		}
	}

	// The file is byte-for-byte what WriteSafetensors produces.
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, w2, meta2); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Error("writing the re-read weights gives a different file")
	}
}

func TestEvaluateAllocatesNothing(t *testing.T) {
	n, _, err := Load(fixture.Gunzip(t, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	e := n.NewEvaluator()
	in := make([]Input, 40)
	out := make([]float32, len(in))
	if a := testing.AllocsPerRun(5, func() { e.Evaluate(&in[0]) }); a != 0 {
		t.Errorf("Evaluate allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(5, func() { e.EvaluateBatch(in, out) }); a != 0 {
		t.Errorf("EvaluateBatch allocates %v times per call", a)
	}
}

// TestNetConcurrent evaluates through the Net's pooled evaluators from
// several goroutines at once.
func TestNetConcurrent(t *testing.T) {
	g := readGolden(t)
	inputs := goldenInputs(t, g)
	n, _, err := Load(fixture.Gunzip(t, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float32, len(inputs))
	n.NewEvaluator().EvaluateBatch(inputs, want)
	errs := make(chan string, 4)
	for w := range 4 {
		go func() {
			out := make([]float32, len(inputs))
			for round := range 5 {
				if (w+round)%2 == 0 {
					n.EvaluateBatch(inputs, out)
				} else {
					for i := range inputs {
						out[i] = n.Evaluate(&inputs[i])
					}
				}
				if !slices.Equal(out, want) {
					errs <- fmt.Sprintf("goroutine %d round %d: %v, want %v", w, round, out, want)
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if msg := <-errs; msg != "" {
			t.Error(msg)
		}
	}
}

// TestForcedKernel: ARENA_GEMM picks the kernel of every new Net, and a bad
// value is an error naming the variable.
func TestForcedKernel(t *testing.T) {
	w, _, err := ReadFile(fixture.Gunzip(t, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range gemm.Available() {
		t.Setenv(gemm.EnvVar, k.Name)
		n, err := New(w)
		if err != nil || n.Kernel() != k.Name {
			t.Fatalf("%s=%s: New gave kernel %v, %v", gemm.EnvVar, k.Name, n, err)
		}
	}
	t.Setenv(gemm.EnvVar, "avx9000")
	if _, err := New(w); err == nil || !strings.Contains(err.Error(), gemm.EnvVar+"=avx9000") {
		t.Fatalf("%s=avx9000: New: %v, want an error naming the variable", gemm.EnvVar, err)
	}
}
