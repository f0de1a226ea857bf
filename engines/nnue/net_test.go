package nnue

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/board"
)

func writeNet(t testing.TB, n *Net) string {
	t.Helper()
	data, err := n.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.nnue")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestNetFileRoundTrip(t *testing.T) {
	for _, act := range []Activation{SCReLU, CReLU} {
		n := RandomNet(1, 24, act)
		got, err := Load(writeNet(t, n))
		if err != nil {
			t.Fatal(err)
		}
		if got.Hidden != 24 || got.QA != 255 || got.QB != 64 || got.Scale != 400 || got.Activation != act ||
			got.OutputBias != n.OutputBias || got.CRC != n.CRC || got.CRC == 0 ||
			!slicesEqual(got.FeatureWeights, n.FeatureWeights) || !slicesEqual(got.FeatureBias, n.FeatureBias) ||
			!slicesEqual(got.OutputWeights, n.OutputWeights) {
			t.Errorf("%v: the net read back differs from the net written", act)
		}
	}
}

func slicesEqual(a, b []int16) bool { return bytes.Equal(int16Bytes(a), int16Bytes(b)) }

func int16Bytes(v []int16) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, v)
	return b.Bytes()
}

// TestNetFileErrors: every malformed file is refused with an error that
// names the file and what is wrong.
func TestNetFileErrors(t *testing.T) {
	good, err := RandomNet(2, 16, SCReLU).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	header := func(field int, v uint32) []byte {
		return edit(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(Magic)+4*field:], v)
			return b
		})
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "too short"},
		{"magic", edit(func(b []byte) []byte { copy(b, "PK\x03\x04"); return b }), "bad magic"},
		{"version", edit(func(b []byte) []byte { b[7] = 2; return b }), "format version 2"},
		{"inputs", header(0, 769), "inputs 769, expected 768"},
		{"hidden", header(1, 0), "hidden width 0"},
		{"QA", header(2, 5000), "QA=5000"},
		{"activation", header(5, 3), "activation 3"},
		{"truncated", good[:len(good)-10], "expected"},
		{"longer", append(append([]byte(nil), good...), 0), "bytes, expected"},
		{"width", header(1, 17), "expected"},
		{"crc", edit(func(b []byte) []byte { b[headerSize+5] ^= 1; return b }), "CRC mismatch"},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), c.name+".nnue")
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", c.name, err, path, c.want)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.nnue")); err == nil || !strings.Contains(err.Error(), "none.nnue") {
		t.Errorf("missing file: %v", err)
	}
}

// TestHandNet evaluates a two-neuron net whose output is computed by hand
// in the comments, with both activations and both sides to move; the
// divisions truncate toward zero.
func TestHandNet(t *testing.T) {
	n := &Net{Hidden: 2, QA: 255, QB: 64, Scale: 400, FeatureWeights: make([]int16, Inputs*2),
		FeatureBias: []int16{5, -10}, OutputWeights: []int16{2, 3, -4, 1}, OutputBias: 1000}
	for sq := 0; sq < 64; sq++ {
		own := (0*384 + 4*64 + sq) * 2   // a queen of the perspective's side
		other := (1*384 + 4*64 + sq) * 2 // a queen of the other side
		n.FeatureWeights[own] = 100
		n.FeatureWeights[other+1] = 50
	}
	// White's accumulator: bias + own queen = (105, -10); Black's: bias +
	// other queen = (5, 40).
	cases := []struct {
		act  Activation
		fen  string
		want int32
	}{
		// White to move, SCReLU: (105^2*2 + 0*3 + 5^2*-4 + 40^2*1) / 255 =
		// 23550/255 = 92; (92 + 1000) * 400 / (255*64) = 436800/16320 = 26.
		{SCReLU, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", 26},
		// Black to move: (5^2*2 + 40^2*3 + 105^2*-4 + 0) / 255 = -39250/255
		// = -153; (-153 + 1000) * 400 / 16320 = 338800/16320 = 20.
		{SCReLU, "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1", 20},
		// White to move, clipped ReLU: 105*2 + 0*3 + 5*-4 + 40*1 = 230;
		// (230 + 1000) * 400 / 16320 = 30.
		{CReLU, "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", 30},
		// The colours swapped (Black's queen on a8, Black to move): Black
		// sees its own queen on a1, so this is the same position to the net.
		{CReLU, "q3k3/8/8/8/8/8/8/4K3 b - - 0 1", 30},
	}
	for _, c := range cases {
		n.Activation = c.act
		p, err := board.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := n.Evaluate(p); got != c.want {
			t.Errorf("%v %s: %d, want %d", c.act, c.fen, got, c.want)
		}
		for _, k := range paths() {
			e := newEvaluator(n, k)
			e.SetRoot(p)
			if got := e.Evaluate(p); got != c.want {
				t.Errorf("%s kernels: %v %s: %d, want %d", k.name, c.act, c.fen, got, c.want)
			}
		}
	}
}
