package nnuetrain

import (
	"golang.org/x/sys/cpu"

	"arena/engines/nn/gemm"
)

// useAVX2 follows the GEMM kernels' choice, so ARENA_GEMM=go forces the
// portable path here too (a forced path the CPU lacks is reported by
// gemm.Default when the trainer starts).
var useAVX2 = func() bool {
	k, err := gemm.Default()
	return err == nil && k.Name != gemm.Portable().Name && cpu.X86.HasAVX2
}()

//go:noescape
func sumRowsAVX2(dst, w *float32, rows *int, nrows, h int)

//go:noescape
func addToRowsAVX2(w *float32, rows *int, nrows int, src *float32, h int)

//go:noescape
func outputSCReLUAVX2(us, them, ou, ot *float32, h int) float32

//go:noescape
func backwardSCReLUAVX2(us, them, ou, ot, gou, got, gb, dus, dthem *float32, dOut float32, h int)

//go:noescape
func addAVX2(dst, src *float32, n int)

// add adds src to dst element by element (len(src) >= len(dst)).
func add(dst, src []float32) {
	n := len(dst)
	src = src[:n]
	if m := n &^ 31; useAVX2 && m > 0 {
		addAVX2(&dst[0], &src[0], m)
		dst, src = dst[m:], src[m:]
	}
	for i := range dst {
		dst[i] += src[i]
	}
}

// outputSCReLU is outputSCReLUGo's sum; every slice has len(us) floats.
func outputSCReLU(us, them, ou, ot []float32) float32 {
	h := len(us)
	if useAVX2 && h > 0 && h%8 == 0 {
		_, _, _ = them[h-1], ou[h-1], ot[h-1]
		return outputSCReLUAVX2(&us[0], &them[0], &ou[0], &ot[0], h)
	}
	return outputSCReLUGo(us, them, ou, ot)
}

// backwardSCReLU is backwardSCReLUGo; every slice has len(us) floats.
func backwardSCReLU(us, them, ou, ot, gou, got, gb, dus, dthem []float32, dOut float32) {
	h := len(us)
	if useAVX2 && h > 0 && h%8 == 0 {
		_, _, _, _, _, _, _, _ = them[h-1], ou[h-1], ot[h-1], gou[h-1], got[h-1], gb[h-1], dus[h-1], dthem[h-1]
		backwardSCReLUAVX2(&us[0], &them[0], &ou[0], &ot[0], &gou[0], &got[0], &gb[0], &dus[0], &dthem[0], dOut, h)
		return
	}
	backwardSCReLUGo(us, them, ou, ot, gou, got, gb, dus, dthem, dOut)
}

// sumRows adds the listed rows of w to dst; see sumRowsGo.
func sumRows(dst, w []float32, rows []int) {
	if useAVX2 && len(dst)%64 == 0 && len(rows) > 0 {
		for _, r := range rows {
			_ = w[r*len(dst)+len(dst)-1] // the assembly trusts the rows: check them here
		}
		sumRowsAVX2(&dst[0], &w[0], &rows[0], len(rows), len(dst))
		return
	}
	sumRowsGo(dst, w, rows)
}

// addToRows adds src to the listed rows of w; see addToRowsGo.
func addToRows(w []float32, rows []int, src []float32) {
	if useAVX2 && len(src)%64 == 0 && len(rows) > 0 {
		for _, r := range rows {
			_ = w[r*len(src)+len(src)-1]
		}
		addToRowsAVX2(&w[0], &rows[0], len(rows), &src[0], len(src))
		return
	}
	addToRowsGo(w, rows, src)
}
