package mlp

import "arena/engines/nn/gemm"

// The backward pass's two products per layer run on gemm's 8x32 training
// tile: the weight gradient dz^T x (Out x rows times rows x In) and the
// input gradient dz W (rows x Out times Out x In). The tile reads whole
// 8-row and 32-column blocks, so its operands are copied into buffers
// padded to those sizes; the padding's contents only reach outputs that are
// not copied back, so it is never cleared.

// newTileBufs sizes a worker's three operand buffers for up to rows rows
// and layers up to width wide.
func newTileBufs(rows, width int) [3][]float32 {
	r8, w8, w32 := roundUp(rows, gemm.TileM), roundUp(width, gemm.TileM), roundUp(width, gemm.TileN)
	return [3][]float32{make([]float32, w8*r8), make([]float32, r8*w32), make([]float32, max(w8, r8)*w32)}
}

// widen copies every layer's weights into t.wide, rows padded to a whole
// number of tile columns.
func (t *Tape) widen() {
	if t.wide == nil {
		t.wide = make([][][]float32, len(t.m.stacks))
		for s, ls := range t.m.stacks {
			for _, l := range ls {
				t.wide[s] = append(t.wide[s], make([]float32, l.Out*roundUp(l.In, gemm.TileN)))
			}
		}
	}
	for s, ls := range t.m.stacks {
		for i, l := range ls {
			inP := roundUp(l.In, gemm.TileN)
			for o := range l.Out {
				copy(t.wide[s][i][o*inP:], l.W[o*l.In:(o+1)*l.In])
			}
		}
	}
}

// weightGrad adds the gradients of layer g's weights and biases for rows
// rows: dz [rows][Out] times the layer inputs x (row stride xs).
func (t *Tape) weightGrad(w int, g *Layer, x []float32, xs int, dz []float32, rows int) {
	k := t.net.kern
	bufs := &t.tiles[w]
	inP, out8 := roundUp(g.In, gemm.TileN), roundUp(g.Out, gemm.TileM)
	dzT, xp, c := bufs[0][:out8*rows], bufs[1][:rows*inP], bufs[2][:out8*inP]
	for r := range rows {
		for o, d := range dz[r*g.Out : (r+1)*g.Out] {
			dzT[o*rows+r] = d
			g.B[o] += d
		}
		copy(xp[r*inP:], x[r*xs:r*xs+g.In])
	}
	var aoff [1]int
	for o0 := 0; o0 < out8; o0 += gemm.TileM {
		aoff[0] = o0 * rows
		for j := 0; j < inP; j += gemm.TileN {
			k.TrainTile(dzT, aoff[:], rows, rows, xp[j:], inP, c[o0*inP+j:], inP, false)
		}
	}
	for o := range g.Out {
		row, src := g.W[o*g.In:(o+1)*g.In], c[o*inP:]
		for i := range row {
			row[i] += src[i]
		}
	}
}

// inputGrad writes dx [rows][In] = dz [rows][Out] times layer l's weights,
// given as wide ([Out][In rounded up to TileN]).
func (t *Tape) inputGrad(w int, l *Layer, wide, dz []float32, rows int, dx []float32) {
	k := t.net.kern
	bufs := &t.tiles[w]
	inP, r8 := roundUp(l.In, gemm.TileN), roundUp(rows, gemm.TileM)
	dzp, c := bufs[0][:r8*l.Out], bufs[2][:r8*inP]
	copy(dzp, dz[:rows*l.Out])
	var aoff [1]int
	for r0 := 0; r0 < r8; r0 += gemm.TileM {
		aoff[0] = r0 * l.Out
		for j := 0; j < inP; j += gemm.TileN {
			k.TrainTile(dzp, aoff[:], l.Out, l.Out, wide[j:], inP, c[r0*inP+j:], inP, false)
		}
	}
	for r := range rows {
		copy(dx[r*l.In:(r+1)*l.In], c[r*inP:])
	}
}
