package nn

import "golang.org/x/sys/cpu"

// The assembly kernels (kernel_amd64.s) read every cin in steps of 4 channels
// (ValueNet's are 12, 64, 128 and 2048) and trust the row tables, which are
// built by NewEvaluator and checked against the bounds-checked Go kernel by
// the tests.
var (
	avx2Kernel   = &kernel{name: "avx2", mr: 6, nr: 16, rowPanels: 4, tile: tileAVX2Slices, row: rowAVX2Slices}
	avx512Kernel = &kernel{name: "avx512", mr: 8, nr: 32, rowPanels: 4, tile: tileAVX512Slices, row: rowAVX512Slices}
)

//go:noescape
func tileAVX2(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)

//go:noescape
func tileAVX512(a *float32, idx *int32, taps, cin int, b, c *float32, ldc int, bias *float32)

//go:noescape
func rowAVX2(a *float32, cin int, b *float32, panelLen int, c, bias *float32)

//go:noescape
func rowAVX512(a *float32, cin int, b *float32, panelLen int, c, bias *float32)

func tileAVX2Slices(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	tileAVX2(&a[0], &idx[0], taps, cin, &b[0], &c[0], ldc, &bias[0])
}

func tileAVX512Slices(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	tileAVX512(&a[0], &idx[0], taps, cin, &b[0], &c[0], ldc, &bias[0])
}

func rowAVX2Slices(a, b []float32, panelLen int, c, bias []float32) {
	rowAVX2(&a[0], len(a), &b[0], panelLen, &c[0], &bias[0])
}

func rowAVX512Slices(a, b []float32, panelLen int, c, bias []float32) {
	rowAVX512(&a[0], len(a), &b[0], panelLen, &c[0], &bias[0])
}

// kernels lists the kernels this CPU can run, fastest first.
func kernels() []*kernel {
	var ks []*kernel
	if cpu.X86.HasAVX512F {
		ks = append(ks, avx512Kernel)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, avx2Kernel)
	}
	return append(ks, goKernel)
}

func bestKernel() *kernel { return kernels()[0] }
