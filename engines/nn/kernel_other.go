//go:build !amd64

package nn

func bestKernel() *kernel { return goKernel }

// kernels lists the kernels this CPU can run, for tests and benchmarks.
func kernels() []*kernel { return []*kernel{goKernel} }
