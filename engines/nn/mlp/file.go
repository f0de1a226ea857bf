package mlp

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"arena/engines/nn"
	"arena/internal/atomicfile"
)

// Metadata keys the package owns; others are the caller's (training notes,
// data sources) and are kept through a save and load.
const (
	MetaArchitecture = "architecture" // Arch.Name, the tag, as in the ValueNet files
	MetaShape        = "mlp"          // Arch as JSON: inputs, groups, layers
)

// WriteSafetensors writes m's tensors ("layer2.weight" [out, in],
// "group0.1.bias" [out], ...) with the architecture in the metadata and
// the caller's entries in extra (which may not use the package's keys).
func (m *Model) WriteSafetensors(out io.Writer, extra map[string]string) error {
	md := map[string]string{}
	for k, v := range extra {
		if k == MetaArchitecture || k == MetaShape {
			return fmt.Errorf("metadata key %q is reserved for the architecture", k)
		}
		md[k] = v
	}
	shape, err := json.Marshal(&m.Arch)
	if err != nil {
		return err
	}
	md[MetaArchitecture], md[MetaShape] = m.Arch.Name, string(shape)
	w := &nn.Weights{}
	for _, l := range m.Layers() {
		w.Tensors = append(w.Tensors,
			nn.Tensor{Name: l.Name + ".weight", DType: nn.F32, Shape: []int{l.Out, l.In}, F32: l.W},
			nn.Tensor{Name: l.Name + ".bias", DType: nn.F32, Shape: []int{l.Out}, F32: l.B})
	}
	return nn.EncodeSafetensors(out, w, md)
}

// Save writes m to path atomically (see WriteSafetensors).
func (m *Model) Save(path string, extra map[string]string) error {
	if err := m.checkFinite(); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	if err := atomicfile.Write(path, func(f io.Writer) error { return m.WriteSafetensors(f, extra) }); err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return nil
}

// ReadSafetensors reads a model written by WriteSafetensors: the
// architecture from the metadata, then exactly its tensors (F32, F16, BF16
// or F64 on disk), all finite. It returns the caller's metadata entries.
// Malformed input of any kind is an error naming what is wrong, never a
// panic.
func ReadSafetensors(data []byte) (*Model, map[string]string, error) {
	var arch Arch
	w, md, err := nn.ParseSafetensors(data, func(md map[string]string) error {
		a, err := archFromMetadata(md)
		arch = a
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if err := checkTensors(&arch, w); err != nil {
		return nil, nil, err
	}
	m, err := zeroModel(arch)
	if err != nil {
		return nil, nil, err
	}
	for _, l := range m.Layers() {
		copy(l.W, w.Tensor(l.Name+".weight").F32)
		copy(l.B, w.Tensor(l.Name+".bias").F32)
	}
	if err := m.checkFinite(); err != nil {
		return nil, nil, err
	}
	delete(md, MetaArchitecture)
	delete(md, MetaShape)
	return m, md, nil
}

func archFromMetadata(md map[string]string) (Arch, error) {
	var a Arch
	tag, ok := md[MetaArchitecture]
	if !ok {
		return a, fmt.Errorf("metadata has no %q entry: not an mlp model", MetaArchitecture)
	}
	shape, ok := md[MetaShape]
	if !ok {
		return a, fmt.Errorf("metadata has no %q entry: architecture %q is not an mlp model", MetaShape, tag)
	}
	dec := json.NewDecoder(strings.NewReader(shape))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("metadata %s: %v", MetaShape, err)
	}
	if a.Name != tag {
		return a, fmt.Errorf("metadata %s names architecture %q, metadata %s %q", MetaShape, a.Name, MetaArchitecture, tag)
	}
	if err := a.Validate(); err != nil {
		return a, fmt.Errorf("metadata %s: %w", MetaShape, err)
	}
	return a, nil
}

// checkTensors compares the file's tensors with the architecture before
// any parameter memory is allocated, so a header claiming huge layers
// fails here rather than in make.
func checkTensors(a *Arch, w *nn.Weights) error {
	seen := map[string]bool{}
	for _, s := range a.stacks() {
		for _, l := range s {
			for _, want := range []struct {
				name  string
				shape []int
			}{{l.name + ".weight", []int{l.out, l.in}}, {l.name + ".bias", []int{l.out}}} {
				t := w.Tensor(want.name)
				if t == nil {
					return fmt.Errorf("tensor %s missing (expected shape %v for architecture %s)", want.name, want.shape, a.Name)
				}
				if !slices.Equal(t.Shape, want.shape) {
					return fmt.Errorf("tensor %s has shape %v, expected %v", want.name, t.Shape, want.shape)
				}
				if t.DType != nn.F32 {
					return fmt.Errorf("tensor %s has type %s, expected a float type", want.name, t.DType)
				}
				seen[want.name] = true
			}
		}
	}
	var extra []string
	for _, t := range w.Tensors {
		if !seen[t.Name] {
			extra = append(extra, t.Name)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return fmt.Errorf("unexpected tensor(s) %s: not part of architecture %s", strings.Join(extra, ", "), a.Name)
	}
	return nil
}

// ReadFile reads a model file (see ReadSafetensors); errors start with the
// path.
func ReadFile(path string) (*Model, map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read model: %w", err)
	}
	m, md, err := ReadSafetensors(data)
	if err != nil {
		return nil, nil, fmt.Errorf("model %s: %w", path, err)
	}
	return m, md, nil
}

// Load reads a model file that must be of architecture want (tag, inputs,
// groups and layers), as an engine loads its net.
func Load(path string, want *Arch) (*Model, map[string]string, error) {
	m, md, err := ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if !m.Arch.Equal(want) {
		return nil, nil, fmt.Errorf("model %s: architecture %s, expected %s", path, &m.Arch, want)
	}
	return m, md, nil
}
