package nn

// kernel is a set of matrix micro-kernels of one instruction set. tile
// computes an mr x nr tile of a layer's output,
//
//	c[i*ldc + l] = max(0, bias[l] + sum over t < taps, ch < cin of
//	               a[idx[t*mr+i]*cin + ch] * b[(t*cin+ch)*nr + l])
//
// for i < mr, l < nr: the input rows are found through idx (the 3x3
// convolution's neighbour table), so no im2col copy is needed. b is one
// packed nr-column panel of the weights. Every layer of ValueNet is followed
// by a ReLU, so the kernels apply it.
//
// row computes one row of a linear layer (taps 1) over rowPanels panels at
// once (b holds them panelLen apart): c[l] = max(0, bias[l] + sum of
// a[ch] * panel[l/nr][ch*nr + l%nr]). It is for batches smaller than a
// tile, where tile would mostly compute padding. For a given row, row and
// tile add the products in the same order, so results do not depend on the
// batch size.
type kernel struct {
	name      string
	mr, nr    int
	rowPanels int
	tile      func(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32)
	row       func(a, b []float32, panelLen int, c, bias []float32)
}

// goKernel is the portable kernel; its mr only sets how rows are tiled.
var goKernel = &kernel{name: "go", mr: 4, nr: goNR, rowPanels: 1, tile: tileGo, row: rowGo}

const goNR = 16

func tileGo(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	const mr = 4
	for i := range mr {
		acc := [goNR]float32{}
		for t := range taps {
			accumulate(&acc, a[int(idx[t*mr+i])*cin:][:cin], b[t*cin*goNR:][:cin*goNR])
		}
		store(c[i*ldc:][:goNR], &acc, bias)
	}
}

func rowGo(a, b []float32, _ int, c, bias []float32) {
	acc := [goNR]float32{}
	accumulate(&acc, a, b)
	store(c[:goNR], &acc, bias)
}

// accumulate adds row times the weights w ([len(row)][goNR]) to acc.
func accumulate(acc *[goNR]float32, row, w []float32) {
	w = w[:len(row)*goNR]
	for ch, v := range row {
		// Inputs are sparse (the board planes; ReLU outputs): skipping zeros
		// is the portable kernel's cheapest speed-up.
		if v == 0 {
			continue
		}
		wv := w[ch*goNR:][:goNR]
		for l := range acc {
			acc[l] += v * wv[l]
		}
	}
}

func store(out []float32, acc *[goNR]float32, bias []float32) {
	bias = bias[:goNR]
	for l, v := range acc {
		out[l] = max(v+bias[l], 0)
	}
}
