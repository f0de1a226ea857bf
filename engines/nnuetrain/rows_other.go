//go:build !amd64

package nnuetrain

func sumRows(dst, w []float32, rows []int) { sumRowsGo(dst, w, rows) }

func addToRows(w []float32, rows []int, src []float32) { addToRowsGo(w, rows, src) }

func outputSCReLU(us, them, ou, ot []float32) float32 { return outputSCReLUGo(us, them, ou, ot) }

func backwardSCReLU(us, them, ou, ot, gou, got, gb, dus, dthem []float32, dOut float32) {
	backwardSCReLUGo(us, them, ou, ot, gou, got, gb, dus, dthem, dOut)
}

func add(dst, src []float32) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}
