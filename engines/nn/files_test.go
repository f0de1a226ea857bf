package nn

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/internal/fixture"
)

// smallSafetensors is a valid two-tensor file (not a ValueNet) for the
// container tests and the fuzz corpus.
func smallSafetensors(t testing.TB) []byte {
	t.Helper()
	w := &Weights{Tensors: []Tensor{
		{Name: "a", DType: F32, Shape: []int{2, 2}, F32: []float32{1, -2, 3.5, 0}},
		{Name: "n", DType: I64, Shape: []int{}, I64: []int64{7}},
	}}
	var buf bytes.Buffer
	if err := WriteSafetensors(&buf, w, Meta{HasGeneration: true, Generation: 2, Training: "x"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawSafetensors builds a file from a header text and a data section.
func rawSafetensors(header string, data []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(out, header...), data...)
}

func TestReadSafetensorsSmall(t *testing.T) {
	w, meta, err := ReadSafetensors(smallSafetensors(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Tensors) != 2 || !slices.Equal(w.Tensor("a").F32, []float32{1, -2, 3.5, 0}) || w.Tensor("n").I64[0] != 7 || len(w.Tensor("n").Shape) != 0 {
		t.Fatalf("tensors %+v", w.Tensors)
	}
	if meta.Generation != 2 || !meta.HasGeneration || meta.HasBestWR || meta.Training != "x" || meta.Architecture != Architecture {
		t.Fatalf("meta %+v", meta)
	}

	// Other float widths are converted.
	f16 := rawSafetensors(`{"h":{"dtype":"F16","shape":[3],"data_offsets":[0,6]},"b":{"dtype":"BF16","shape":[1],"data_offsets":[6,8]},"d":{"dtype":"F64","shape":[1],"data_offsets":[8,16]}}`,
		[]byte{0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0, 0x04, 0x40})
	w, _, err = ReadSafetensors(f16)
	if err != nil {
		t.Fatal(err)
	}
	if h := w.Tensor("h").F32; h[0] != 1 || h[1] != -2 || h[2] != float32(math.Ldexp(1, -24)) {
		t.Errorf("F16 [1, -2, smallest subnormal] read as %v", h)
	}
	if b := w.Tensor("b").F32; b[0] != 1.5 {
		t.Errorf("BF16 1.5 read as %v", b)
	}
	if d := w.Tensor("d").F32; d[0] != 2.5 {
		t.Errorf("F64 2.5 read as %v", d)
	}
}

func TestReadSafetensorsErrors(t *testing.T) {
	good := smallSafetensors(t)
	four := []byte{0, 0, 0x80, 0x3f}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "0 bytes, too short"},
		{"truncated data", good[:len(good)-3], "outside the"},
		{"truncated header", good[:20], "header length"},
		{"foreign text", []byte("PK\x03\x04 this is some zip-like text, not a model"), "not a safetensors file"},
		{"not an object", rawSafetensors(`[1, 2]`, nil), "does not start with '{'"},
		{"bad JSON", rawSafetensors(`{"a": {"dtype": }`, nil), "header JSON invalid at file byte 24"},
		{"unknown dtype", rawSafetensors(`{"a":{"dtype":"Q8","shape":[1],"data_offsets":[0,1]}}`, []byte{1}), `tensor a: dtype "Q8" not supported`},
		{"size mismatch", rawSafetensors(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}`, four), "needs 8 bytes"},
		{"negative dim", rawSafetensors(`{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}`, four), "impossible"},
		{"huge shape", rawSafetensors(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}`, four), "impossible"},
		{"one offset", rawSafetensors(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0]}}`, four), "expected [begin, end]"},
		{"unknown field", rawSafetensors(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":1}}`, four), "tensor a: entry JSON"},
		{"gap", rawSafetensors(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, append(four, four...)), "data starts at byte 4 of the data section (file byte 66)"},
		{"overlap", rawSafetensors(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, four), "contiguous"},
		{"trailing data", rawSafetensors(`{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, append(four, 9)), "data section is 5 bytes but the tensors cover 4"},
		{"metadata not strings", rawSafetensors(`{"__metadata__":{"generation":3}}`, nil), "expected a map of strings"},
		{"other architecture", rawSafetensors(`{"__metadata__":{"architecture":"resnet"}}`, nil), `architecture is "resnet", expected "ValueNet-thesis"`},
		{"bad generation", rawSafetensors(`{"__metadata__":{"generation":"three"}}`, nil), `generation is "three", expected an integer`},
		{"bad best_wr", rawSafetensors(`{"__metadata__":{"best_wr":"high"}}`, nil), `best_wr is "high", expected a number`},
	} {
		_, _, err := ReadSafetensors(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, expected one containing %q", c.name, err, c.want)
		}
	}
}

// FuzzReadSafetensors: the reader never panics, and whatever it accepts
// writes back and reads again to the same tensors.
func FuzzReadSafetensors(f *testing.F) {
	good := smallSafetensors(f)
	f.Add(good)
	f.Add(good[:len(good)-1])
	f.Add(rawSafetensors(`{"h":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}}`, []byte{0, 0x3c}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		w, meta, err := ReadSafetensors(data)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteSafetensors(&buf, w, meta); err != nil {
			t.Fatal(err)
		}
		w2, _, err := ReadSafetensors(buf.Bytes())
		if err != nil {
			t.Fatalf("re-reading what was written: %v", err)
		}
		if len(w2.Tensors) != len(w.Tensors) {
			t.Fatalf("%d tensors, then %d", len(w.Tensors), len(w2.Tensors))
		}
		for _, a := range w.Tensors {
			b := w2.Tensor(a.Name)
			if b == nil || !slices.Equal(a.Shape, b.Shape) || a.DType != b.DType || len(a.F32) != len(b.F32) || !slices.Equal(a.I64, b.I64) {
				t.Fatalf("tensor %q changed in the round trip", a.Name)
			}
			for i := range a.F32 {
				if math.Float32bits(a.F32[i]) != math.Float32bits(b.F32[i]) {
					t.Fatalf("tensor %q element %d changed", a.Name, i)
				}
			}
		}
	})
}

func TestValidate(t *testing.T) {
	base, _, err := ReadFile(fixture.Gunzip(t, "testdata/valuenet_state.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	clone := func() *Weights {
		w := &Weights{Tensors: slices.Clone(base.Tensors)}
		for i := range w.Tensors {
			w.Tensors[i].F32 = slices.Clone(w.Tensors[i].F32)
		}
		return w
	}
	for _, c := range []struct {
		name   string
		change func(w *Weights)
		want   string
	}{
		{"missing", func(w *Weights) { w.Tensors = slices.Delete(w.Tensors, 3, 4) }, "tensor body.1.bias missing (expected shape [64]"},
		{"shape", func(w *Weights) { w.Tensor("head.1.weight").Shape = []int{128, 4096} }, "tensor head.1.weight has shape [128 4096], expected [256 2048]"},
		{"extra", func(w *Weights) {
			w.Tensors = append(w.Tensors, Tensor{Name: "head.5.weight", DType: F32, Shape: []int{1}, F32: []float32{1}})
		}, "unexpected tensor(s) head.5.weight"},
		{"duplicate", func(w *Weights) { w.Tensors = append(w.Tensors, w.Tensors[0]) }, "body.0.weight appears twice"},
		{"type", func(w *Weights) {
			w.Tensor("body.0.bias").DType = I64
		}, "tensor body.0.bias has type I64, expected F32"},
		{"nan", func(w *Weights) { w.Tensor("body.3.weight").F32[5] = float32(math.NaN()) }, "tensor body.3.weight: element 5 is NaN"},
		{"variance", func(w *Weights) { w.Tensor("body.4.running_var").F32[2] = -1 }, "body.4.running_var: element 2 is -1, expected a variance >= 0"},
		{"short data", func(w *Weights) { w.Tensor("head.3.bias").F32 = nil }, "tensor head.3.bias holds 0 values, its shape [1] needs 1"},
	} {
		w := clone()
		c.change(w)
		err := w.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, expected one containing %q", c.name, err, c.want)
		}
	}

	// num_batches_tracked is optional (older PyTorch), and order is restored.
	w := clone()
	w.Tensors = slices.DeleteFunc(w.Tensors, func(t Tensor) bool { return strings.HasSuffix(t.Name, "num_batches_tracked") })
	slices.Reverse(w.Tensors)
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	if w.Tensors[0].Name != "body.0.weight" || w.Tensors[len(w.Tensors)-1].Name != "head.3.bias" {
		t.Errorf("Validate left the order %s ... %s", w.Tensors[0].Name, w.Tensors[len(w.Tensors)-1].Name)
	}
	trainable, buffers := base.ParamCounts()
	if trainable != 757985 || buffers != 643 {
		t.Errorf("ParamCounts = %d, %d; PyTorch counts 757985 parameters, and there are 2*320+3 BatchNorm buffers", trainable, buffers)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pt, err := os.ReadFile(fixture.Gunzip(t, "testdata/valuenet_ckpt.pt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope.pt")
	for _, c := range []struct {
		path, want string
	}{
		{missing, missing + ": no such file"},
		{write("trunc.pt", pt[:len(pt)/2]), "trunc.pt: zip archive of 1521409 bytes unreadable (truncated or damaged?)"},
		{write("legacy.pt", []byte{0x80, 0x02, 0x8a, 0x0a}), "legacy (pre-zip) torch.save format"},
		{write("small.safetensors", smallSafetensors(t)), "small.safetensors: tensor body.0.weight missing"},
	} {
		_, _, err := Load(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s): error %v, expected one containing %q", filepath.Base(c.path), err, c.want)
		}
	}
}

func TestDenseIndex(t *testing.T) {
	// A transposed 2x3 view of a 3x2 storage, at offset 1.
	got, err := denseIndex([]int{2, 3}, []int{1, 2}, 1, 7)
	if err != nil || !slices.Equal(got, []int{1, 3, 5, 2, 4, 6}) {
		t.Errorf("denseIndex = %v, %v", got, err)
	}
	for _, c := range []struct {
		size, stride []int
		offset, n    int
	}{
		{[]int{2, 3}, []int{3, 1}, 1, 6}, // one past the end
		{[]int{2}, []int{-1}, 1, 6},      // negative stride
		{[]int{2, 3}, []int{1}, 0, 6},    // rank mismatch
		{[]int{1 << 40}, []int{1}, 0, 6}, // larger than the storage
		{[]int{2}, []int{1 << 62}, 0, 6}, // stride overflow
	} {
		if _, err := denseIndex(c.size, c.stride, c.offset, c.n); err == nil {
			t.Errorf("denseIndex(%v, %v, %d, %d) accepted", c.size, c.stride, c.offset, c.n)
		}
	}
}
