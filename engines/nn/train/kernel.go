package train

import "fmt"

// Every matrix product of training is done in tiles of 8 rows by 32
// columns by one micro-kernel:
//
//	c[i*ldc + j] (+)= sum over t < len(aoff), kk < k of
//	                  a[aoff[t] + i*lda + kk] * b[(t*k + kk)*ldb + j]
//
// for i < 8, j < 32. Tap t reads the A rows starting at aoff[t], so a 3x3
// convolution over zero-bordered (10x10) boards is nine shifted reads of the
// same activations, with no im2col copy; the B blocks of the taps follow one
// another. The sums run tap by tap, kk increasing, so the assembly and Go
// kernels add in the same order.
const (
	tileM = 8
	tileN = 32
)

// gemmTile runs the micro-kernel after checking that every index it will
// touch is inside the slices (the assembly does not check).
func gemmTile(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	taps := len(aoff)
	if taps == 0 || k <= 0 {
		panic("train: gemmTile with no taps or k <= 0")
	}
	for _, o := range aoff {
		if o < 0 || o+(tileM-1)*lda+k > len(a) {
			panic(fmt.Sprintf("train: gemmTile A offset %d (lda %d, k %d) outside %d", o, lda, k, len(a)))
		}
	}
	if (taps*k-1)*ldb+tileN > len(b) || (tileM-1)*ldc+tileN > len(c) {
		panic(fmt.Sprintf("train: gemmTile B (%d) or C (%d) too short", len(b), len(c)))
	}
	kernelTile(a, aoff, lda, k, b, ldb, c, ldc, acc)
}

// gemmTileGo is the portable micro-kernel.
func gemmTileGo(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	var sum [tileM][tileN]float32
	for t, o := range aoff {
		bt := b[t*k*ldb:]
		for i := range tileM {
			row := a[o+i*lda:][:k]
			s := &sum[i]
			for kk, v := range row {
				bv := bt[kk*ldb:][:tileN]
				for j := range s {
					s[j] += v * bv[j]
				}
			}
		}
	}
	for i := range tileM {
		out := c[i*ldc:][:tileN]
		if acc {
			for j := range out {
				out[j] += sum[i][j]
			}
		} else {
			copy(out, sum[i][:])
		}
	}
}
