//go:build !amd64

package nnuetrain

func sumRows(dst, w []float32, rows []int) { sumRowsGo(dst, w, rows) }

func addToRows(w []float32, rows []int, src []float32) { addToRowsGo(w, rows, src) }
