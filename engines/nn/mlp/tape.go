package mlp

import (
	"fmt"
	"sync"

	"arena/engines/nn/gemm"
)

// Tape runs a Model on a batch for training: Forward keeps every
// activation, Backward turns the gradient of the loss with respect to the
// outputs into parameter gradients (and, on request, input gradients).
// Rows are split into Workers contiguous parts, part w always on the same
// rows and with its own partial gradient, summed in worker order: the same
// data, parameters and worker count give the same gradient, bit for bit.
//
// Forward packs the Model's current parameters, so one Tape serves a whole
// training run. For a Siamese net, run one Tape per copy of the shared
// sub-net (they share the Model) and let each Backward add into the same
// gradient.
type Tape struct {
	m       *Model
	net     *Net
	workers int
	batch   int
	n       int            // rows of the last Forward
	evs     []*Evaluator   // per worker
	part    [][]float32    // per worker: partial gradient, Params' layout
	views   [][][]Layer    // per worker: part's layer views
	scratch [][5][]float32 // per worker: [rows][max width] buffers (see backwardRows)
	wide    [][][]float32  // per stack and layer: W as [Out][In rounded up to TileN], for inputGrad
	tiles   [][3][]float32 // per worker: the operands of the tile products (see tiles.go)
	out     []float32
}

// NewTape prepares a tape for batches of up to batch rows over workers
// goroutines.
func (m *Model) NewTape(batch, workers int) (*Tape, error) {
	if batch < 1 || workers < 1 {
		return nil, fmt.Errorf("mlp: tape with batch %d and %d workers, expected both >= 1", batch, workers)
	}
	k, err := gemm.Default()
	if err != nil {
		return nil, err
	}
	return m.newTapeWith(k, batch, workers), nil
}

func (m *Model) newTapeWith(k *gemm.Kernels, batch, workers int) *Tape {
	net := m.compileWith(k)
	workers = min(workers, batch)
	t := &Tape{m: m, net: net, workers: workers, batch: batch, out: make([]float32, batch*m.Arch.Outputs())}
	per := (batch + workers - 1) / workers
	width := m.Arch.Inputs
	for _, l := range m.Layers() {
		width = max(width, l.In, l.Out)
	}
	shapes := m.Arch.stacks()
	for range workers {
		t.evs = append(t.evs, net.NewEvaluator(per))
		g := &Model{Params: make([]float32, len(m.Params))}
		g.bind(shapes)
		t.part = append(t.part, g.Params)
		t.views = append(t.views, g.stacks)
		var bufs [5][]float32
		for i := range bufs {
			bufs[i] = make([]float32, per*width)
		}
		t.scratch = append(t.scratch, bufs)
		t.tiles = append(t.tiles, newTileBufs(per, width))
	}
	return t
}

// parallel runs f(w, lo, hi) for the workers' parts of [0, n).
func parallel(workers, n int, f func(w, lo, hi int)) {
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w, w*n/workers, (w+1)*n/workers)
		}()
	}
	f(0, 0, n/workers)
	wg.Wait()
}

// Parallel splits [0, n) over the tape's workers, the form optim.Adam's
// Update takes.
func (t *Tape) Parallel(n int, f func(w, lo, hi int)) { parallel(t.workers, n, f) }

// Forward runs n <= batch rows, in [n][Inputs], and returns the outputs
// [n][Outputs] (valid until the next Forward).
func (t *Tape) Forward(in []float32, n int) []float32 {
	nin, nout := t.m.Arch.Inputs, t.m.Arch.Outputs()
	if n < 1 || n > t.batch || len(in) < n*nin {
		panic(fmt.Sprintf("mlp: Tape.Forward of %d rows (batch %d) with %d inputs", n, t.batch, len(in)))
	}
	t.net.repack(t.m)
	t.widen()
	t.n = n
	parallel(t.workers, n, func(w, lo, hi int) {
		if hi > lo {
			e := t.evs[w]
			e.run(in[lo*nin:hi*nin], hi-lo)
			e.copyOut(t.out[lo*nout:hi*nout], hi-lo)
		}
	})
	return t.out[:n*nout]
}

// Backward takes dOut, the loss gradient with respect to the last
// Forward's outputs [n][Outputs], adds the parameter gradients to grad
// (Params' layout) and, if dIn is not nil, writes the input gradients
// [n][Inputs] there.
func (t *Tape) Backward(dOut, grad, dIn []float32) {
	a := &t.m.Arch
	if len(dOut) < t.n*a.Outputs() || len(grad) != len(t.m.Params) || dIn != nil && len(dIn) < t.n*a.Inputs {
		panic(fmt.Sprintf("mlp: Tape.Backward: %d output gradients, %d parameter gradients (want %d), %d input gradients for %d rows",
			len(dOut), len(grad), len(t.m.Params), len(dIn), t.n))
	}
	parallel(t.workers, t.n, func(w, lo, hi int) {
		clear(t.part[w])
		if hi > lo {
			t.backwardRows(w, lo, hi, dOut, dIn)
		}
	})
	parallel(t.workers, len(grad), func(_, lo, hi int) {
		for _, p := range t.part {
			for i, v := range p[lo:hi] {
				grad[lo+i] += v
			}
		}
	})
}

// backwardRows is worker w's part: rows [lo, hi) of the batch. Scratch
// buffers 0 and 1 are backwardStack's own; 2 holds the trunk's input
// gradient, 3 and 4 a group's output and input gradients.
func (t *Tape) backwardRows(w, lo, hi int, dOut, dIn []float32) {
	a := &t.m.Arch
	rows := hi - lo
	nin, nout := a.Inputs, a.Outputs()
	trunk := len(t.net.stacks) - 1
	buf := &t.scratch[w]
	if trunk == 0 {
		var dx []float32
		if dIn != nil {
			dx = dIn[lo*nin : hi*nin]
		}
		t.backwardStack(w, trunk, dOut[lo*nout:hi*nout], rows, dx)
		return
	}
	tin := a.trunkInputs()
	dTrunk := buf[2][:rows*tin]
	t.backwardStack(w, trunk, dOut[lo*nout:hi*nout], rows, dTrunk)
	var di []float32
	if dIn != nil {
		di = dIn[lo*nin : hi*nin]
		clear(di)
	}
	for s := range trunk {
		st := &t.net.stacks[s]
		out := st.layers[len(st.layers)-1].out
		dy := buf[3][:rows*out]
		for r := range rows {
			copy(dy[r*out:(r+1)*out], dTrunk[r*tin+st.concatOff:])
		}
		width := st.to - st.from
		var dg []float32
		if di != nil {
			dg = buf[4][:rows*width]
		}
		t.backwardStack(w, s, dy, rows, dg)
		if di == nil {
			continue
		}
		for r := range rows {
			row := di[r*nin+st.from : r*nin+st.to]
			for i, v := range dg[r*width : (r+1)*width] {
				row[i] += v
			}
		}
	}
}

// backwardStack back-propagates dy, the gradient of stack s's outputs
// [rows][out], through its layers into worker w's partial gradient, and
// into dx [rows][in] unless dx is nil.
func (t *Tape) backwardStack(w, s int, dy []float32, rows int, dx []float32) {
	st := &t.net.stacks[s]
	ls, gs := t.m.stacks[s], t.views[w][s]
	ev := t.evs[w]
	cur := dy
	for i := len(ls) - 1; i >= 0; i-- {
		l, pl, g := &ls[i], &st.layers[i], &gs[i]
		x, xs := ev.in[s], st.inStride
		if i > 0 {
			x, xs = ev.act[s][i-1], st.layers[i-1].actStride
		}
		dz := t.scratch[w][0][:rows*l.Out]
		y := ev.act[s][i]
		for r := range rows {
			yr, dzr := y[r*pl.actStride:], dz[r*l.Out:(r+1)*l.Out]
			for o, d := range cur[r*l.Out : (r+1)*l.Out] {
				dzr[o] = d * l.Act.deriv(yr[o])
			}
		}
		t.weightGrad(w, g, x, xs, dz, rows)
		if i == 0 && dx == nil {
			return
		}
		next := t.scratch[w][1][:rows*l.In]
		if i == 0 {
			next = dx[:rows*l.In]
		}
		t.inputGrad(w, l, t.wide[s][i], dz, rows, next)
		cur = next
	}
}
