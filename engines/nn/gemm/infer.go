package gemm

const goNR = 16

// tileGo is the portable inference tile (MR 4).
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
