package mlp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Layer is a view of one layer's parameters inside Model.Params, in
// PyTorch's nn.Linear layout: W[o*In + i], B[o].
type Layer struct {
	Name    string // tensor name prefix in files: "group0.1", "layer2"
	In, Out int
	Act     Act
	W, B    []float32
}

// Model is a net's parameters: the trainable, savable form. Params holds
// every weight and bias back to back (what Adam updates); the Layer views
// share its memory. Build an immutable, packed Net with Compile for
// inference. Arch is the model's shape: read it, do not change it.
type Model struct {
	Arch   Arch
	Params []float32
	stacks [][]Layer // per group, then the trunk
}

// New returns a model of arch with weights drawn from seed: He (normal,
// variance 2/in) before a ReLU, Xavier (uniform, variance 2/(in+out))
// before the other activations; biases zero.
func New(arch Arch, seed uint64) (*Model, error) {
	m, err := zeroModel(arch)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d6c70))
	for _, l := range m.Layers() {
		if l.Act == ReLU {
			std := math.Sqrt(2 / float64(l.In))
			for i := range l.W {
				l.W[i] = float32(rng.NormFloat64() * std)
			}
		} else {
			lim := math.Sqrt(6 / float64(l.In+l.Out))
			for i := range l.W {
				l.W[i] = float32((2*rng.Float64() - 1) * lim)
			}
		}
	}
	return m, nil
}

// zeroModel validates arch and lays out its parameters, all zero.
func zeroModel(arch Arch) (*Model, error) {
	if err := arch.Validate(); err != nil {
		return nil, err
	}
	shapes := arch.stacks()
	n := 0
	for _, s := range shapes {
		for _, l := range s {
			n += l.out*l.in + l.out
		}
	}
	m := &Model{Arch: cloneArch(arch), Params: make([]float32, n)}
	m.bind(shapes)
	return m, nil
}

func (m *Model) bind(shapes [][]layerShape) {
	p := m.Params
	m.stacks = make([][]Layer, len(shapes))
	for s, ls := range shapes {
		for _, l := range ls {
			w, b := p[:l.in*l.out:l.in*l.out], p[l.in*l.out:l.in*l.out+l.out:l.in*l.out+l.out]
			p = p[l.in*l.out+l.out:]
			m.stacks[s] = append(m.stacks[s], Layer{Name: l.name, In: l.in, Out: l.out, Act: l.act, W: w, B: b})
		}
	}
}

func cloneArch(a Arch) Arch {
	c := a
	c.Layers = append([]Dense(nil), a.Layers...)
	c.Groups = make([]Group, len(a.Groups))
	for i, g := range a.Groups {
		c.Groups[i] = Group{From: g.From, To: g.To, Layers: append([]Dense(nil), g.Layers...)}
	}
	if len(c.Groups) == 0 {
		c.Groups = nil
	}
	return c
}

// Layers lists every layer: the groups' in group order, then the trunk's.
func (m *Model) Layers() []Layer {
	var ls []Layer
	for _, s := range m.stacks {
		ls = append(ls, s...)
	}
	return ls
}

// Clone returns a deep copy.
func (m *Model) Clone() *Model {
	c := &Model{Arch: cloneArch(m.Arch), Params: append([]float32(nil), m.Params...)}
	c.bind(c.Arch.stacks())
	return c
}

// checkFinite returns an error naming the first NaN or infinite parameter.
func (m *Model) checkFinite() error {
	for _, l := range m.Layers() {
		for _, t := range [2]struct {
			what string
			v    []float32
		}{{"weight", l.W}, {"bias", l.B}} {
			for i, x := range t.v {
				if x-x != 0 {
					return fmt.Errorf("tensor %s.%s: element %d is %v, expected a finite number", l.Name, t.what, i, x)
				}
			}
		}
	}
	return nil
}
