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
