package nnue

import "golang.org/x/sys/cpu"

// The assembly kernels (kernels_amd64.s) work in blocks of 16 int16; the
// wrappers hand the last len%16 elements to the Go kernels, so any hidden
// width is right, and a width that is a multiple of 16 (256) runs in
// assembly alone.
var avx2 = &kernels{name: "avx2", update: updateAVX2Slices, dotSCReLU: dotSCReLUAVX2Slices,
	dotSCReLUSmall: dotSCReLUSmallAVX2Slices, dotCReLU: dotCReLUAVX2Slices}

func bestKernels() *kernels {
	if cpu.X86.HasAVX2 {
		return avx2
	}
	return portable
}

// paths lists the kernels this CPU can run, the portable one last.
func paths() []*kernels {
	if cpu.X86.HasAVX2 {
		return []*kernels{avx2, portable}
	}
	return []*kernels{portable}
}

//go:noescape
func updateAVX2(dst, src, a1, a2, s1, s2 *int16, n int)

//go:noescape
func dotSCReLUAVX2(acc, w *int16, n int, qa int) int64

//go:noescape
func dotSCReLUSmallAVX2(acc, w *int16, n int, qa int) int64

//go:noescape
func dotCReLUAVX2(acc, w *int16, n int, qa int) int64

func updateAVX2Slices(dst, src, a1, a2, s1, s2 []int16) {
	n := len(dst)
	src, a1, a2, s1, s2 = src[:n], a1[:n], a2[:n], s1[:n], s2[:n]
	blocks := n &^ 15
	if blocks > 0 {
		updateAVX2(&dst[0], &src[0], &a1[0], &a2[0], &s1[0], &s2[0], blocks)
	}
	if blocks < n {
		updateGo(dst[blocks:], src[blocks:], a1[blocks:], a2[blocks:], s1[blocks:], s2[blocks:])
	}
}

func dotSCReLUAVX2Slices(acc, w []int16, qa int16) int64 {
	n := len(acc)
	w = w[:n]
	blocks := n &^ 15
	var sum int64
	if blocks > 0 {
		sum = dotSCReLUAVX2(&acc[0], &w[0], blocks, int(qa))
	}
	return sum + dotSCReLUGo(acc[blocks:], w[blocks:], qa)
}

func dotCReLUAVX2Slices(acc, w []int16, qa int16) int64 {
	n := len(acc)
	w = w[:n]
	blocks := n &^ 15
	var sum int64
	if blocks > 0 {
		sum = dotCReLUAVX2(&acc[0], &w[0], blocks, int(qa))
	}
	return sum + dotCReLUGo(acc[blocks:], w[blocks:], qa)
}

func dotSCReLUSmallAVX2Slices(acc, w []int16, qa int16) int64 {
	n := len(acc)
	w = w[:n]
	blocks := n &^ 15
	var sum int64
	if blocks > 0 {
		sum = dotSCReLUSmallAVX2(&acc[0], &w[0], blocks, int(qa))
	}
	return sum + dotSCReLUGo(acc[blocks:], w[blocks:], qa)
}
