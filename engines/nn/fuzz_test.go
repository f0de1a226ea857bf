package nn

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// tinyTorch is a small torch.save zip archive: data.pkl is a dict holding
// one float tensor of two elements whose storage is the record data/0.
func tinyTorch(t testing.TB) []byte {
	str := func(s string) []byte { // BINUNICODE
		b := []byte{'X', 0, 0, 0, 0}
		binary.LittleEndian.PutUint32(b[1:], uint32(len(s)))
		return append(b, s...)
	}
	var p bytes.Buffer
	p.Write([]byte{0x80, 2, '}'})
	p.Write(str("fc.weight"))
	p.WriteString("ctorch._utils\n_rebuild_tensor_v2\n(")
	p.WriteString("(")
	p.Write(str("storage"))
	p.WriteString("ctorch\nFloatStorage\n")
	p.Write(str("0"))
	p.Write(str("cpu"))
	p.Write([]byte{'K', 2, 't', 'Q'})                   // size 2, tuple, persistent id
	p.Write([]byte{'K', 0, 'K', 2, 0x85, 'K', 1, 0x85}) // offset 0, size (2,), stride (1,)
	p.Write([]byte{0x89, '}', 't', 'R', 's', '.'})      // requires_grad False, hooks {}, call, setitem
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	for _, rec := range []struct {
		name string
		data []byte
	}{
		{"archive/data.pkl", p.Bytes()},
		{"archive/data/0", binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, math.Float32bits(1)), math.Float32bits(-2))},
	} {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: rec.name, Method: zip.Store})
		if err == nil {
			_, err = f.Write(rec.data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

// TestFuzzSeeds checks that the hand-made seed is what it claims, so the
// fuzzer starts from an archive that reaches deep into the reader.
func TestFuzzSeeds(t *testing.T) {
	w, _, err := ReadPyTorch(tinyTorch(t))
	if err != nil || len(w.Tensors) != 1 || len(w.Tensors[0].F32) != 2 || w.Tensors[0].F32[1] != -2 {
		t.Errorf("torch seed: %+v, %v", w, err)
	}
}

// checkLoaded: whatever the reader accepts has tensors whose data matches
// their shape, and validation either passes or says why.
func checkLoaded(t *testing.T, w *Weights) {
	for _, tn := range w.Tensors {
		n := 1
		for _, d := range tn.Shape {
			if d < 0 {
				t.Fatalf("tensor %s: negative dimension in %v", tn.Name, tn.Shape)
			}
			n *= d
		}
		if got := len(tn.F32) + len(tn.I64); got != n {
			t.Fatalf("tensor %s: shape %v but %d values", tn.Name, tn.Shape, got)
		}
	}
	if err := w.Validate(); err == nil {
		if _, err := New(w); err != nil {
			t.Fatalf("validated weights do not build a net: %v", err)
		}
	}
}

func FuzzReadPyTorch(f *testing.F) {
	f.Add(tinyTorch(f))
	f.Add([]byte{0x80, 2, '}', '.'})
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if w, _, err := ReadPyTorch(data); err == nil {
			checkLoaded(t, w)
		}
	})
}
