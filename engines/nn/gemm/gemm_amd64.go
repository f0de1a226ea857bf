package gemm

import "golang.org/x/sys/cpu"

// The assembly inference kernels (infer_amd64.s) read every cin in steps of
// 4 channels (ValueNet's are 12, 64, 128 and 2048) and trust the row
// tables, which nn builds and checks against the bounds-checked Go kernel in
// its tests. The AVX2 training kernel computes a 4x16 quarter of the tile
// (16 YMM registers hold no more), so it is called four times per tile.
var (
	avx512 = &Kernels{Name: "avx512", MR: 8, NR: 32, RowPanels: 4,
		Tile: tileAVX512Slices, Row: rowAVX512Slices, train: trainAVX512,
		supportsCPU: func() bool { return cpu.X86.HasAVX512F }}
	avx2 = &Kernels{Name: "avx2", MR: 6, NR: 16, RowPanels: 4,
		Tile: tileAVX2Slices, Row: rowAVX2Slices, train: trainAVX2,
		supportsCPU: func() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }}
	all = []*Kernels{avx512, avx2, portable}
)

//go:noescape
func tileAVX2(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)

//go:noescape
func tileAVX512(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)

//go:noescape
func rowAVX2(a *float32, cin int, b *float32, panelLen int, c, bias *float32)

//go:noescape
func rowAVX512(a *float32, cin int, b *float32, panelLen int, c, bias *float32)

//go:noescape
func gemmAVX512(a *float32, aoff *int, taps, lda, k int, b *float32, ldb int, c *float32, ldc int, acc int)

//go:noescape
func gemmAVX2(a *float32, aoff *int, taps, lda, k int, b *float32, ldb int, c *float32, ldc int, acc int)

func tileAVX2Slices(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	tileAVX2(&a[0], &idx[0], taps, cin, &b[0], &c[0], ldc, &bias[0])
}

func tileAVX512Slices(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	tileAVX512(&a[0], &idx[0], taps, cin, &b[0], &c[0], ldc, &bias[0])
}

func rowAVX2Slices(a, b []float32, panelLen int, c, bias []float32) {
	rowAVX2(&a[0], len(a), &b[0], panelLen, &c[0], &bias[0])
}

func rowAVX512Slices(a, b []float32, panelLen int, c, bias []float32) {
	rowAVX512(&a[0], len(a), &b[0], panelLen, &c[0], &bias[0])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func trainAVX512(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	gemmAVX512(&a[0], &aoff[0], len(aoff), lda, k, &b[0], ldb, &c[0], ldc, b2i(acc))
}

// trainAVX2 runs the 4x16 kernel on the tile's four quarters: rows 4..7
// are the A rows 4*lda further on, columns 16..31 start 16 further in B and
// C.
func trainAVX2(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	for _, r := range [2]int{0, 4} {
		for _, j := range [2]int{0, 16} {
			gemmAVX2(&a[r*lda], &aoff[0], len(aoff), lda, k, &b[j], ldb, &c[r*ldc+j], ldc, b2i(acc))
		}
	}
}
