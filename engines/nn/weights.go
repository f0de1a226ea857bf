package nn

import (
	"fmt"
	"slices"
	"strings"
)

// Architecture is the name recorded in (and required of) weight file metadata.
const Architecture = "ValueNet-thesis"

// DType is the element type of a stored tensor.
type DType string

// The element types a Tensor holds. Files may store other float types (F16,
// BF16, F64); they are converted to F32 when read.
const (
	F32 DType = "F32"
	I64 DType = "I64" // BatchNorm num_batches_tracked
)

// Tensor is one named array of a state_dict, in PyTorch's row-major layout.
// Exactly one of F32 and I64 holds the data, as DType says.
type Tensor struct {
	Name  string
	DType DType
	Shape []int
	F32   []float32
	I64   []int64
}

// Len is the number of elements the shape describes.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Weights is a ValueNet state_dict: the tensors under their PyTorch names.
type Weights struct {
	Tensors []Tensor
}

// Tensor returns the tensor called name, or nil.
func (w *Weights) Tensor(name string) *Tensor {
	for i := range w.Tensors {
		if w.Tensors[i].Name == name {
			return &w.Tensors[i]
		}
	}
	return nil
}

// tensorSpec is one entry of the ValueNet state_dict.
type tensorSpec struct {
	name     string
	shape    []int
	dtype    DType
	optional bool // num_batches_tracked: absent in checkpoints of PyTorch < 0.4.1, unused for inference
}

// spec lists the ValueNet state_dict in PyTorch's order. Module names follow
// the thesis listing (seeds/000, figure 2.28): body = Sequential(conv 0, BN 1,
// ReLU 2, conv 3, BN 4, ReLU 5, conv 6, BN 7, ReLU 8, conv 9, ReLU 10), head =
// Sequential(Flatten 0, Linear 1, ReLU 2, Linear 3, Tanh 4).
var spec = buildSpec()

func buildSpec() []tensorSpec {
	var s []tensorSpec
	conv := func(m string, out, in, k int) {
		s = append(s, tensorSpec{name: m + ".weight", shape: []int{out, in, k, k}, dtype: F32},
			tensorSpec{name: m + ".bias", shape: []int{out}, dtype: F32})
	}
	bn := func(m string, c int) {
		for _, p := range []string{"weight", "bias", "running_mean", "running_var"} {
			s = append(s, tensorSpec{name: m + "." + p, shape: []int{c}, dtype: F32})
		}
		s = append(s, tensorSpec{name: m + ".num_batches_tracked", shape: []int{}, dtype: I64, optional: true})
	}
	linear := func(m string, out, in int) {
		s = append(s, tensorSpec{name: m + ".weight", shape: []int{out, in}, dtype: F32},
			tensorSpec{name: m + ".bias", shape: []int{out}, dtype: F32})
	}
	conv("body.0", 64, 12, 3)
	bn("body.1", 64)
	conv("body.3", 128, 64, 3)
	bn("body.4", 128)
	conv("body.6", 128, 128, 3)
	bn("body.7", 128)
	conv("body.9", 32, 128, 1)
	linear("head.1", 256, 2048)
	linear("head.3", 1, 256)
	return s
}

// ParamCounts returns the number of trainable parameters (what PyTorch's
// sum(p.numel() for p in net.parameters()) counts: 757,985 for ValueNet) and
// the number of BatchNorm running-statistics buffers (means, variances and
// batch counters) stored alongside them.
func (w *Weights) ParamCounts() (trainable, buffers int) {
	for i := range w.Tensors {
		t := &w.Tensors[i]
		if strings.HasSuffix(t.Name, ".running_mean") || strings.HasSuffix(t.Name, ".running_var") ||
			strings.HasSuffix(t.Name, ".num_batches_tracked") {
			buffers += t.Len()
		} else {
			trainable += t.Len()
		}
	}
	return trainable, buffers
}

// Validate checks that w is exactly a ValueNet state_dict: every tensor
// present with its shape and type, nothing else, and no NaN or infinity.
// Tensors are put in PyTorch's order. The error names the tensor and the
// expected and actual shapes.
func (w *Weights) Validate() error {
	byName := make(map[string]*Tensor, len(w.Tensors))
	for i := range w.Tensors {
		t := &w.Tensors[i]
		if _, dup := byName[t.Name]; dup {
			return fmt.Errorf("tensor %s appears twice", t.Name)
		}
		byName[t.Name] = t
	}
	ordered := make([]Tensor, 0, len(spec))
	for _, s := range spec {
		t, ok := byName[s.name]
		if !ok {
			if s.optional {
				continue
			}
			return fmt.Errorf("tensor %s missing (expected shape %v; is this a %s model?)", s.name, s.shape, Architecture)
		}
		delete(byName, s.name)
		if !slices.Equal(t.Shape, s.shape) {
			return fmt.Errorf("tensor %s has shape %v, expected %v", s.name, t.Shape, s.shape)
		}
		if t.DType != s.dtype {
			return fmt.Errorf("tensor %s has type %s, expected %s", s.name, t.DType, s.dtype)
		}
		if n := t.Len(); len(t.F32) != n && len(t.I64) != n {
			return fmt.Errorf("tensor %s holds %d values, its shape %v needs %d", s.name, max(len(t.F32), len(t.I64)), t.Shape, n)
		}
		isVar := strings.HasSuffix(s.name, ".running_var")
		for i, v := range t.F32 {
			if v-v != 0 { // NaN or infinity
				return fmt.Errorf("tensor %s: element %d is %v, expected a finite number", s.name, i, v)
			}
			if isVar && v < 0 {
				return fmt.Errorf("tensor %s: element %d is %v, expected a variance >= 0", s.name, i, v)
			}
		}
		ordered = append(ordered, *t)
	}
	if len(byName) > 0 {
		extra := make([]string, 0, len(byName))
		for name := range byName {
			extra = append(extra, name)
		}
		slices.Sort(extra)
		return fmt.Errorf("unexpected tensor(s) %s: not part of %s", strings.Join(extra, ", "), Architecture)
	}
	w.Tensors = ordered
	return nil
}
