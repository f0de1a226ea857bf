package mlp

import (
	"encoding/json"
	"fmt"
	"math"
)

// Act is a layer's activation function.
type Act uint8

// The activations. Softmax is not one: it belongs to the loss (see
// SoftmaxCE), so a classifier's last layer is Identity and its outputs are
// logits.
const (
	ReLU Act = iota
	Tanh
	Sigmoid
	Identity
)

var actNames = [...]string{ReLU: "relu", Tanh: "tanh", Sigmoid: "sigmoid", Identity: "identity"}

func (a Act) String() string {
	if int(a) < len(actNames) {
		return actNames[a]
	}
	return fmt.Sprintf("Act(%d)", uint8(a))
}

// MarshalText writes the activation's name, as in the file metadata.
func (a Act) MarshalText() ([]byte, error) {
	if int(a) >= len(actNames) {
		return nil, fmt.Errorf("unknown activation %d", uint8(a))
	}
	return []byte(actNames[a]), nil
}

// UnmarshalText reads an activation's name.
func (a *Act) UnmarshalText(b []byte) error {
	for i, n := range actNames {
		if n == string(b) {
			*a = Act(i)
			return nil
		}
	}
	return fmt.Errorf("activation %q unknown, expected relu, tanh, sigmoid or identity", b)
}

// apply returns the activation of z, and deriv its derivative given the
// activation's output y (every activation here has one in terms of y).
func (a Act) apply(z float32) float32 {
	switch a {
	case ReLU:
		return max(z, 0)
	case Tanh:
		return float32(math.Tanh(float64(z)))
	case Sigmoid:
		return float32(1 / (1 + math.Exp(-float64(z))))
	}
	return z
}

func (a Act) deriv(y float32) float32 {
	switch a {
	case ReLU:
		if y > 0 {
			return 1
		}
		return 0
	case Tanh:
		return 1 - y*y
	case Sigmoid:
		return y * (1 - y)
	}
	return 1
}

// Dense is one fully connected layer: Out outputs, each Act(w . x + b).
type Dense struct {
	Out int `json:"out"`
	Act Act `json:"act"`
}

// Group is a sub-net of its own over the inputs [From, To): the block
// diagonal part of a net (see the package doc). Its last layer's outputs
// are concatenated, in group order, to form the input of the trunk.
type Group struct {
	From   int     `json:"from"`
	To     int     `json:"to"`
	Layers []Dense `json:"layers"`
}

// Arch is the shape of a net. Name is the architecture tag stored in (and
// required of) its files, e.g. "giraffe-1" or "deepchess-pos2vec-1": change
// it whenever the meaning of the inputs changes, even if the shapes do not.
type Arch struct {
	Name   string  `json:"name"`
	Inputs int     `json:"inputs"`
	Groups []Group `json:"groups,omitempty"`
	Layers []Dense `json:"layers"` // the trunk, fully connected
}

// maxWidth bounds every width so that a malformed file cannot make the
// loader allocate without bound before the tensors are compared.
const maxWidth = 1 << 16

// Validate checks the shape: positive widths, at least one trunk layer,
// group ranges inside the inputs, known activations and a tag.
func (a *Arch) Validate() error {
	if a.Name == "" {
		return fmt.Errorf("architecture has no name (tag)")
	}
	if a.Inputs <= 0 || a.Inputs > maxWidth {
		return fmt.Errorf("architecture %s: %d inputs, expected 1..%d", a.Name, a.Inputs, maxWidth)
	}
	for g, gr := range a.Groups {
		if gr.From < 0 || gr.To <= gr.From || gr.To > a.Inputs {
			return fmt.Errorf("architecture %s: group %d covers inputs [%d, %d), expected a non-empty range inside [0, %d)", a.Name, g, gr.From, gr.To, a.Inputs)
		}
		if len(gr.Layers) == 0 {
			return fmt.Errorf("architecture %s: group %d has no layers", a.Name, g)
		}
		if err := checkLayers(gr.Layers); err != nil {
			return fmt.Errorf("architecture %s: group %d: %w", a.Name, g, err)
		}
	}
	if len(a.Layers) == 0 {
		return fmt.Errorf("architecture %s has no trunk layers", a.Name)
	}
	if err := checkLayers(a.Layers); err != nil {
		return fmt.Errorf("architecture %s: trunk: %w", a.Name, err)
	}
	return nil
}

func checkLayers(ls []Dense) error {
	for i, l := range ls {
		if l.Out <= 0 || l.Out > maxWidth {
			return fmt.Errorf("layer %d has %d outputs, expected 1..%d", i, l.Out, maxWidth)
		}
		if int(l.Act) >= len(actNames) {
			return fmt.Errorf("layer %d: unknown activation %d", i, l.Act)
		}
	}
	return nil
}

// Outputs is the width of the last trunk layer.
func (a *Arch) Outputs() int { return a.Layers[len(a.Layers)-1].Out }

// trunkInputs is the trunk's input width: the inputs, or the concatenated
// group outputs.
func (a *Arch) trunkInputs() int {
	if len(a.Groups) == 0 {
		return a.Inputs
	}
	n := 0
	for _, g := range a.Groups {
		n += g.Layers[len(g.Layers)-1].Out
	}
	return n
}

// layerShape is one layer's place in the parameter vector.
type layerShape struct {
	name    string // tensor name prefix: "group0.1", "layer2"
	in, out int
	act     Act
}

// stacks lists the layers per stack: one per group, then the trunk last.
func (a *Arch) stacks() [][]layerShape {
	var st [][]layerShape
	build := func(prefix string, in int, ls []Dense) []layerShape {
		var s []layerShape
		for i, l := range ls {
			s = append(s, layerShape{name: fmt.Sprintf("%s%d", prefix, i), in: in, out: l.Out, act: l.Act})
			in = l.Out
		}
		return s
	}
	for g, gr := range a.Groups {
		st = append(st, build(fmt.Sprintf("group%d.", g), gr.To-gr.From, gr.Layers))
	}
	return append(st, build("layer", a.trunkInputs(), a.Layers))
}

// MultiplyAdds is the cost of one forward pass (weights per position).
func (a *Arch) MultiplyAdds() int {
	n := 0
	for _, s := range a.stacks() {
		for _, l := range s {
			n += l.in * l.out
		}
	}
	return n
}

// Equal reports whether b is the same architecture, tag included.
func (a *Arch) Equal(b *Arch) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// String is the architecture as its JSON metadata.
func (a *Arch) String() string {
	b, err := json.Marshal(a)
	if err != nil {
		return fmt.Sprintf("invalid architecture: %v", err)
	}
	return string(b)
}
