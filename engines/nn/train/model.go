package train

import (
	"fmt"
	"math"
	"math/rand/v2"

	"arena/engines/nn"
)

// Board geometry of the training layout. Activations are rows of channels,
// one row per square, over zero-bordered 10x10 boards so that a 3x3
// convolution reads its neighbours at fixed row offsets; guard zero rows
// before the first and after the last board keep the shifted reads of the
// border rows inside the buffer.
const (
	side      = 10
	boardRows = side * side
	guard     = side + 1
	inPlanes  = 16 // the 12 input planes, padded to a multiple of gemm.TileM
	hidden    = 256
	flat      = 64 * 32
)

// tapOffset is the row offset of 3x3 tap t (ky*3 + kx): PyTorch's
// cross-correlation reads input (y+ky-1, x+kx-1).
func tapOffset(t int) int { return (t/3-1)*side + t%3 - 1 }

// paddedRow is the row of square (y, x) of board b in a padded buffer.
func paddedRow(b, y, x int) int { return guard + b*boardRows + (y+1)*side + x + 1 }

// conv is one convolution's parameters: w packed [tap][cin][cout] (the
// B matrix of the forward product), b [cout]; for the three with
// BatchNorm, gamma, beta and the running statistics.
type conv struct {
	cin, cout, taps int
	torchCin        int // input channels in the file (12 for the first, padded to 16 here)
	name, bn        string
	w, b            []float32
	gamma, beta     []float32
	runMean, runVar []float32
	batches         int64 // BatchNorm num_batches_tracked
}

// Model is a ValueNet being trained. Its trainable parameters live in one
// slice (params), which the layers' fields view, so the optimiser treats
// them as one vector; grads has the same layout.
type Model struct {
	convs  [4]conv
	lin1W  []float32 // [2048][256]: row k = square*32 + channel (the flatten order of the activations)
	lin1B  []float32
	lin2W  []float32 // [256]
	lin2B  []float32 // [1]
	params []float32
}

// bind points the model's tensors at consecutive parts of p (params or
// grads).
func (m *Model) bind(p []float32) {
	take := func(n int) []float32 {
		s := p[:n:n]
		p = p[n:]
		return s
	}
	for i := range m.convs {
		c := &m.convs[i]
		c.w = take(c.taps * c.cin * c.cout)
		c.b = take(c.cout)
		if c.bn != "" {
			c.gamma = take(c.cout)
			c.beta = take(c.cout)
		}
	}
	m.lin1W = take(flat * hidden)
	m.lin1B = take(hidden)
	m.lin2W = take(hidden)
	m.lin2B = take(1)
}

// shape returns an empty model (no parameters yet) with its layer sizes.
func shape() *Model {
	m := &Model{}
	m.convs = [4]conv{
		{cin: inPlanes, torchCin: nn.Planes, cout: 64, taps: 9, name: "body.0", bn: "body.1"},
		{cin: 64, torchCin: 64, cout: 128, taps: 9, name: "body.3", bn: "body.4"},
		{cin: 128, torchCin: 128, cout: 128, taps: 9, name: "body.6", bn: "body.7"},
		{cin: 128, torchCin: 128, cout: 32, taps: 1, name: "body.9"},
	}
	return m
}

// paramCount is the length of params, the 12->16 input padding included.
func (m *Model) paramCount() int {
	n := flat*hidden + hidden + hidden + 1
	for _, c := range m.convs {
		n += c.taps*c.cin*c.cout + c.cout
		if c.bn != "" {
			n += 2 * c.cout
		}
	}
	return n
}

// NewModel initialises a model as PyTorch initialises ValueNet's layers
// (weights and biases uniform in ±1/sqrt(fan_in), BatchNorm gamma 1, beta
// 0, running mean 0 and variance 1), from seed.
func NewModel(seed uint64) *Model {
	m := shape()
	m.params = make([]float32, m.paramCount())
	m.bind(m.params)
	rng := rand.New(rand.NewPCG(seed, 0x76616c75656e6574))
	uniform := func(s []float32, fanIn int) {
		bound := 1 / math.Sqrt(float64(fanIn))
		for i := range s {
			s[i] = float32((rng.Float64()*2 - 1) * bound)
		}
	}
	for i := range m.convs {
		c := &m.convs[i]
		fanIn := c.torchCin * c.taps
		for t := range c.taps {
			for ci := range c.torchCin {
				uniform(c.w[(t*c.cin+ci)*c.cout:][:c.cout], fanIn)
			}
		}
		uniform(c.b, fanIn)
		if c.bn != "" {
			c.runMean = make([]float32, c.cout)
			c.runVar = make([]float32, c.cout)
			for o := range c.cout {
				c.gamma[o], c.runVar[o] = 1, 1
			}
		}
	}
	uniform(m.lin1W, flat)
	uniform(m.lin1B, flat)
	uniform(m.lin2W, hidden)
	uniform(m.lin2B, hidden)
	return m
}

// FromWeights starts a model from a ValueNet state_dict (fine-tuning, or
// the self-play loop's next candidate).
func FromWeights(w *nn.Weights) (*Model, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	m := shape()
	m.params = make([]float32, m.paramCount())
	m.bind(m.params)
	get := func(name string) []float32 { return w.Tensor(name).F32 }
	for i := range m.convs {
		c := &m.convs[i]
		tw := get(c.name + ".weight") // [cout][torchCin][ky][kx]
		for o := range c.cout {
			for ci := range c.torchCin {
				for t := range c.taps {
					c.w[(t*c.cin+ci)*c.cout+o] = tw[(o*c.torchCin+ci)*c.taps+t]
				}
			}
		}
		copy(c.b, get(c.name+".bias"))
		if c.bn != "" {
			copy(c.gamma, get(c.bn+".weight"))
			copy(c.beta, get(c.bn+".bias"))
			c.runMean = append([]float32(nil), get(c.bn+".running_mean")...)
			c.runVar = append([]float32(nil), get(c.bn+".running_var")...)
			if t := w.Tensor(c.bn + ".num_batches_tracked"); t != nil {
				c.batches = t.I64[0]
			}
		}
	}
	tw := get("head.1.weight") // [256][2048], input index channel*64 + square
	for o := range hidden {
		for ch := range 32 {
			for s := range 64 {
				m.lin1W[(s*32+ch)*hidden+o] = tw[o*flat+ch*64+s]
			}
		}
	}
	copy(m.lin1B, get("head.1.bias"))
	copy(m.lin2W, get("head.3.weight"))
	copy(m.lin2B, get("head.3.bias"))
	return m, nil
}

// Weights returns the model as a ValueNet state_dict in PyTorch's layout,
// ready for nn.New or nn.SaveSafetensors.
func (m *Model) Weights() *nn.Weights {
	w := &nn.Weights{}
	add := func(name string, shape []int, data []float32) {
		w.Tensors = append(w.Tensors, nn.Tensor{Name: name, DType: nn.F32, Shape: shape, F32: data})
	}
	for i := range m.convs {
		c := &m.convs[i]
		k := 3
		if c.taps == 1 {
			k = 1
		}
		tw := make([]float32, c.cout*c.torchCin*c.taps)
		for o := range c.cout {
			for ci := range c.torchCin {
				for t := range c.taps {
					tw[(o*c.torchCin+ci)*c.taps+t] = c.w[(t*c.cin+ci)*c.cout+o]
				}
			}
		}
		add(c.name+".weight", []int{c.cout, c.torchCin, k, k}, tw)
		add(c.name+".bias", []int{c.cout}, clone(c.b))
		if c.bn != "" {
			add(c.bn+".weight", []int{c.cout}, clone(c.gamma))
			add(c.bn+".bias", []int{c.cout}, clone(c.beta))
			add(c.bn+".running_mean", []int{c.cout}, clone(c.runMean))
			add(c.bn+".running_var", []int{c.cout}, clone(c.runVar))
			w.Tensors = append(w.Tensors, nn.Tensor{Name: c.bn + ".num_batches_tracked", DType: nn.I64, Shape: []int{}, I64: []int64{c.batches}})
		}
	}
	tw := make([]float32, hidden*flat)
	for o := range hidden {
		for ch := range 32 {
			for s := range 64 {
				tw[o*flat+ch*64+s] = m.lin1W[(s*32+ch)*hidden+o]
			}
		}
	}
	add("head.1.weight", []int{hidden, flat}, tw)
	add("head.1.bias", []int{hidden}, clone(m.lin1B))
	add("head.3.weight", []int{1, hidden}, clone(m.lin2W))
	add("head.3.bias", []int{1}, clone(m.lin2B))
	if err := w.Validate(); err != nil {
		// The model's shapes are fixed by shape(); a mismatch is a bug here.
		panic(fmt.Sprintf("train: exported weights invalid: %v", err))
	}
	return w
}

// Clone returns a deep copy of m.
func (m *Model) Clone() *Model {
	c := shape()
	c.params = clone(m.params)
	c.bind(c.params)
	for i := range c.convs {
		c.convs[i].runMean = clone(m.convs[i].runMean)
		c.convs[i].runVar = clone(m.convs[i].runVar)
		c.convs[i].batches = m.convs[i].batches
	}
	return c
}

func clone(s []float32) []float32 {
	if s == nil {
		return nil
	}
	return append([]float32(nil), s...)
}
