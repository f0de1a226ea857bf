package train

import "arena/engines/nn/gemm"

// The backward pass of a training step: the gradients of the loss through
// the linear layers, the convolutions and their batch norms, into the
// workspace's gradient model. The forward pass and the workspace are in
// step.go.

// kBlock is how many board rows one weight-gradient product sums before
// moving to the next tap: a block of activations and output gradients
// (kBlock x 128 channels, 128 KB each) stays in the L2 cache while the nine
// taps read it.
const kBlock = 256

// backward computes the gradients of the loss (after loss) into ws.grads.
func (ws *workspace) backward(m *Model) {
	g := ws.gradModel
	n := ws.batch * 64
	// Linear 256 -> 1.
	var gb float64
	for j := range hidden {
		var s float64
		for b := range ws.batch {
			s += float64(ws.dpre[b]) * float64(ws.h[b*hidden+j])
		}
		g.lin2W[j] = float32(s)
	}
	for b := range ws.batch {
		gb += float64(ws.dpre[b])
		for j := range hidden {
			d := float32(0)
			if ws.h[b*hidden+j] > 0 {
				d = ws.dpre[b] * m.lin2W[j]
			}
			ws.dh[b*hidden+j] = d
		}
	}
	g.lin2B[0] = float32(gb)
	// Linear 2048 -> 256: weight gradient f^T dh, input gradient dh W^T.
	ws.transpose(ws.f, ws.batch, flat, ws.ft)
	ws.parallel(flat/gemm.TileM, func(_, lo, hi int) {
		var aoff [1]int
		for tile := lo; tile < hi; tile++ {
			aoff[0] = tile * gemm.TileM * ws.batch
			for j := 0; j < hidden; j += gemm.TileN {
				ws.k.TrainTile(ws.ft, aoff[:], ws.batch, ws.batch, ws.dh[j:], hidden, g.lin1W[tile*gemm.TileM*hidden+j:], hidden, false)
			}
		}
	})
	sumRows(ws.dh, hidden, g.lin1B)
	ws.transpose(m.lin1W, flat, hidden, ws.wt)
	ws.parallel(ws.batch/gemm.TileM, func(_, lo, hi int) {
		var aoff [1]int
		for tile := lo; tile < hi; tile++ {
			aoff[0] = tile * gemm.TileM * hidden
			for j := 0; j < flat; j += gemm.TileN {
				ws.k.TrainTile(ws.dh, aoff[:], hidden, hidden, ws.wt[j:], flat, ws.df[tile*gemm.TileM*flat+j:], flat, false)
			}
		}
	})
	// Conv 1x1 + ReLU: dz = df where f > 0, into the padded layout.
	clear(ws.dz)
	for r := range n {
		b, s := r/64, r%64
		out := ws.dz[paddedRow(b, s/8, s%8)*32:][:32]
		for o := range 32 {
			if ws.f[r*32+o] > 0 {
				out[o] = ws.df[r*32+o]
			}
		}
	}
	for l := 3; l >= 0; l-- {
		c, gc := &m.convs[l], &g.convs[l]
		ws.convWeightGrad(c, ws.x[l], gc)
		if l == 0 {
			break
		}
		ws.convInputGrad(c)
		// Through the previous layer's ReLU and BatchNorm into dz.
		prev, gp := &m.convs[l-1], &g.convs[l-1]
		ws.bnBackward(l-1, prev, gp)
	}
}

// convWeightGrad computes gc.w (sum over squares of x shifted by each tap
// times dz) and gc.b (sum of dz) for conv c with input x, output gradient
// ws.dz (padded).
func (ws *workspace) convWeightGrad(c *conv, x []float32, gc *conv) {
	ws.transpose(x, ws.rows, c.cin, ws.xt)
	k := ws.batch * boardRows
	blocks := (k + kBlock - 1) / kBlock
	size := c.taps * c.cin * c.cout
	ws.parallel(blocks, func(w, lo, hi int) {
		part := ws.part[w][:size]
		var aoff [1]int
		for blk := lo; blk < hi; blk++ {
			k0 := blk * kBlock
			kn := min(kBlock, k-k0)
			for t := range c.taps {
				off := 0
				if c.taps == 9 {
					off = tapOffset(t)
				}
				for ci := 0; ci < c.cin; ci += gemm.TileM {
					aoff[0] = ci*ws.rows + guard + k0 + off
					for j := 0; j < c.cout; j += gemm.TileN {
						ws.k.TrainTile(ws.xt, aoff[:], ws.rows, kn, ws.dz[(guard+k0)*c.cout+j:], c.cout,
							part[(t*c.cin+ci)*c.cout+j:], c.cout, blk > lo)
					}
				}
			}
		}
		if lo == hi {
			clear(part)
		}
	})
	copy(gc.w, ws.part[0][:size])
	for w := 1; w < ws.workers; w++ {
		for i, v := range ws.part[w][:size] {
			gc.w[i] += v
		}
	}
	// Split by channel, each summed over the rows in order, so the result
	// does not depend on the number of workers.
	ws.parallel(c.cout, func(_, lo, hi int) {
		sum := gc.b[lo:hi]
		clear(sum)
		for r := range ws.batch * 64 {
			b, sq := r/64, r%64
			for o, v := range ws.dz[paddedRow(b, sq/8, sq%8)*c.cout+lo:][:hi-lo] {
				sum[o] += v
			}
		}
	})
}

// convInputGrad computes ws.da = the gradient of conv c's interior input
// squares: for each tap, dz read at the opposite shift times the tap's
// transposed weights.
func (ws *workspace) convInputGrad(c *conv) {
	wt := ws.wt[:c.taps*c.cout*c.cin]
	for t := range c.taps {
		transposeRows(c.w[t*c.cin*c.cout:(t+1)*c.cin*c.cout], c.cin, c.cout, wt[t*c.cout*c.cin:], 0, c.cin)
	}
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
				aoff[t] = (r0 - off) * c.cout
			}
			for j := 0; j < c.cin; j += gemm.TileN {
				ws.k.TrainTile(ws.dz, aoff[:c.taps], c.cout, c.cout, wt[j:], c.cin, ws.da[tile*gemm.TileM*c.cin+j:], c.cin, false)
			}
		}
	})
}

// bnBackward takes ws.da (the gradient of layer l+1's input, which is
// ReLU(BN(z_l))) back through the ReLU and BatchNorm of layer l: it sets
// gc's gamma and beta gradients and writes dz (padded) for conv l.
func (ws *workspace) bnBackward(l int, c *conv, gc *conv) {
	cout := c.cout
	n := ws.batch * 64
	xn := ws.x[l+1]
	zh := ws.z[l]
	// dy = da where the ReLU passed, kept in da.
	ws.parallel(n, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			b, s := r/64, r%64
			out := xn[paddedRow(b, s/8, s%8)*cout:][:cout]
			d := ws.da[r*cout:][:cout]
			for o := range d {
				if out[o] <= 0 {
					d[o] = 0
				}
			}
		}
	})
	sums := make([][]float64, ws.workers)
	ws.parallel(n, func(w, lo, hi int) {
		s := make([]float64, 2*cout)
		for r := lo; r < hi; r++ {
			d := ws.da[r*cout:][:cout]
			x := zh[r*cout:][:cout]
			for o := range d {
				s[o] += float64(d[o])
				s[cout+o] += float64(d[o]) * float64(x[o])
			}
		}
		sums[w] = s
	})
	dbeta := make([]float64, cout)
	dgamma := make([]float64, cout)
	for _, s := range sums {
		for o := range cout {
			dbeta[o] += s[o]
			dgamma[o] += s[cout+o]
		}
	}
	for o := range cout {
		gc.beta[o] = float32(dbeta[o])
		gc.gamma[o] = float32(dgamma[o])
	}
	clear(ws.dz)
	invStd := ws.invStd[l]
	ws.parallel(n, func(_, lo, hi int) {
		fn := float64(n)
		for r := lo; r < hi; r++ {
			b, s := r/64, r%64
			d := ws.da[r*cout:][:cout]
			x := zh[r*cout:][:cout]
			out := ws.dz[paddedRow(b, s/8, s%8)*cout:][:cout]
			for o := range d {
				k := float64(c.gamma[o]) * invStd[o]
				out[o] = float32(k * (float64(d[o]) - dbeta[o]/fn - float64(x[o])*dgamma[o]/fn))
			}
		}
	})
}

// transpose writes the rows x cols matrix a as cols x rows into t, blocks
// of rows spread over the workers.
func (ws *workspace) transpose(a []float32, rows, cols int, t []float32) {
	const blk = 32
	ws.parallel((rows+blk-1)/blk, func(_, lo, hi int) {
		transposeRows(a, rows, cols, t, lo*blk, min(hi*blk, rows))
	})
}

// transposeRows is transpose for rows [from, to).
func transposeRows(a []float32, rows, cols int, t []float32, from, to int) {
	const blk = 32
	for r0 := from; r0 < to; r0 += blk {
		r1 := min(r0+blk, to)
		for c0 := 0; c0 < cols; c0 += blk {
			c1 := min(c0+blk, cols)
			for r := r0; r < r1; r++ {
				row := a[r*cols:]
				for c := c0; c < c1; c++ {
					t[c*rows+r] = row[c]
				}
			}
		}
	}
}

// sumRows sets out[j] to the sum over rows of a ([*][cols]).
func sumRows(a []float32, cols int, out []float32) {
	acc := make([]float64, cols)
	for i := 0; i+cols <= len(a); i += cols {
		for j, v := range a[i : i+cols] {
			acc[j] += float64(v)
		}
	}
	for j := range out {
		out[j] = float32(acc[j])
	}
}
