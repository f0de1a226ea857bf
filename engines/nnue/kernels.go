package nnue

// kernels is one path's accumulator update and output dot products. Every
// path computes the same integers: int16 sums wrap as the accumulator does
// in every path, and the dot products sum exactly in int64, so a path can
// only differ from the portable Go reference in speed (the tests check it
// bit for bit).
type kernels struct {
	name string
	// update sets dst = src + a1 + a2 - s1 - s2 element by element; unused
	// rows are the net's zero row, so one kernel serves every kind of move.
	update func(dst, src, a1, a2, s1, s2 []int16)
	// dotSCReLU is sum clamp(acc[i], 0, qa)^2 * w[i], dotCReLU sum
	// clamp(acc[i], 0, qa) * w[i], over len(acc) elements. dotSCReLUSmall
	// is dotSCReLU for weights with |w[i]| * qa <= 32767 (trained nets'
	// output weights, as a rule), which SIMD computes in narrower lanes.
	dotSCReLU      func(acc, w []int16, qa int16) int64
	dotSCReLUSmall func(acc, w []int16, qa int16) int64
	dotCReLU       func(acc, w []int16, qa int16) int64
}

var portable = &kernels{name: "go", update: updateGo, dotSCReLU: dotSCReLUGo, dotSCReLUSmall: dotSCReLUGo, dotCReLU: dotCReLUGo}

// active is the fastest path this CPU runs, chosen once (kernels_amd64.go).
var active = bestKernels()

// KernelName names the path in use ("avx2" or "go").
func KernelName() string { return active.name }

func updateGo(dst, src, a1, a2, s1, s2 []int16) {
	n := len(dst)
	src, a1, a2, s1, s2 = src[:n], a1[:n], a2[:n], s1[:n], s2[:n]
	for i := range dst {
		dst[i] = src[i] + a1[i] + a2[i] - s1[i] - s2[i]
	}
}

func dotSCReLUGo(acc, w []int16, qa int16) int64 {
	w = w[:len(acc)]
	var sum int64
	for i, a := range acc {
		v := int64(min(max(a, 0), qa))
		sum += v * v * int64(w[i])
	}
	return sum
}

func dotCReLUGo(acc, w []int16, qa int16) int64 {
	w = w[:len(acc)]
	var sum int64
	for i, a := range acc {
		sum += int64(min(max(a, 0), qa)) * int64(w[i])
	}
	return sum
}
