package deepchess

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"arena/engines/nn/mlp"
)

// Architecture tags of the two parts of a DeepChess net.
const (
	TagPos2Vec = "deepchess-pos2vec-1"
	TagHead    = "deepchess-head-1"
)

// File names of the two parts inside a net directory.
const (
	Pos2VecFile = "pos2vec.safetensors"
	HeadFile    = "head.safetensors"
)

// Models is a DeepChess net in trainable form: Pos2Vec (773 inputs to the
// position vector, ReLU throughout) and the head (two position vectors to
// two logits, softmax: "the first position is better for White", "the
// second is").
type Models struct {
	Pos2Vec, Head *mlp.Model
}

// NewModels returns a fresh net with the given hidden widths, e.g. 600, 400,
// 200, 100 and 400, 200, 100 (DeepChess's).
func NewModels(pos2vec, head []int, seed uint64) (*Models, error) {
	if len(pos2vec) == 0 || len(head) == 0 {
		return nil, fmt.Errorf("deepchess net needs at least one Pos2Vec and one head layer, got widths %v and %v", pos2vec, head)
	}
	pa := mlp.Arch{Name: TagPos2Vec, Inputs: Inputs}
	for _, w := range pos2vec {
		pa.Layers = append(pa.Layers, mlp.Dense{Out: w, Act: mlp.ReLU})
	}
	ha := mlp.Arch{Name: TagHead, Inputs: 2 * pos2vec[len(pos2vec)-1]}
	for _, w := range head {
		ha.Layers = append(ha.Layers, mlp.Dense{Out: w, Act: mlp.ReLU})
	}
	ha.Layers = append(ha.Layers, mlp.Dense{Out: 2, Act: mlp.Identity})
	p, err := mlp.New(pa, seed)
	if err != nil {
		return nil, err
	}
	h, err := mlp.New(ha, seed+1)
	if err != nil {
		return nil, err
	}
	return &Models{Pos2Vec: p, Head: h}, nil
}

// check verifies that the two parts fit together and are DeepChess's.
func (m *Models) check() error {
	p, h := &m.Pos2Vec.Arch, &m.Head.Arch
	switch {
	case p.Name != TagPos2Vec || h.Name != TagHead:
		return fmt.Errorf("architectures %q and %q, expected %q and %q", p.Name, h.Name, TagPos2Vec, TagHead)
	case p.Inputs != Inputs || len(p.Groups) > 0 || len(h.Groups) > 0:
		return fmt.Errorf("Pos2Vec takes %d inputs (groups %d), expected %d and none", p.Inputs, len(p.Groups), Inputs)
	case h.Inputs != 2*p.Outputs() || h.Outputs() != 2:
		return fmt.Errorf("head maps %d inputs to %d outputs, expected 2 x %d (two Pos2Vec vectors) to 2", h.Inputs, h.Outputs(), p.Outputs())
	}
	return nil
}

// Save writes the net into dir (created if missing) as two mlp files,
// with extra metadata in both.
func (m *Models) Save(dir string, extra map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := m.Pos2Vec.Save(filepath.Join(dir, Pos2VecFile), extra); err != nil {
		return err
	}
	return m.Head.Save(filepath.Join(dir, HeadFile), extra)
}

// LoadModels reads a net directory written by Save.
func LoadModels(dir string) (*Models, map[string]string, error) {
	p, md, err := mlp.ReadFile(filepath.Join(dir, Pos2VecFile))
	if err != nil {
		return nil, nil, err
	}
	h, _, err := mlp.ReadFile(filepath.Join(dir, HeadFile))
	if err != nil {
		return nil, nil, err
	}
	m := &Models{Pos2Vec: p, Head: h}
	if err := m.check(); err != nil {
		return nil, nil, fmt.Errorf("deepchess net %s: %w", dir, err)
	}
	return m, md, nil
}

// ParseModels reads a net from the bytes of its two files (a shipped net).
func ParseModels(pos2vec, head []byte) (*Models, map[string]string, error) {
	p, md, err := mlp.ReadSafetensors(pos2vec)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", Pos2VecFile, err)
	}
	h, _, err := mlp.ReadSafetensors(head)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", HeadFile, err)
	}
	m := &Models{Pos2Vec: p, Head: h}
	if err := m.check(); err != nil {
		return nil, nil, err
	}
	return m, md, nil
}

// Net is a compiled DeepChess net, immutable and safe for concurrent use
// through one Evaluator per goroutine.
type Net struct {
	pos2vec, head *mlp.Net
	dim           int
}

// Compile packs the net for inference.
func (m *Models) Compile() (*Net, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	p, err := m.Pos2Vec.Compile()
	if err != nil {
		return nil, err
	}
	h, err := m.Head.Compile()
	if err != nil {
		return nil, err
	}
	return &Net{pos2vec: p, head: h, dim: m.Pos2Vec.Arch.Outputs()}, nil
}

// Dim is the width of a position vector.
func (n *Net) Dim() int { return n.dim }

// Evaluator computes position vectors and comparisons for one goroutine.
type Evaluator struct {
	net      *Net
	p, h     *mlp.Evaluator
	in, pair []float32
	logits   [2]float32
}

// NewEvaluator returns an evaluator of one position or pair at a time.
func (n *Net) NewEvaluator() *Evaluator {
	return &Evaluator{net: n, p: n.pos2vec.NewEvaluator(1), h: n.head.NewEvaluator(1),
		in: make([]float32, Inputs), pair: make([]float32, 2*n.dim)}
}

// Embed writes the position vector of the position whose active inputs
// are given (see Active) into dst (Dim values).
func (e *Evaluator) Embed(active []int32, dst []float32) {
	clear(e.in)
	for _, i := range active {
		e.in[i] = 1
	}
	e.p.Forward(e.in, dst)
}

// Compare returns the net's probability that position vector a belongs to
// a position better for White than b's.
func (e *Evaluator) Compare(a, b []float32) float32 {
	copy(e.pair, a)
	copy(e.pair[e.net.dim:], b)
	e.h.Forward(e.pair, e.logits[:])
	return float32(1 / (1 + math.Exp(float64(e.logits[1]-e.logits[0]))))
}
