package nnuetrain

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"os"

	"arena/internal/atomicfile"
)

// Magic opens a net file: "ARNNUE", a zero byte and the format version 1.
const Magic = "ARNNUE\x00\x01"

// Activation codes of the net file.
const (
	SCReLU      = 1 // clamp(x, 0, QA)^2, divided by QA after the output layer
	ClippedReLU = 2 // clamp(x, 0, QA)
)

// The quantisation constants of the shipped format.
const (
	Inputs = 768
	QA     = 255
	QB     = 64
)

// QNet is a quantised net as the file holds it (docs/nnue.md).
type QNet struct {
	Inputs, Hidden, QA, QB, Scale, Activation int
	FeatureWeights                            []int16 // [Inputs][Hidden]
	FeatureBias                               []int16 // [Hidden]
	OutputWeights                             []int16 // [2*Hidden]: side to move, then the other side
	OutputBias                                int32
}

// Encode returns the file's bytes.
func (q *QNet) Encode() []byte {
	var b bytes.Buffer
	b.WriteString(Magic)
	for _, v := range []int{q.Inputs, q.Hidden, q.QA, q.QB, q.Scale, q.Activation} {
		binary.Write(&b, binary.LittleEndian, uint32(v))
	}
	binary.Write(&b, binary.LittleEndian, q.FeatureWeights)
	binary.Write(&b, binary.LittleEndian, q.FeatureBias)
	binary.Write(&b, binary.LittleEndian, q.OutputWeights)
	binary.Write(&b, binary.LittleEndian, q.OutputBias)
	binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(b.Bytes()))
	return b.Bytes()
}

// WriteFile writes q to path atomically.
func (q *QNet) WriteFile(path string) error { return atomicfile.WriteFile(path, q.Encode()) }

// Decode reads a net file's bytes; errors say what is wrong (name is the
// file's name for messages).
func Decode(data []byte, name string) (*QNet, error) {
	fail := func(format string, args ...any) (*QNet, error) {
		return nil, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	const head = len(Magic) + 6*4
	if len(data) < head+4 || string(data[:len(Magic)]) != Magic {
		return fail("not an arena NNUE file (expected the magic %q)", Magic)
	}
	body := data[:len(data)-4]
	if got, want := crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(data)-4:]); got != want {
		return fail("CRC-32 %08x, the file says %08x: the file is damaged", got, want)
	}
	var h [6]uint32
	for i := range h {
		h[i] = binary.LittleEndian.Uint32(data[len(Magic)+4*i:])
	}
	q := &QNet{Inputs: int(h[0]), Hidden: int(h[1]), QA: int(h[2]), QB: int(h[3]), Scale: int(h[4]), Activation: int(h[5])}
	if q.Inputs != Inputs || q.Hidden < 1 || q.Hidden > 1<<16 || q.Activation < SCReLU || q.Activation > ClippedReLU || q.QA < 1 || q.QB < 1 {
		return fail("header inputs %d, hidden %d, QA %d, QB %d, activation %d: expected 768 inputs, 1..65536 hidden, activation 1 or 2",
			q.Inputs, q.Hidden, q.QA, q.QB, q.Activation)
	}
	n := q.Hidden
	if want := head + 2*(Inputs*n+n+2*n) + 4 + 4; len(data) != want {
		return fail("%d bytes, expected %d for %d hidden units", len(data), want, n)
	}
	r := bytes.NewReader(body[head:])
	q.FeatureWeights = make([]int16, Inputs*n)
	q.FeatureBias = make([]int16, n)
	q.OutputWeights = make([]int16, 2*n)
	for _, v := range []any{q.FeatureWeights, q.FeatureBias, q.OutputWeights, &q.OutputBias} {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return fail("%v", err)
		}
	}
	return q, nil
}

// ReadFile reads a net file.
func ReadFile(path string) (*QNet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, path)
}

// Evaluate is the integer evaluation of the format (docs/nnue.md) of a
// position given as its features from White's and Black's perspective, in
// centipawns from the side to move's point of view.
func (q *QNet) Evaluate(white, black []int, stm int) int {
	n := q.Hidden
	acc := [2][]int32{make([]int32, n), make([]int32, n)}
	for p, feats := range [2][]int{white, black} {
		for i := range n {
			acc[p][i] = int32(q.FeatureBias[i])
		}
		for _, f := range feats {
			row := q.FeatureWeights[f*n : f*n+n]
			for i := range n {
				acc[p][i] += int32(row[i])
			}
		}
	}
	var out int64
	for side, a := range [2][]int32{acc[stm], acc[1-stm]} {
		for i, x := range a {
			v := int64(min(max(x, 0), int32(q.QA)))
			if q.Activation == SCReLU {
				v *= v
			}
			out += v * int64(q.OutputWeights[side*n+i])
		}
	}
	if q.Activation == SCReLU {
		out /= int64(q.QA)
	}
	return int((out + int64(q.OutputBias)) * int64(q.Scale) / int64(q.QA*q.QB))
}

// Quantise converts the float net to the file's integers: feature weights
// and bias x QA, output weights x QB, output bias x QA*QB, rounded and
// clamped to int16 (int32 for the output bias). It returns the number of
// values clamped.
func (n *Net) Quantise(scale int) (*QNet, int) {
	q := &QNet{Inputs: Inputs, Hidden: n.Hidden, QA: QA, QB: QB, Scale: scale, Activation: n.Activation}
	clamped := 0
	conv := func(src []float32, mul float64) []int16 {
		out := make([]int16, len(src))
		for i, v := range src {
			x := math.Round(float64(v) * mul)
			if x > math.MaxInt16 || x < math.MinInt16 {
				clamped++
				x = max(min(x, math.MaxInt16), math.MinInt16)
			}
			out[i] = int16(x)
		}
		return out
	}
	q.FeatureWeights = conv(n.W, QA)
	q.FeatureBias = conv(n.B, QA)
	q.OutputWeights = conv(n.O, QB)
	ob := math.Round(float64(n.OB[0]) * QA * QB)
	if ob > math.MaxInt32 || ob < math.MinInt32 {
		clamped++
		ob = max(min(ob, math.MaxInt32), math.MinInt32)
	}
	q.OutputBias = int32(ob)
	return q, clamped
}

// Loss is the quantised net's mean loss on d (the trainer's loss, with
// the integer evaluation in place of the float one): what quantisation
// cost shows as its difference from the float net's.
func (q *QNet) Loss(d *Data, lambda float64) float64 {
	targets := d.Targets(lambda, float64(q.Scale))
	var loss float64
	var white, black []int
	for i := range d.Len() {
		white, black = white[:0], black[:0]
		for _, f := range d.Feats[d.Off[i]:d.Off[i+1]] {
			white = append(white, int(f))
			black = append(black, Flip(int(f)))
		}
		cp := q.Evaluate(white, black, int(d.STM[i]))
		diff := 1/(1+math.Exp(-float64(cp)/float64(q.Scale))) - float64(targets[i])
		loss += diff * diff
	}
	return loss / float64(d.Len())
}

// EvaluateFEN is Evaluate on a position given as FEN: centipawns from the
// side to move's point of view.
func (q *QNet) EvaluateFEN(fen string) (int, error) {
	feats, stm, err := parseBoard(fen, nil)
	if err != nil {
		return 0, err
	}
	white, black := make([]int, len(feats)), make([]int, len(feats))
	for i, f := range feats {
		white[i], black[i] = int(f), Flip(int(f))
	}
	return q.Evaluate(white, black, int(stm)), nil
}
