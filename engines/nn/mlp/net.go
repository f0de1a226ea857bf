package mlp

import (
	"fmt"

	"arena/engines/nn/gemm"
)

// packedLayer is one layer laid out for package gemm's kernels, which
// always add the bias and apply ReLU. Other activations get two kernel
// columns per output, for w and -w (bias b and -b): their difference
// max(0, z) - max(0, -z) is z exactly (negation commutes with every
// rounding), and the activation is applied to z afterwards.
type packedLayer struct {
	in, inStride int // real inputs; stride of the input rows (zero padded)
	out          int
	act          Act
	cout         int       // kernel columns, a multiple of the row kernel's group
	w            []float32 // cout/NR panels, each [inStride][NR]
	bias         []float32 // [cout]
	actStride    int       // stride of the activations: cout for ReLU, else out rounded up to 4
}

// stack is a group (inputs [from, to), output copied to the trunk's input
// at concatOff) or the trunk (the last stack).
type stack struct {
	from, to, concatOff int
	inStride            int
	layers              []packedLayer
}

// Net is a Model packed for inference. It is immutable: share it between
// goroutines and give each its own Evaluator.
type Net struct {
	arch   Arch
	kern   *gemm.Kernels
	stacks []stack
}

// Compile packs m for the fastest kernel this CPU supports, or the one
// ARENA_GEMM forces (see package gemm). Later changes to m do not affect
// the Net.
func (m *Model) Compile() (*Net, error) {
	k, err := gemm.Default()
	if err != nil {
		return nil, err
	}
	return m.compileWith(k), nil
}

func (m *Model) compileWith(k *gemm.Kernels) *Net {
	n := &Net{arch: cloneArch(m.Arch), kern: k, stacks: make([]stack, len(m.stacks))}
	off := 0
	for s, ls := range m.stacks {
		st := &n.stacks[s]
		st.inStride = roundUp(ls[0].In, 4)
		if s < len(m.Arch.Groups) {
			g := m.Arch.Groups[s]
			st.from, st.to, st.concatOff = g.From, g.To, off
			off += ls[len(ls)-1].Out
		}
		st.layers = make([]packedLayer, len(ls))
		stride := st.inStride
		for i := range ls {
			pl := &st.layers[i]
			pl.shape(k, &ls[i], stride)
			stride = pl.actStride
		}
	}
	n.repack(m)
	return n
}

// shape sets pl's dimensions for layer l read with input stride inStride
// and allocates its packed weights.
func (pl *packedLayer) shape(k *gemm.Kernels, l *Layer, inStride int) {
	cols := l.Out
	if l.Act != ReLU {
		cols = 2 * l.Out
	}
	*pl = packedLayer{in: l.In, inStride: inStride, out: l.Out, act: l.Act,
		cout: roundUp(cols, k.RowPanels*k.NR), actStride: roundUp(l.Out, 4)}
	if l.Act == ReLU {
		pl.actStride = pl.cout
	}
	pl.w = make([]float32, pl.cout*inStride)
	pl.bias = make([]float32, pl.cout)
}

// repack copies m's parameters (of the architecture n was compiled from)
// into the packed layouts; the trainer calls it before every forward pass.
func (n *Net) repack(m *Model) {
	nr := n.kern.NR
	for s := range n.stacks {
		for i := range n.stacks[s].layers {
			pl, l := &n.stacks[s].layers[i], &m.stacks[s][i]
			panel := pl.inStride * nr
			for c := range pl.cout {
				o, sign := c, float32(1)
				if pl.act != ReLU && c >= pl.out {
					o, sign = c-pl.out, -1
				}
				dst := pl.w[c/nr*panel+c%nr:]
				if o >= pl.out { // padding
					pl.bias[c] = 0
					for i := range pl.inStride {
						dst[i*nr] = 0
					}
					continue
				}
				pl.bias[c] = sign * l.B[o]
				w := l.W[o*l.In : (o+1)*l.In]
				for i, v := range w {
					dst[i*nr] = sign * v
				}
			}
		}
	}
}

// Arch is the net's architecture.
func (n *Net) Arch() *Arch { return &n.arch }

// Kernel names the matrix kernel in use: "avx512", "avx2" or "go".
func (n *Net) Kernel() string { return n.kern.Name }

// Evaluator runs a Net for one goroutine at a time. It owns the scratch
// memory for up to Cap positions a pass, so evaluating allocates nothing.
type Evaluator struct {
	net *Net
	cap int         // positions per pass, a multiple of the kernel's MR
	in  [][]float32 // per stack: input rows [cap][inStride]
	raw [][][]float32
	act [][][]float32 // per stack and layer: [cap][actStride] (raw's memory for ReLU)
	idx []int32       // 0, 1, 2, ...: the tile kernel's row table
}

// NewEvaluator allocates scratch for batches of up to batch positions a
// pass (larger batches are split); 1 for an engine's one-at-a-time use.
func (n *Net) NewEvaluator(batch int) *Evaluator {
	mr := n.kern.MR
	e := &Evaluator{net: n, cap: roundUp(max(batch, 1), mr)}
	for _, st := range n.stacks {
		e.in = append(e.in, make([]float32, e.cap*st.inStride))
		var raw, act [][]float32
		for _, pl := range st.layers {
			r := make([]float32, e.cap*pl.cout)
			a := r
			if pl.act != ReLU {
				a = make([]float32, e.cap*pl.actStride)
			}
			raw, act = append(raw, r), append(act, a)
		}
		e.raw, e.act = append(e.raw, raw), append(e.act, act)
	}
	e.idx = make([]int32, e.cap)
	for i := range e.idx {
		e.idx[i] = int32(i)
	}
	return e
}

// Forward evaluates one position: in has Arch.Inputs values, out gets
// Arch.Outputs. The result equals ForwardBatch's for the same position, bit
// for bit.
func (e *Evaluator) Forward(in, out []float32) { e.ForwardBatch(in, 1, out) }

// ForwardBatch evaluates n positions, in [n][Inputs] into out [n][Outputs].
func (e *Evaluator) ForwardBatch(in []float32, n int, out []float32) {
	a := &e.net.arch
	nin, nout := a.Inputs, a.Outputs()
	if len(in) < n*nin || len(out) < n*nout {
		panic(fmt.Sprintf("mlp: ForwardBatch of %d positions: %d inputs (want %d), %d outputs (want %d)", n, len(in), n*nin, len(out), n*nout))
	}
	for done := 0; done < n; done += e.cap {
		rows := min(e.cap, n-done)
		e.run(in[done*nin:(done+rows)*nin], rows)
		e.copyOut(out[done*nout:(done+rows)*nout], rows)
	}
}

// run computes every layer's activations for rows <= e.cap positions.
func (e *Evaluator) run(in []float32, rows int) {
	n := e.net
	nin := n.arch.Inputs
	trunk := len(n.stacks) - 1
	for s := range n.stacks {
		st := &n.stacks[s]
		buf := e.in[s]
		switch {
		case s < trunk:
			for r := range rows {
				copy(buf[r*st.inStride:], in[r*nin+st.from:r*nin+st.to])
			}
		case trunk == 0:
			for r := range rows {
				copy(buf[r*st.inStride:], in[r*nin:(r+1)*nin])
			}
		}
		x := buf
		for i := range st.layers {
			e.layer(&st.layers[i], x, rows, e.raw[s][i], e.act[s][i])
			x = e.act[s][i]
		}
		if s < trunk {
			last := &st.layers[len(st.layers)-1]
			tin, tstride := e.in[trunk], n.stacks[trunk].inStride
			for r := range rows {
				copy(tin[r*tstride+st.concatOff:], x[r*last.actStride:r*last.actStride+last.out])
			}
		}
	}
}

func (e *Evaluator) copyOut(out []float32, rows int) {
	trunk := len(e.net.stacks) - 1
	last := &e.net.stacks[trunk].layers[len(e.net.stacks[trunk].layers)-1]
	act := e.act[trunk][len(e.act[trunk])-1]
	for r := range rows {
		copy(out[r*last.out:(r+1)*last.out], act[r*last.actStride:])
	}
}

// layer computes one layer for rows positions: whole tiles with the tile
// kernel; a remainder of one or two rows with the row kernel (each row pass
// streams all the weights, about the cost of a tile computing two rows).
// Both kernels sum a row's products in the same order, so the split does
// not change any value.
func (e *Evaluator) layer(l *packedLayer, a []float32, rows int, raw, act []float32) {
	k := e.net.kern
	tiled := rows - rows%k.MR
	if rows-tiled > 2 {
		tiled = rows
	}
	panel := l.inStride * k.NR
	for r0 := 0; r0 < tiled; r0 += k.MR {
		tidx := e.idx[r0 : r0+k.MR]
		crow := raw[r0*l.cout:]
		for j := 0; j < l.cout; j += k.NR {
			k.Tile(a, tidx, 1, l.inStride, l.w[j/k.NR*panel:(j/k.NR+1)*panel], crow[j:], l.cout, l.bias[j:j+k.NR])
		}
	}
	group := k.RowPanels * k.NR
	for r := tiled; r < rows; r++ {
		in := a[r*l.inStride : (r+1)*l.inStride]
		for j := 0; j < l.cout; j += group {
			k.Row(in, l.w[j/k.NR*panel:], panel, raw[r*l.cout+j:r*l.cout+j+group], l.bias[j:j+group])
		}
	}
	if l.act == ReLU {
		return
	}
	for r := range rows {
		z, y := raw[r*l.cout:], act[r*l.actStride:]
		for j := range l.out {
			y[j] = l.act.apply(z[j] - z[l.out+j])
		}
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }
