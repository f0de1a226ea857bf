package nnuetrain

// The sparse layer's two loops, where a CPU trainer spends its time:
// summing the active features' rows into an accumulator (forward) and
// adding an accumulator's gradient to each active row (backward). Both
// have an AVX2 path (rows_amd64.s) and this portable one. Every float is
// the same chain of single additions in the same order in both (the AVX2
// path keeps 64 accumulator floats in registers while it adds the rows,
// but adds them row by row as this code does), and IEEE addition is
// exact per lane, so the two paths are bit-identical; a test checks it.

// sumRowsGo adds rows r of w (each len(dst) floats, row r at r*len(dst))
// to dst, in the order of rows.
func sumRowsGo(dst, w []float32, rows []int) {
	h := len(dst)
	for _, r := range rows {
		addTo(dst, w[r*h:r*h+h])
	}
}

// addToRowsGo adds src to each row r of w listed in rows.
func addToRowsGo(w []float32, rows []int, src []float32) {
	h := len(src)
	for _, r := range rows {
		addTo(w[r*h:r*h+h], src)
	}
}

// addTo adds src to dst (len(dst) a multiple of 8), eight lanes a round
// so the compiler drops the bounds checks.
func addTo(dst, src []float32) {
	src = src[:len(dst)]
	for i := 0; i+8 <= len(dst); i += 8 {
		d, s := dst[i:i+8:i+8], src[i:i+8:i+8]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
		d[4] += s[4]
		d[5] += s[5]
		d[6] += s[6]
		d[7] += s[7]
	}
}
