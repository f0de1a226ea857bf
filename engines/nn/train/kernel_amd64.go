package train

import "golang.org/x/sys/cpu"

//go:noescape
func gemmAVX512(a *float32, aoff *int, taps, lda, k int, b *float32, ldb int, c *float32, ldc int, acc int)

func gemmTileAVX512(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	accumulate := 0
	if acc {
		accumulate = 1
	}
	gemmAVX512(&a[0], &aoff[0], len(aoff), lda, k, &b[0], ldb, &c[0], ldc, accumulate)
}

// kernelTile is the AVX-512 kernel when the CPU has it, else the Go one.
var kernelTile, kernelName = func() (func([]float32, []int, int, int, []float32, int, []float32, int, bool), string) {
	if cpu.X86.HasAVX512F {
		return gemmTileAVX512, "avx512"
	}
	return gemmTileGo, "go"
}()
