package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
)

// The safetensors format (https://github.com/huggingface/safetensors): an
// 8-byte little-endian header length N, N bytes of JSON mapping tensor names to
// {"dtype", "shape", "data_offsets": [begin, end]} plus an optional
// "__metadata__" map of strings, then the tensor data, offsets relative to the
// end of the header.

const (
	stPrefix       = 8
	stMetadataKey  = "__metadata__"
	stMaxHeaderLen = 100 << 20 // the reference implementation's limit
)

type stEntry struct {
	DType       string  `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

// dtypeSize is the element size of the dtypes the reader accepts.
var dtypeSize = map[string]int{"F32": 4, "F16": 2, "BF16": 2, "F64": 8, "I64": 8}

// ReadSafetensors parses a safetensors file held in data. It checks the
// container (sizes, offsets, types) but not that the tensors form a ValueNet:
// see Weights.Validate. Float tensors of other widths become F32. Errors
// name the byte offset or the tensor that is wrong.
func ReadSafetensors(data []byte) (*Weights, Meta, error) {
	w, md, err := ParseSafetensors(data, func(md map[string]string) error {
		_, err := metaFromMetadata(md)
		return err
	})
	if err != nil {
		return nil, Meta{}, err
	}
	meta, _ := metaFromMetadata(md)
	return w, meta, nil
}

// ParseSafetensors parses a safetensors file of any architecture: the
// tensors (checked against the container's sizes, offsets and types, float
// tensors converted to F32) and the __metadata__ map. checkMeta, if not nil,
// sees the metadata before the tensors are decoded, so a file of the wrong
// architecture is refused with that error rather than one about its tensors.
func ParseSafetensors(data []byte, checkMeta func(map[string]string) error) (*Weights, map[string]string, error) {
	if len(data) < stPrefix {
		return nil, nil, fmt.Errorf("file is %d bytes, too short for the 8-byte safetensors header length", len(data))
	}
	n := binary.LittleEndian.Uint64(data)
	if n > stMaxHeaderLen || n > uint64(len(data)-stPrefix) {
		return nil, nil, fmt.Errorf("header length %d (bytes 0-7) exceeds the %d bytes that follow: not a safetensors file, or truncated", n, len(data)-stPrefix)
	}
	header := data[stPrefix : stPrefix+int(n)]
	body := data[stPrefix+int(n):]
	if len(bytes.TrimSpace(header)) == 0 || header[0] != '{' {
		return nil, nil, fmt.Errorf("header at byte %d does not start with '{': not a safetensors file", stPrefix)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(header, &raw); err != nil {
		return nil, nil, jsonError(err, "header", stPrefix)
	}

	md := map[string]string{}
	if m, ok := raw[stMetadataKey]; ok {
		if err := json.Unmarshal(m, &md); err != nil {
			return nil, nil, fmt.Errorf("header %s: expected a map of strings: %w", stMetadataKey, jsonError(err, stMetadataKey, -1))
		}
		delete(raw, stMetadataKey)
	}
	if checkMeta != nil {
		if err := checkMeta(md); err != nil {
			return nil, nil, err
		}
	}

	names := make([]string, 0, len(raw))
	entries := make(map[string]stEntry, len(raw))
	for name, msg := range raw {
		var e stEntry
		dec := json.NewDecoder(bytes.NewReader(msg))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("tensor %s: %w", name, jsonError(err, "entry", -1))
		}
		if err := checkEntry(e, len(body)); err != nil {
			return nil, nil, fmt.Errorf("tensor %s: %w", name, err)
		}
		names = append(names, name)
		entries[name] = e
	}
	// The data must be the tensors back to back, as the reference reader
	// requires: no gaps, no overlaps, nothing after the last one.
	sort.Slice(names, func(i, j int) bool {
		a, b := entries[names[i]].DataOffsets, entries[names[j]].DataOffsets
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	var next int64
	for _, name := range names {
		o := entries[name].DataOffsets
		if o[0] != next {
			return nil, nil, fmt.Errorf("tensor %s: data starts at byte %d of the data section (file byte %d), expected %d: tensors must be contiguous and not overlap",
				name, o[0], int64(stPrefix)+int64(n)+o[0], next)
		}
		next = o[1]
	}
	if next != int64(len(body)) {
		return nil, nil, fmt.Errorf("data section is %d bytes but the tensors cover %d (file byte %d onwards is unaccounted for)", len(body), next, int64(stPrefix)+int64(n)+next)
	}

	w := &Weights{Tensors: make([]Tensor, 0, len(names))}
	for _, name := range names {
		e := entries[name]
		t := Tensor{Name: name, Shape: make([]int, len(e.Shape))}
		for i, d := range e.Shape {
			t.Shape[i] = int(d)
		}
		decodeTensor(&t, e.DType, body[e.DataOffsets[0]:e.DataOffsets[1]])
		w.Tensors = append(w.Tensors, t)
	}
	return w, md, nil
}

// checkEntry validates one header entry against the data section size, so
// that decoding it can neither overflow nor read out of bounds.
func checkEntry(e stEntry, bodyLen int) error {
	size, ok := dtypeSize[e.DType]
	if !ok {
		return fmt.Errorf("dtype %q not supported, expected one of F32, F16, BF16, F64, I64", e.DType)
	}
	if len(e.DataOffsets) != 2 {
		return fmt.Errorf("data_offsets %v: expected [begin, end]", e.DataOffsets)
	}
	begin, end := e.DataOffsets[0], e.DataOffsets[1]
	if begin < 0 || end < begin || end > int64(bodyLen) {
		return fmt.Errorf("data_offsets [%d, %d] outside the %d-byte data section", begin, end, bodyLen)
	}
	elems := int64(1)
	for _, d := range e.Shape {
		if d < 0 || d > int64(bodyLen) {
			return fmt.Errorf("shape %v: dimension %d impossible for a %d-byte data section", e.Shape, d, bodyLen)
		}
		elems *= d
		if elems > int64(bodyLen) {
			return fmt.Errorf("shape %v needs more than the %d-byte data section", e.Shape, bodyLen)
		}
	}
	if elems*int64(size) != end-begin {
		return fmt.Errorf("shape %v of %s needs %d bytes, data_offsets [%d, %d] give %d", e.Shape, e.DType, elems*int64(size), begin, end, end-begin)
	}
	return nil
}

// decodeTensor converts little-endian data of a checked entry.
func decodeTensor(t *Tensor, dtype string, b []byte) {
	le := binary.LittleEndian
	switch dtype {
	case "I64":
		t.DType = I64
		t.I64 = make([]int64, len(b)/8)
		for i := range t.I64 {
			t.I64[i] = int64(le.Uint64(b[8*i:]))
		}
		return
	case "F32":
		t.F32 = make([]float32, len(b)/4)
		for i := range t.F32 {
			t.F32[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
	case "F64":
		t.F32 = make([]float32, len(b)/8)
		for i := range t.F32 {
			t.F32[i] = float32(math.Float64frombits(le.Uint64(b[8*i:])))
		}
	case "F16":
		t.F32 = make([]float32, len(b)/2)
		for i := range t.F32 {
			t.F32[i] = halfToFloat(le.Uint16(b[2*i:]))
		}
	case "BF16":
		t.F32 = make([]float32, len(b)/2)
		for i := range t.F32 {
			t.F32[i] = math.Float32frombits(uint32(le.Uint16(b[2*i:])) << 16)
		}
	}
	t.DType = F32
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN
		return math.Float32frombits(sign | 0xff<<23 | mant<<13)
	case exp != 0:
		return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
	case mant == 0:
		return math.Float32frombits(sign)
	default: // subnormal: value = mant * 2^-24
		f := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
}

// jsonError turns a JSON error into one naming the byte offset: in the file
// when base (the file offset of the JSON text) is known, else within what.
func jsonError(err error, what string, base int64) error {
	at := func(off int64) string {
		if base >= 0 {
			return fmt.Sprintf("file byte %d", base+off)
		}
		return fmt.Sprintf("byte %d of the %s", off, what)
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) { // Offset counts the bytes read, the bad one included
		return fmt.Errorf("%s JSON invalid at %s: %v", what, at(syn.Offset-1), err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("%s JSON: %s value at %s, expected %s", what, typ.Value, at(typ.Offset), typ.Type)
	}
	return fmt.Errorf("%s JSON: %w", what, err)
}

// WriteSafetensors writes w (which must be a validated ValueNet state_dict)
// with m's metadata. Tensors keep their order and PyTorch names, so a file
// converted from a checkpoint loads back to the same state_dict.
func WriteSafetensors(out io.Writer, w *Weights, m Meta) error {
	return EncodeSafetensors(out, w, m.metadata())
}

// EncodeSafetensors writes the tensors of w (F32 or I64, data matching their
// shapes) in their order, with metadata as the __metadata__ map.
func EncodeSafetensors(out io.Writer, w *Weights, metadata map[string]string) error {
	var hdr bytes.Buffer
	md, err := json.Marshal(metadata)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	hdr.WriteString(`{"` + stMetadataKey + `":`)
	hdr.Write(md)
	var offset int64
	for i := range w.Tensors {
		t := &w.Tensors[i]
		name, err := json.Marshal(t.Name)
		if err != nil {
			return fmt.Errorf("encode tensor name %q: %w", t.Name, err)
		}
		size := int64(4 * len(t.F32))
		if t.DType == I64 {
			size = int64(8 * len(t.I64))
		}
		shape := t.Shape
		if shape == nil {
			shape = []int{} // a scalar is "shape": [], not null
		}
		sh, _ := json.Marshal(shape)
		fmt.Fprintf(&hdr, `,%s:{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, name, t.DType, sh, offset, offset+size)
		offset += size
	}
	hdr.WriteByte('}')
	// Pad with spaces so that the data starts 8-byte aligned, as the
	// reference writer does (readers may then map it in place).
	for (stPrefix+hdr.Len())%8 != 0 {
		hdr.WriteByte(' ')
	}

	buf := make([]byte, 0, stPrefix+hdr.Len()+int(offset))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(hdr.Len()))
	buf = append(buf, hdr.Bytes()...)
	for i := range w.Tensors {
		t := &w.Tensors[i]
		for _, v := range t.F32 {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
		for _, v := range t.I64 {
			buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
		}
	}
	_, err = out.Write(buf)
	return err
}
