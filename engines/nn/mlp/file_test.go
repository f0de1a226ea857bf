package mlp

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/engines/nn"
)

func encode(t testing.TB, m *Model, extra map[string]string) []byte {
	var b bytes.Buffer
	if err := m.WriteSafetensors(&b, extra); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSaveLoadRoundTrip checks that a saved model loads back bit for bit,
// architecture and caller metadata included, and computes the same outputs.
func TestSaveLoadRoundTrip(t *testing.T) {
	m, err := New(mixedArch(), 9)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range m.Params {
		m.Params[i] = float32(rng.NormFloat64()) // arbitrary bits, biases too
	}
	path := filepath.Join(t.TempDir(), "net.safetensors")
	extra := map[string]string{"training": "test", "data": "none"}
	if err := m.Save(path, extra); err != nil {
		t.Fatal(err)
	}
	arch := mixedArch()
	got, md, err := Load(path, &arch)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Params, m.Params) || !got.Arch.Equal(&m.Arch) || len(md) != 2 || md["training"] != "test" || md["data"] != "none" {
		t.Fatalf("round trip: arch %s, metadata %v, params equal %v", &got.Arch, md, slices.Equal(got.Params, m.Params))
	}
	in := randInputs(rng, m.Arch.Inputs)
	var a, b [2]float32
	n1, _ := m.Compile()
	n2, _ := got.Compile()
	n1.NewEvaluator(1).Forward(in, a[:])
	n2.NewEvaluator(1).Forward(in, b[:])
	if a != b {
		t.Fatalf("outputs %v before saving, %v after loading", a, b)
	}
	other := mixedArch()
	other.Name = "mixed-test-2"
	if _, _, err := Load(path, &other); err == nil || !strings.Contains(err.Error(), "expected {\"name\":\"mixed-test-2\"") {
		t.Fatalf("Load with another architecture: %v", err)
	}
	if err := m.Save(path, map[string]string{"mlp": "x"}); err == nil || !strings.Contains(err.Error(), "reserved") {
		t.Fatalf("saving with a reserved metadata key: %v", err)
	}
}

// corrupt rewrites a valid model's file with edit applied to its tensors
// or metadata.
func corrupt(t *testing.T, m *Model, edit func(w *nn.Weights, md map[string]string)) []byte {
	w, md, err := nn.ParseSafetensors(encode(t, m, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	edit(w, md)
	var b bytes.Buffer
	if err := nn.EncodeSafetensors(&b, w, md); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestReadErrors checks that each kind of bad file is refused with an
// error naming the problem.
func TestReadErrors(t *testing.T) {
	m, err := New(mixedArch(), 1)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		edit func(w *nn.Weights, md map[string]string)
		want string
	}{
		{"missing tensor", func(w *nn.Weights, _ map[string]string) { w.Tensors = w.Tensors[1:] },
			"tensor group0.0.weight missing (expected shape [7 5]"},
		{"wrong shape", func(w *nn.Weights, _ map[string]string) {
			t := w.Tensor("layer1.weight")
			t.Shape = []int{t.Shape[1], t.Shape[0]}
		}, "tensor layer1.weight has shape [9 6], expected [6 9]"},
		{"extra tensor", func(w *nn.Weights, _ map[string]string) {
			w.Tensors = append(w.Tensors, nn.Tensor{Name: "layer9.bias", DType: nn.F32, Shape: []int{1}, F32: []float32{0}})
		}, "unexpected tensor(s) layer9.bias"},
		{"NaN", func(w *nn.Weights, _ map[string]string) { w.Tensor("layer2.bias").F32[1] = float32(math.NaN()) },
			"tensor layer2.bias: element 1 is NaN"},
		{"infinity", func(w *nn.Weights, _ map[string]string) { w.Tensor("group1.0.weight").F32[3] = float32(math.Inf(-1)) },
			"tensor group1.0.weight: element 3 is -Inf"},
		{"integer tensor", func(w *nn.Weights, _ map[string]string) {
			t := w.Tensor("layer0.bias")
			t.DType, t.I64, t.F32 = nn.I64, make([]int64, len(t.F32)), nil
		}, "tensor layer0.bias has type I64"},
		{"no shape metadata", func(_ *nn.Weights, md map[string]string) { delete(md, MetaShape) },
			`no "mlp" entry: architecture "mixed-test" is not an mlp model`},
		{"no architecture", func(_ *nn.Weights, md map[string]string) { delete(md, MetaArchitecture) },
			`no "architecture" entry`},
		{"tag mismatch", func(_ *nn.Weights, md map[string]string) { md[MetaArchitecture] = "ValueNet-thesis" },
			`names architecture "mixed-test", metadata architecture "ValueNet-thesis"`},
		{"bad activation", func(_ *nn.Weights, md map[string]string) {
			md[MetaShape] = strings.Replace(md[MetaShape], "sigmoid", "softplus", 1)
		}, `activation "softplus" unknown`},
		{"huge layer", func(_ *nn.Weights, md map[string]string) {
			md[MetaShape] = strings.Replace(md[MetaShape], `"out":9`, `"out":60000`, 1)
		}, "tensor layer0.weight has shape [9 8], expected [60000 8]"},
	}
	for _, c := range cases {
		_, _, err := ReadSafetensors(corrupt(t, m, c.edit))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.safetensors")
	if err := os.WriteFile(path, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadFile(path); err == nil || !strings.HasPrefix(err.Error(), "model "+path+": ") {
		t.Errorf("ReadFile of garbage: %v, want an error starting with the path", err)
	}
}

func FuzzReadSafetensors(f *testing.F) {
	m, err := New(mixedArch(), 1)
	if err != nil {
		f.Fatal(err)
	}
	valid := encode(f, m, map[string]string{"training": "seed"})
	f.Add(valid)
	f.Add(valid[:len(valid)/2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, md, err := ReadSafetensors(data)
		if err != nil {
			return
		}
		// Whatever loads must run and save back to the same model.
		net, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		out := make([]float32, m.Arch.Outputs())
		net.NewEvaluator(1).Forward(make([]float32, m.Arch.Inputs), out)
		again, _, err := ReadSafetensors(encode(t, m, md))
		if err != nil || !slices.Equal(again.Params, m.Params) || !again.Arch.Equal(&m.Arch) {
			t.Fatalf("re-encoded model does not read back the same: %v", err)
		}
	})
}
