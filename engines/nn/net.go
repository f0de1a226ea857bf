package nn

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"arena/engines/nn/gemm"
)

// Input sizes: 12 planes of 8x8, plane-major as in PyTorch's (12, 8, 8).
const (
	Planes    = 12
	InputSize = Planes * 64
)

// Input is one position for the network: Input[plane*64 + row*8 + col].
type Input [InputSize]float32

// chunkBoards is how many positions one pass through the layers handles;
// larger batches are split. 32 positions keep a layer's input and output
// (2 x 1 MB at 128 channels) in the L2 cache next to its weights.
const chunkBoards = 32

// bnEps is PyTorch's BatchNorm2d default epsilon, which the thesis uses.
const bnEps = 1e-5

// gemmLayer is one convolution or linear layer, BatchNorm folded in, as a
// matrix product: output row = one square of one position (one position for
// the linear layer), column = output channel, K = taps x input channels.
type gemmLayer struct {
	cin, cout, taps int
	packed          []float32 // cout/nr panels, each [taps][cin][nr]
	bias            []float32
}

// Net is a ValueNet ready for inference. It is immutable: share one Net
// between goroutines and give each goroutine its own Evaluator.
type Net struct {
	weights *Weights
	kern    *gemm.Kernels
	layers  [5]gemmLayer // conv 3x3 x3, conv 1x1, linear 2048->256 (all + ReLU)
	outW    [256]float32 // linear 256->1, then tanh
	outB    float32
	pool    sync.Pool // *Evaluator for Net.Evaluate and Net.EvaluateBatch
}

// New builds a network from validated weights (see Weights.Validate), using
// the fastest kernel this CPU supports, or the one ARENA_GEMM forces (see
// package gemm).
func New(w *Weights) (*Net, error) {
	k, err := gemm.Default()
	if err != nil {
		return nil, err
	}
	return newWithKernel(w, k)
}

func newWithKernel(w *Weights, k *gemm.Kernels) (*Net, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	n := &Net{weights: w, kern: k}
	convs := []struct {
		conv, bn  string
		cin, cout int
		size      int
	}{
		{"body.0", "body.1", 12, 64, 3},
		{"body.3", "body.4", 64, 128, 3},
		{"body.6", "body.7", 128, 128, 3},
		{"body.9", "", 128, 32, 1},
	}
	for i, c := range convs {
		weight, bias := foldBatchNorm(w, c.conv, c.bn)
		n.layers[i] = packConv(k, weight, bias, c.cin, c.cout, c.size)
	}
	n.layers[4] = packFlattenLinear(k, w.Tensor("head.1.weight").F32, w.Tensor("head.1.bias").F32)
	copy(n.outW[:], w.Tensor("head.3.weight").F32)
	n.outB = w.Tensor("head.3.bias").F32[0]
	return n, nil
}

// Weights returns the tensors the network was built from (unfolded, as in
// the file), for saving. They must not be modified.
func (n *Net) Weights() *Weights { return n.weights }

// Kernel names the matrix kernel in use: "avx512", "avx2" or "go".
func (n *Net) Kernel() string { return n.kern.Name }

// foldBatchNorm returns conv weights and bias with the following eval-mode
// BatchNorm applied: y = (conv(x) - mean) * gamma / sqrt(var + eps) + beta.
// Computed in float64 so folding adds no error beyond float32 rounding.
func foldBatchNorm(w *Weights, conv, bn string) ([]float32, []float32) {
	weight := w.Tensor(conv + ".weight").F32
	bias := w.Tensor(conv + ".bias").F32
	outW, outB := make([]float32, len(weight)), make([]float32, len(bias))
	if bn == "" {
		copy(outW, weight)
		copy(outB, bias)
		return outW, outB
	}
	gamma, beta := w.Tensor(bn+".weight").F32, w.Tensor(bn+".bias").F32
	mean, variance := w.Tensor(bn+".running_mean").F32, w.Tensor(bn+".running_var").F32
	per := len(weight) / len(bias)
	for o := range bias {
		s := float64(gamma[o]) / math.Sqrt(float64(variance[o])+bnEps)
		for i := o * per; i < (o+1)*per; i++ {
			outW[i] = float32(float64(weight[i]) * s)
		}
		outB[o] = float32((float64(bias[o])-float64(mean[o]))*s + float64(beta[o]))
	}
	return outW, outB
}

// packConv lays out PyTorch conv weights [cout][cin][size][size] as nr-wide
// column panels [cout/nr][tap][cin][nr], tap = ky*size + kx, the order in
// which the kernel walks K.
func packConv(k *gemm.Kernels, weight, bias []float32, cin, cout, size int) gemmLayer {
	taps := size * size
	l := gemmLayer{cin: cin, cout: cout, taps: taps, packed: make([]float32, len(weight)), bias: bias}
	i := 0
	for j := 0; j < cout; j += k.NR {
		for t := 0; t < taps; t++ {
			for c := 0; c < cin; c++ {
				for o := j; o < j+k.NR; o++ {
					l.packed[i] = weight[(o*cin+c)*taps+t]
					i++
				}
			}
		}
	}
	return l
}

// packFlattenLinear packs Linear(2048, 256) after Flatten. PyTorch flattens
// the (32, 8, 8) activations channel-major (index c*64 + square); here a
// position's activations are square-major (square*32 + c), so the columns are
// permuted to match instead of moving the data.
func packFlattenLinear(k *gemm.Kernels, weight, bias []float32) gemmLayer {
	const channels, squares, out = 32, 64, 256
	l := gemmLayer{cin: channels * squares, cout: out, taps: 1, packed: make([]float32, len(weight)), bias: bias}
	i := 0
	for j := 0; j < out; j += k.NR {
		for s := 0; s < squares; s++ {
			for c := 0; c < channels; c++ {
				for o := j; o < j+k.NR; o++ {
					l.packed[i] = weight[o*channels*squares+c*squares+s]
					i++
				}
			}
		}
	}
	return l
}

// Evaluator runs the network for one goroutine at a time. It owns all
// scratch memory (about 3.5 MB), allocated once by NewEvaluator, so
// evaluating allocates nothing.
type Evaluator struct {
	net     *Net
	rowsCap int          // rows (squares) the buffers hold; row rowsCap is all zero
	act     [5][]float32 // input and the outputs of the four convolutions, [row][channel]
	hidden  []float32    // linear 2048->256 output, [position][256]
	conv3x3 []int32      // per tile and tap, the input row of each output row (rowsCap = off the board)
	rows    []int32      // 0, 1, 2, ...: the identity table for 1x1 convolution and linear
}

// NewEvaluator allocates the scratch state for one goroutine.
func (n *Net) NewEvaluator() *Evaluator {
	mr := n.kern.MR
	// Whole tiles of positions, so the linear layer's padded rows stay in the
	// buffers; that many positions' squares is also a whole number of tiles.
	rowsCap := roundUp(chunkBoards, mr) * 64
	e := &Evaluator{net: n, rowsCap: rowsCap}
	channels := [5]int{Planes, 64, 128, 128, 32}
	for i, c := range channels {
		e.act[i] = make([]float32, (rowsCap+1)*c)
	}
	e.hidden = make([]float32, roundUp(chunkBoards, mr)*256)
	e.rows = make([]int32, rowsCap)
	for i := range e.rows {
		e.rows[i] = int32(i)
	}
	e.conv3x3 = make([]int32, 0, rowsCap*9)
	for r0 := 0; r0 < rowsCap; r0 += mr {
		for t := 0; t < 9; t++ {
			dy, dx := t/3-1, t%3-1
			for r := r0; r < r0+mr; r++ {
				y, x := r%64/8+dy, r%8+dx
				src := int32(rowsCap)
				if y >= 0 && y < 8 && x >= 0 && x < 8 {
					src = int32(r - r%64 + y*8 + x)
				}
				e.conv3x3 = append(e.conv3x3, src)
			}
		}
	}
	return e
}

// Evaluate returns the value of one position, in [-1, 1], positive when good
// for White.
func (e *Evaluator) Evaluate(in *Input) float32 {
	var out [1]float32
	e.evaluateChunk(unsafe.Slice(in, 1), out[:])
	return out[0]
}

// EvaluateBatch evaluates in[i] into out[i]; out must be at least as long as
// in. The results equal Evaluate's for each position.
func (e *Evaluator) EvaluateBatch(in []Input, out []float32) {
	if len(out) < len(in) {
		panic(fmt.Sprintf("nn: EvaluateBatch: %d outputs for %d inputs", len(out), len(in)))
	}
	for len(in) > 0 {
		k := min(len(in), chunkBoards)
		e.evaluateChunk(in[:k], out[:k])
		in, out = in[k:], out[k:]
	}
}

// Evaluate is Evaluator.Evaluate with an evaluator from a pool: safe for
// concurrent use. Hot loops should own an Evaluator instead.
func (n *Net) Evaluate(in *Input) float32 {
	e := n.evaluator()
	v := e.Evaluate(in)
	n.pool.Put(e)
	return v
}

// EvaluateBatch is Evaluator.EvaluateBatch with a pooled evaluator.
func (n *Net) EvaluateBatch(in []Input, out []float32) {
	e := n.evaluator()
	e.EvaluateBatch(in, out)
	n.pool.Put(e)
}

func (n *Net) evaluator() *Evaluator {
	if e, ok := n.pool.Get().(*Evaluator); ok {
		return e
	}
	return n.NewEvaluator()
}

// evaluateChunk runs len(in) <= chunkBoards positions.
func (e *Evaluator) evaluateChunk(in []Input, out []float32) {
	n := e.net
	count := len(in)
	// Planes [p][square] to rows [square][p].
	a0 := e.act[0]
	for b := range in {
		pos := &in[b]
		rows := a0[b*64*Planes : (b+1)*64*Planes]
		for p := 0; p < Planes; p++ {
			plane := pos[p*64 : (p+1)*64]
			for s, v := range plane {
				rows[s*Planes+p] = v
			}
		}
	}
	squares := count * 64
	e.gemm(&n.layers[0], e.act[0], e.conv3x3, squares, e.act[1])
	e.gemm(&n.layers[1], e.act[1], e.conv3x3, squares, e.act[2])
	e.gemm(&n.layers[2], e.act[2], e.conv3x3, squares, e.act[3])
	e.gemm(&n.layers[3], e.act[3], e.rows, squares, e.act[4])
	e.linear(&n.layers[4], e.act[4], count, e.hidden)
	for b := range count {
		h := e.hidden[b*256 : (b+1)*256]
		sum := n.outB
		for i, v := range h {
			sum += v * n.outW[i]
		}
		out[b] = float32(math.Tanh(float64(sum)))
	}
}

// gemm computes the first rows output rows of layer l from a (rows [*][cin]),
// reading input rows through the table idx, into c ([*][cout]), bias and
// ReLU included. Rows are done in tiles of the kernel's mr; the last tile's
// padding rows compute throw-away values inside the buffers.
func (e *Evaluator) gemm(l *gemmLayer, a []float32, idx []int32, rows int, c []float32) {
	k := e.net.kern
	mr, nr := k.MR, k.NR
	panel := l.taps * l.cin * nr
	for r0, tile := 0, 0; r0 < rows; r0, tile = r0+mr, tile+1 {
		tidx := idx[tile*l.taps*mr : (tile+1)*l.taps*mr]
		crow := c[r0*l.cout : (r0+mr)*l.cout]
		for j := 0; j < l.cout; j += nr {
			k.Tile(a, tidx, l.taps, l.cin, l.packed[j/nr*panel:(j/nr+1)*panel], crow[j:], l.cout, l.bias[j:j+nr])
		}
	}
}

// linear is gemm for a linear layer (input rows consecutive). Rows short of
// a whole tile are done one by one with the row kernel when that is cheaper
// than a padded tile: each row pass streams all the weights (2 MB for
// 2048->256), about the cost of the tile kernel computing two rows.
func (e *Evaluator) linear(l *gemmLayer, a []float32, rows int, c []float32) {
	k := e.net.kern
	tiled := rows - rows%k.MR
	if rows-tiled > 2 {
		tiled = rows
	}
	e.gemm(l, a, e.rows, tiled, c)
	panel := l.cin * k.NR
	group := k.RowPanels * k.NR
	for r := tiled; r < rows; r++ {
		in := a[r*l.cin : (r+1)*l.cin]
		for j := 0; j < l.cout; j += group {
			k.Row(in, l.packed[j/k.NR*panel:], panel, c[r*l.cout+j:r*l.cout+j+group], l.bias[j:j+group])
		}
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }
