package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
)

// Magic opens every net file: "ARNNUE", a zero byte and the format version.
const Magic = "ARNNUE\x00\x01"

// Inputs is the number of input features: 2 colours x 6 piece types x 64
// squares, seen from one side.
const Inputs = 768

// Activation is the hidden layer's activation.
type Activation uint32

// The activations a net file may name.
const (
	// SCReLU is clamp(x, 0, QA)^2 (squared clipped ReLU); the output sum is
	// divided by QA once to bring it back to the QA*QB scale.
	SCReLU Activation = 1
	// CReLU is clamp(x, 0, QA).
	CReLU Activation = 2
)

func (a Activation) String() string {
	switch a {
	case SCReLU:
		return "SCReLU (clamp(x, 0, QA)^2)"
	case CReLU:
		return "clipped ReLU (clamp(x, 0, QA))"
	}
	return fmt.Sprintf("unknown activation %d", uint32(a))
}

// maxQA and maxScale keep the output's int64 arithmetic exact for any
// weights: the dot products stay below 2 x 16384 x 1024 x 32768, times the
// scale below 2^63.
const (
	maxQA    = 1024
	maxScale = 1 << 20
)

// maxHidden bounds the hidden width a file may declare, so that a corrupt
// header cannot ask for gigabytes before its size is checked.
const maxHidden = 1 << 14

// Net is a quantised 768 -> N x 2 -> 1 perspective network (the file format
// of docs/nnue.md). It is immutable once read and may be shared by engines.
type Net struct {
	Hidden     int // N, the accumulator width of one perspective
	QA, QB     int32
	Scale      int32
	Activation Activation
	// FeatureWeights holds row f (feature f's contribution to the
	// accumulator) at [f*Hidden : (f+1)*Hidden].
	FeatureWeights []int16
	FeatureBias    []int16 // Hidden
	// OutputWeights: the first Hidden weigh the side to move's accumulator,
	// the next Hidden the other side's.
	OutputWeights []int16
	OutputBias    int32
	// CRC is the file's checksum (CRC-32 IEEE of everything before it).
	CRC uint32
}

// headerSize is the magic plus six uint32 fields.
const headerSize = len(Magic) + 6*4

// fileSize is the size of a file declaring a hidden width of n.
func fileSize(n int) int {
	return headerSize + 2*(Inputs*n+n+2*n) + 4 + 4
}

// Load reads and validates the net file at path.
func Load(path string) (*Net, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nnue net: %w", err)
	}
	return Parse(data, path)
}

// Parse reads and validates a net file's bytes; name (the file's path or a
// shipped net's name) is what errors call it.
func Parse(data []byte, name string) (*Net, error) {
	n, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("nnue net %s: %w", name, err)
	}
	return n, nil
}

func parse(data []byte) (*Net, error) {
	if len(data) < headerSize {
		return nil, fmt.Errorf("%d bytes, too short for the %d-byte header", len(data), headerSize)
	}
	if string(data[:len(Magic)]) != Magic {
		if string(data[:6]) == Magic[:6] {
			return nil, fmt.Errorf("format version %d, this build reads version %d", data[7], Magic[7])
		}
		return nil, fmt.Errorf("bad magic %q, expected %q (not an arena NNUE net)", data[:len(Magic)], Magic)
	}
	var h [6]uint32
	for i := range h {
		h[i] = binary.LittleEndian.Uint32(data[len(Magic)+4*i:])
	}
	inputs, hidden := h[0], h[1]
	n := &Net{QA: int32(h[2]), QB: int32(h[3]), Scale: int32(h[4]), Activation: Activation(h[5])}
	switch {
	case inputs != Inputs:
		return nil, fmt.Errorf("inputs %d, expected %d (768 piece-square features)", inputs, Inputs)
	case hidden == 0 || hidden > maxHidden:
		return nil, fmt.Errorf("hidden width %d, expected 1..%d", hidden, maxHidden)
	case h[2] == 0 || h[2] > maxQA || h[3] == 0 || h[3] > 32767:
		return nil, fmt.Errorf("quantisation QA=%d QB=%d, expected QA in 1..%d and QB in 1..32767", h[2], h[3], maxQA)
	case h[4] == 0 || h[4] > maxScale:
		return nil, fmt.Errorf("scale %d, expected 1..%d", h[4], maxScale)
	case n.Activation != SCReLU && n.Activation != CReLU:
		return nil, fmt.Errorf("activation %d, expected %d (SCReLU) or %d (clipped ReLU)", h[5], SCReLU, CReLU)
	}
	n.Hidden = int(hidden)
	if want := fileSize(n.Hidden); len(data) != want {
		return nil, fmt.Errorf("%d bytes, expected %d for hidden width %d", len(data), want, n.Hidden)
	}
	body := data[:len(data)-4]
	n.CRC = binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != n.CRC {
		return nil, fmt.Errorf("CRC mismatch: the file says %08x, its contents give %08x (truncated or corrupt)", n.CRC, got)
	}
	rest := body[headerSize:]
	read := func(k int) []int16 {
		v := make([]int16, k)
		for i := range v {
			v[i] = int16(binary.LittleEndian.Uint16(rest[2*i:]))
		}
		rest = rest[2*k:]
		return v
	}
	n.FeatureWeights = read(Inputs * n.Hidden)
	n.FeatureBias = read(n.Hidden)
	n.OutputWeights = read(2 * n.Hidden)
	n.OutputBias = int32(binary.LittleEndian.Uint32(rest))
	return n, nil
}

// Check reports what is wrong with a net built in memory (a trainer's or a
// test's) before it is written or used.
func (n *Net) Check() error {
	switch {
	case n.Hidden <= 0 || n.Hidden > maxHidden:
		return fmt.Errorf("hidden width %d, expected 1..%d", n.Hidden, maxHidden)
	case len(n.FeatureWeights) != Inputs*n.Hidden || len(n.FeatureBias) != n.Hidden || len(n.OutputWeights) != 2*n.Hidden:
		return fmt.Errorf("weights %d/%d/%d, expected %d/%d/%d for hidden width %d",
			len(n.FeatureWeights), len(n.FeatureBias), len(n.OutputWeights), Inputs*n.Hidden, n.Hidden, 2*n.Hidden, n.Hidden)
	case n.QA <= 0 || n.QA > maxQA || n.QB <= 0 || n.QB > 32767 || n.Scale <= 0 || n.Scale > maxScale:
		return fmt.Errorf("QA=%d QB=%d scale=%d, expected QA in 1..%d, QB in 1..32767, scale in 1..%d", n.QA, n.QB, n.Scale, maxQA, maxScale)
	case n.Activation != SCReLU && n.Activation != CReLU:
		return errors.New("activation must be SCReLU or CReLU")
	}
	return nil
}

// Bytes encodes the net in the file format, its CRC included (and sets
// n.CRC).
func (n *Net) Bytes() ([]byte, error) {
	if err := n.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(fileSize(n.Hidden))
	b.WriteString(Magic)
	for _, v := range []uint32{Inputs, uint32(n.Hidden), uint32(n.QA), uint32(n.QB), uint32(n.Scale), uint32(n.Activation)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	binary.Write(&b, binary.LittleEndian, n.FeatureWeights)
	binary.Write(&b, binary.LittleEndian, n.FeatureBias)
	binary.Write(&b, binary.LittleEndian, n.OutputWeights)
	binary.Write(&b, binary.LittleEndian, n.OutputBias)
	n.CRC = crc32.ChecksumIEEE(b.Bytes())
	binary.Write(&b, binary.LittleEndian, n.CRC)
	return b.Bytes(), nil
}

// WriteTo writes the encoded net to w.
func (n *Net) WriteTo(w io.Writer) (int64, error) {
	data, err := n.Bytes()
	if err != nil {
		return 0, err
	}
	k, err := w.Write(data)
	return int64(k), err
}

// AccumulatorBound is a bound on any accumulator value in a legal
// position: per neuron, its bias plus the 32 largest of its feature
// weights in size (a position has at most 32 pieces), the largest over the
// neurons. The accumulators are int16, as in every NNUE engine: a net whose
// bound passes 32767 may wrap in some positions, which its trainer's
// (wider) arithmetic would not.
func (n *Net) AccumulatorBound() int {
	bound := 0
	col := make([]int, Inputs)
	for i := 0; i < n.Hidden; i++ {
		for f := range col {
			col[f] = abs(int(n.FeatureWeights[f*n.Hidden+i]))
		}
		slices.Sort(col)
		sum := abs(int(n.FeatureBias[i]))
		for _, w := range col[Inputs-32:] {
			sum += w
		}
		bound = max(bound, sum)
	}
	return bound
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
