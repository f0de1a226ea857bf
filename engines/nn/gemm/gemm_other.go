//go:build !amd64

package gemm

var all = []*Kernels{portable}
