package nnuetrain

// The sparse layer's two loops, where a CPU trainer spends its time:
// summing the active features' rows into an accumulator (forward) and
// adding an accumulator's gradient to each active row (backward). Both
// have an AVX2 path (rows_amd64.s) and this portable one. Every float is
// the same chain of single additions in the same order in both (the AVX2
// path keeps 64 accumulator floats in registers while it adds the rows,
// but adds them row by row as this code does), and IEEE addition is
// exact per lane, so the two paths are bit-identical; a test checks it.
// The engine's kernels (engines/nnue) are the integer counterparts, on
// int16 accumulators and weights; float training cannot use them.

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

// outputSCReLUGo is the SCReLU output layer's sum over the accumulators
// (ou, ot: the output weights of us and them): clamp01(us[i])^2*ou[i] +
// clamp01(them[i])^2*ot[i], summed in eight lanes (lane j the elements
// i = j mod 8, in order) and the lanes then in a fixed tree: the order an
// 8-wide SIMD sum takes, so the AVX2 path gives the same bits. The
// conversions round every product, so no compiler may fuse them into an
// FMA. len(us) is a multiple of 8.
func outputSCReLUGo(us, them, ou, ot []float32) float32 {
	var l [8]float32
	for i := 0; i+8 <= len(us); i += 8 {
		u, t, wu, wt := us[i:i+8:i+8], them[i:i+8:i+8], ou[i:i+8:i+8], ot[i:i+8:i+8]
		for j := range l {
			a, b := clamp01(u[j]), clamp01(t[j])
			l[j] += float32(float32(a*a)*wu[j]) + float32(float32(b*b)*wt[j])
		}
	}
	return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

// backwardSCReLUGo is the SCReLU output layer's backward pass: the output
// weights' gradients (gou, got), the accumulators' (dus, dthem) and the
// feature bias's (gb), given dOut, the loss's derivative by the output.
func backwardSCReLUGo(us, them, ou, ot, gou, got, gb, dus, dthem []float32, dOut float32) {
	n := len(us)
	them, ou, ot, gou, got, gb, dus, dthem = them[:n], ou[:n], ot[:n], gou[:n], got[:n], gb[:n], dus[:n], dthem[:n]
	for i := range us {
		a, b := clamp01(us[i]), clamp01(them[i])
		gou[i] += float32(float32(dOut*a) * a)
		got[i] += float32(float32(dOut*b) * b)
		dus[i] = float32(dOut*ou[i]) * below1(us[i], 2*a)
		dthem[i] = float32(dOut*ot[i]) * below1(them[i], 2*b)
		gb[i] += dus[i] + dthem[i]
	}
}
