package nn

// kernel is a matrix micro-kernel: it computes an mr x nr tile of a layer's
// output,
//
//	c[i*ldc + l] = max(0, bias[l] + sum over t < taps, ch < cin of
//	               a[idx[t*mr+i]*cin + ch] * b[(t*cin+ch)*nr + l])
//
// for i < mr, l < nr: the input rows are found through idx (the 3x3
// convolution's neighbour table), so no im2col copy is needed. b is one
// packed nr-column panel of the weights. Every layer of ValueNet is followed
// by a ReLU, so the kernel applies it.
type kernel struct {
	name   string
	mr, nr int
	tile   func(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32)
}

// goKernel is the portable kernel; its mr only sets how rows are tiled.
var goKernel = &kernel{name: "go", mr: 4, nr: 16, tile: tileGo}

func tileGo(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32) {
	const mr, nr = 4, 16
	b = b[:taps*cin*nr]
	for i := range mr {
		var acc [nr]float32
		copy(acc[:], bias[:nr])
		for t := range taps {
			row := a[int(idx[t*mr+i])*cin:][:cin]
			w := b[t*cin*nr:][:cin*nr]
			for ch, v := range row {
				// Inputs are sparse (the board planes; ReLU outputs): skipping
				// zeros is the portable kernel's cheapest speed-up.
				if v == 0 {
					continue
				}
				wv := w[ch*nr:][:nr]
				for l := range acc {
					acc[l] += v * wv[l]
				}
			}
		}
		out := c[i*ldc:][:nr]
		for l, v := range acc {
			out[l] = max(v, 0)
		}
	}
}
