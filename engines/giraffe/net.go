package giraffe

import (
	"fmt"
	"strings"
	"sync"

	"arena/engines/board"
	"arena/engines/internal/nnengine"
	"arena/engines/nn/mlp"
	"arena/engines/nn/nets"
)

// Arch is the evaluation net: each feature group has its own first hidden
// layer (global 19 -> 16, piece-centric 216 -> 128, square-centric 128 ->
// 64, ReLU), then two fully connected layers (208 -> 64 ReLU -> 1 tanh).
// The output is the expected result for White in [-1, 1]. About 50 k
// multiply-adds an evaluation.
var Arch = mlp.Arch{
	Name:   "giraffe-1",
	Inputs: NumFeatures,
	Groups: []mlp.Group{
		{From: 0, To: GlobalFeatures, Layers: []mlp.Dense{{Out: 16, Act: mlp.ReLU}}},
		{From: GlobalFeatures, To: GlobalFeatures + PieceFeatures, Layers: []mlp.Dense{{Out: 128, Act: mlp.ReLU}}},
		{From: GlobalFeatures + PieceFeatures, To: NumFeatures, Layers: []mlp.Dense{{Out: 64, Act: mlp.ReLU}}},
	},
	Layers: []mlp.Dense{{Out: 64, Act: mlp.ReLU}, {Out: 1, Act: mlp.Tanh}},
}

// shipped is the compiled shipped net, built once and shared (mlp.Net is
// immutable).
var shipped struct {
	once sync.Once
	net  *mlp.Net
	err  error
}

// LoadNet loads a model option: "builtin:giraffe" (or empty) for the
// shipped net, else a safetensors file of architecture Arch. Errors name
// the option and the path.
func LoadNet(path string) (*mlp.Net, error) {
	if path == "" || strings.HasPrefix(path, nets.Prefix) {
		if name := strings.TrimPrefix(path, nets.Prefix); path != "" && name != nets.Giraffe {
			return nil, fmt.Errorf("%s: option %s=%s: no shipped net %q (expected %s%s)", Name, optModel, path, name, nets.Prefix, nets.Giraffe)
		}
		shipped.once.Do(func() {
			m, _, err := mlp.ReadSafetensors(nets.GiraffeFile())
			if err == nil && !m.Arch.Equal(&Arch) {
				err = fmt.Errorf("architecture %s, expected %s", &m.Arch, &Arch)
			}
			if err == nil {
				shipped.net, err = m.Compile()
			}
			if err != nil {
				shipped.err = fmt.Errorf("%s: shipped net %s: %w", Name, nets.Giraffe, err)
			}
		})
		return shipped.net, shipped.err
	}
	m, _, err := mlp.Load(path, &Arch)
	if err == nil {
		var net *mlp.Net
		if net, err = m.Compile(); err == nil {
			return net, nil
		}
	}
	return nil, fmt.Errorf("%s: option %s=%s: %w", Name, optModel, path, err)
}

// cacheBits sizes the evaluation cache: 2^16 entries of 16 bytes.
const cacheBits = 16

type cacheEntry struct {
	key uint64
	cp  int32
}

// evaluator is the heuristic search's static evaluation by the net. The
// quiescence search stands pat at every node, and many of them repeat
// (transpositions, re-searches of iterative deepening), so results are
// kept in a direct-mapped cache keyed by the Zobrist key, which makes an
// evaluation a function of the position only, as the search's table needs.
type evaluator struct {
	ev    *mlp.Evaluator
	x     Extractor
	in    []float32
	out   [1]float32
	cache []cacheEntry
	evals int64 // net evaluations (cache misses), for the nodes/s figures
}

func newEvaluator(net *mlp.Net) *evaluator {
	return &evaluator{ev: net.NewEvaluator(1), in: make([]float32, NumFeatures), cache: make([]cacheEntry, 1<<cacheBits)}
}

// Evaluate returns the net's value of p in centipawns for the side to move
// (nnengine.ValueToCP, at most 2690 cp).
func (e *evaluator) Evaluate(p *board.Position) int32 {
	key := p.Hash()
	c := &e.cache[key&(1<<cacheBits-1)]
	if c.key != key || key == 0 {
		e.ev.Forward(e.x.Features(p, e.in), e.out[:])
		e.evals++
		c.key, c.cp = key, int32(nnengine.ValueToCP(float64(e.out[0])))
	}
	if p.SideToMove() == board.Black {
		return -c.cp
	}
	return c.cp
}
