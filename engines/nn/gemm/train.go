package gemm

import "fmt"

// The training tile: TrainTile computes
//
//	c[i*ldc + j] (+)= sum over t < len(aoff), kk < k of
//	                  a[aoff[t] + i*lda + kk] * b[(t*k + kk)*ldb + j]
//
// for i < TileM, j < TileN. Tap t reads the A rows starting at aoff[t], so a
// 3x3 convolution over zero-bordered boards is nine shifted reads of the
// same activations, with no im2col copy; the B blocks of the taps follow one
// another. The sums run tap by tap, kk increasing, from zero; with acc the
// old c is added last.
const (
	TileM = 8
	TileN = 32
)

type trainFunc func(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool)

// TrainTile runs the path's training kernel after checking that every index
// it will touch is inside the slices (the assembly does not check).
func (ks *Kernels) TrainTile(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	taps := len(aoff)
	if taps == 0 || k <= 0 {
		panic("gemm: TrainTile with no taps or k <= 0")
	}
	for _, o := range aoff {
		if o < 0 || o+(TileM-1)*lda+k > len(a) {
			panic(fmt.Sprintf("gemm: TrainTile A offset %d (lda %d, k %d) outside %d", o, lda, k, len(a)))
		}
	}
	if (taps*k-1)*ldb+TileN > len(b) || (TileM-1)*ldc+TileN > len(c) {
		panic(fmt.Sprintf("gemm: TrainTile B (%d) or C (%d) too short", len(b), len(c)))
	}
	ks.train(a, aoff, lda, k, b, ldb, c, ldc, acc)
}

// trainGo is the portable training kernel.
func trainGo(a []float32, aoff []int, lda, k int, b []float32, ldb int, c []float32, ldc int, acc bool) {
	var sum [TileM][TileN]float32
	for t, o := range aoff {
		bt := b[t*k*ldb:]
		for i := range TileM {
			row := a[o+i*lda:][:k]
			s := &sum[i]
			for kk, v := range row {
				bv := bt[kk*ldb:][:TileN]
				for j := range s {
					s[j] += v * bv[j]
				}
			}
		}
	}
	for i := range TileM {
		out := c[i*ldc:][:TileN]
		if acc {
			for j := range out {
				out[j] += sum[i][j]
			}
		} else {
			copy(out, sum[i][:])
		}
	}
}
