//go:build !amd64

package nnue

func bestKernels() *kernels { return portable }

// paths lists the kernels this build can run, the portable one last.
func paths() []*kernels { return []*kernels{portable} }
