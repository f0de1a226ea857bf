package train

import (
	"math"
	"sync"

	"arena/engines/nn"
	"arena/engines/nn/gemm"
)

// bnMomentum and bnEps are PyTorch's BatchNorm2d defaults.
const (
	bnMomentum = 0.1
	bnEps      = 1e-5
)

// workspace holds the activations and gradients of one batch size.
type workspace struct {
	k       *gemm.Kernels // the matrix kernels
	batch   int
	workers int
	rows    int // padded rows: guard + batch*100 + guard

	x  [4][]float32 // conv inputs, padded [rows][cin]; x[0] holds the planes
	xt []float32    // one conv input transposed, [cin][rows], for the weight gradients
	z  [4][]float32 // conv outputs before BatchNorm, then normalised (x-hat), [batch*64][cout]
	// invStd and mean of the batch per BatchNorm channel.
	invStd, mean [3][]float64
	f            []float32 // [batch][2048]: ReLU(conv 1x1), square-major
	ft           []float32 // f transposed [2048][batch]
	h            []float32 // [batch][256]
	v            []float32 // [batch] outputs
	dpre         []float32 // [batch] loss gradient before tanh
	dh           []float32 // [batch][256]
	df           []float32 // [batch][2048]
	dz           []float32 // conv output gradient, padded [rows][cout] (zero borders)
	da           []float32 // conv input gradient, [batch*64][cin]
	wt           []float32 // transposed weights for the input gradient
	part         [][]float32
	grads        []float32
	gradModel    *Model // views grads
}

func newWorkspace(batch, workers int, k *gemm.Kernels) *workspace {
	ws := &workspace{k: k, batch: batch, workers: workers, rows: 2*guard + batch*boardRows}
	sq := batch * 64
	m := shape()
	for i, c := range m.convs {
		ws.x[i] = make([]float32, ws.rows*c.cin)
		ws.z[i] = make([]float32, sq*c.cout)
		if c.bn != "" {
			ws.invStd[i] = make([]float64, c.cout)
			ws.mean[i] = make([]float64, c.cout)
		}
	}
	ws.xt = make([]float32, 128*ws.rows)
	ws.f = make([]float32, batch*flat)
	ws.ft = make([]float32, flat*batch)
	ws.h = make([]float32, batch*hidden)
	ws.v = make([]float32, batch)
	ws.dpre = make([]float32, batch)
	ws.dh = make([]float32, batch*hidden)
	ws.df = make([]float32, batch*flat)
	ws.dz = make([]float32, ws.rows*128)
	ws.da = make([]float32, sq*128)
	ws.wt = make([]float32, flat*hidden)
	ws.gradModel = shape()
	ws.grads = make([]float32, ws.gradModel.paramCount())
	ws.gradModel.bind(ws.grads)
	ws.part = make([][]float32, workers)
	for w := range ws.part {
		ws.part[w] = make([]float32, flat*hidden)
	}
	return ws
}

// parallel runs f over [0, n) split into ws.workers contiguous parts, part
// w getting the same range every time (so results are reproducible).
func (ws *workspace) parallel(n int, f func(w, lo, hi int)) {
	if ws.workers == 1 {
		f(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < ws.workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, w*n/ws.workers, (w+1)*n/ws.workers)
		}()
	}
	f(0, 0, n/ws.workers)
	wg.Wait()
}

// load writes the inputs (Placement per position) into x[0].
func (ws *workspace) load(pos []nn.Placement) {
	x := ws.x[0]
	clear(x)
	for b := range pos {
		for sq, p := range pos[b] {
			if p == 0 {
				continue
			}
			colour, pt := 0, int(p)-1
			if p < 0 {
				colour, pt = 1, int(-p)-1
			}
			idx := nn.PlaneIndex(colour, pt, sq)
			plane, rc := idx/64, idx%64
			x[paddedRow(b, rc/8, rc%8)*inPlanes+plane] = 1
		}
	}
}

// convForward computes z = conv(x) + bias for every interior square: one
// tile per board row (8 squares).
func (ws *workspace) convForward(c *conv, x, z []float32) {
	ws.parallel(ws.batch*8, func(_, lo, hi int) {
		var aoff [9]int
		for tile := lo; tile < hi; tile++ {
			b, y := tile/8, tile%8
			r0 := paddedRow(b, y, 0)
			for t := range c.taps {
				off := 0
				if c.taps == 9 {
					off = tapOffset(t)
				}
				aoff[t] = (r0 + off) * c.cin
			}
			out := z[tile*8*c.cout:]
			for j := 0; j < c.cout; j += gemm.TileN {
				ws.k.TrainTile(x, aoff[:c.taps], c.cin, c.cin, c.w[j:], c.cout, out[j:], c.cout, false)
				for i := range gemm.TileM {
					row := out[i*c.cout+j:][:gemm.TileN]
					bias := c.b[j:][:gemm.TileN]
					for l := range row {
						row[l] += bias[l]
					}
				}
			}
		}
	})
}

// forward runs the network on the batch in x[0] (filled by load). In
// training mode BatchNorm uses the batch statistics and updates the running
// ones; otherwise it uses the running ones (PyTorch's eval mode).
func (ws *workspace) forward(m *Model, training bool) {
	n := ws.batch * 64
	for l := range 3 {
		c := &m.convs[l]
		z := ws.z[l]
		ws.convForward(c, ws.x[l], z)
		mean, invStd := ws.mean[l], ws.invStd[l]
		if training {
			ws.batchStats(z, c.cout, mean, invStd)
			for o := range c.cout {
				variance := 1/(invStd[o]*invStd[o]) - bnEps
				c.runMean[o] = float32((1-bnMomentum)*float64(c.runMean[o]) + bnMomentum*mean[o])
				c.runVar[o] = float32((1-bnMomentum)*float64(c.runVar[o]) + bnMomentum*variance*float64(n)/float64(n-1))
			}
			c.batches++
		} else {
			for o := range c.cout {
				mean[o] = float64(c.runMean[o])
				invStd[o] = 1 / math.Sqrt(float64(c.runVar[o])+bnEps)
			}
		}
		next := ws.x[l+1]
		cout := c.cout
		ws.parallel(n, func(_, lo, hi int) {
			for r := lo; r < hi; r++ {
				b, s := r/64, r%64
				zr := z[r*cout:][:cout]
				out := next[paddedRow(b, s/8, s%8)*cout:][:cout]
				for o, v := range zr {
					xh := float32((float64(v) - mean[o]) * invStd[o])
					zr[o] = xh
					out[o] = max(0, c.gamma[o]*xh+c.beta[o])
				}
			}
		})
	}
	c := &m.convs[3]
	ws.convForward(c, ws.x[3], ws.z[3])
	for i, v := range ws.z[3][:n*32] {
		ws.f[i] = max(0, v)
	}
	// Linear 2048 -> 256, ReLU: one tile per 8 positions.
	ws.parallel(ws.batch/gemm.TileM, func(_, lo, hi int) {
		var aoff [1]int
		for tile := lo; tile < hi; tile++ {
			aoff[0] = tile * gemm.TileM * flat
			out := ws.h[tile*gemm.TileM*hidden:]
			for j := 0; j < hidden; j += gemm.TileN {
				ws.k.TrainTile(ws.f, aoff[:], flat, flat, m.lin1W[j:], hidden, out[j:], hidden, false)
			}
			for i := range gemm.TileM {
				row := out[i*hidden:][:hidden]
				for l := range row {
					row[l] = max(0, row[l]+m.lin1B[l])
				}
			}
		}
	})
	for b := range ws.batch {
		sum := float64(m.lin2B[0])
		for j, v := range ws.h[b*hidden : (b+1)*hidden] {
			sum += float64(v) * float64(m.lin2W[j])
		}
		ws.v[b] = float32(math.Tanh(sum))
	}
}

// batchStats computes each channel's mean and 1/sqrt(biased variance + eps)
// over the rows of z ([n][c]), in float64, partial sums per worker added in
// worker order.
func (ws *workspace) batchStats(z []float32, c int, mean, invStd []float64) {
	n := len(z) / c
	sums := make([][]float64, ws.workers)
	ws.parallel(n, func(w, lo, hi int) {
		s := make([]float64, 2*c)
		for r := lo; r < hi; r++ {
			for o, v := range z[r*c : (r+1)*c] {
				s[o] += float64(v)
				s[c+o] += float64(v) * float64(v)
			}
		}
		sums[w] = s
	})
	for o := range c {
		var s, ss float64
		for _, p := range sums {
			s += p[o]
			ss += p[c+o]
		}
		mu := s / float64(n)
		variance := max(ss/float64(n)-mu*mu, 0)
		mean[o] = mu
		invStd[o] = 1 / math.Sqrt(variance+bnEps)
	}
}

// loss returns the mean squared error of ws.v against target and sets
// dpre, the gradient of the loss with respect to the pre-tanh output.
func (ws *workspace) loss(target []float32) float64 {
	var sum float64
	for b, v := range ws.v {
		d := float64(v) - float64(target[b])
		sum += d * d
		ws.dpre[b] = float32(2 * d / float64(ws.batch) * (1 - float64(v)*float64(v)))
	}
	return sum / float64(ws.batch)
}
