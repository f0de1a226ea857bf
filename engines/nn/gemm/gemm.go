// Package gemm holds the matrix micro-kernels of the ValueNet, for
// inference (arena/engines/nn) and training (arena/engines/nn/train), in
// three paths: AVX-512 and AVX2/FMA assembly on amd64, and portable Go.
//
// A path is chosen once per process: the fastest one the CPU supports, or
// the one the environment variable ARENA_GEMM names (avx512, avx2, go or
// its alias portable), so tests and benchmarks can measure a slower CPU's
// path on a fast one. Forcing a path the CPU lacks is an error, not a
// silent fallback: a benchmark labelled avx2 must have run AVX2.
//
// The two uses need different tiles. Inference fuses bias and ReLU and
// reads its input rows through an index table (kernel shapes differ per
// path: mr x nr is 8x32, 6x16 or 4x16). Training needs plain (accumulating)
// products of one fixed 8x32 tile, so the trainer's layout does not depend
// on the path. Within a path every output is one chain of multiply-adds in
// a fixed order, so results never depend on the batch size; the AVX-512
// and AVX2 training kernels are even bit-identical (both fuse each
// multiply-add), while portable Go rounds the product separately and agrees
// to float32 precision.
package gemm

import (
	"fmt"
	"os"
	"strings"
)

// EnvVar names the environment variable that forces a path.
const EnvVar = "ARENA_GEMM"

// Kernels is one path's set of micro-kernels.
//
// Tile computes an MR x NR tile of an inference layer's output,
//
//	c[i*ldc + l] = max(0, bias[l] + sum over t < taps, ch < cin of
//	               a[idx[t*MR+i]*cin + ch] * b[(t*cin+ch)*NR + l])
//
// for i < MR, l < NR: the input rows are found through idx (the 3x3
// convolution's neighbour table), so no im2col copy is needed. b is one
// packed NR-column panel of the weights. The assembly paths need cin to be a
// multiple of 4 and trust idx.
//
// Row computes one row of a linear layer (taps 1) over RowPanels panels at
// once (b holds them panelLen apart): c[l] = max(0, bias[l] + sum of
// a[ch] * panel[l/NR][ch*NR + l%NR]). It is for batches smaller than a
// tile, where Tile would mostly compute padding. For a given row, Row and
// Tile add the products in the same order.
type Kernels struct {
	Name          string
	MR, NR        int
	RowPanels     int
	Tile          func(a []float32, idx []int32, taps, cin int, b, c []float32, ldc int, bias []float32)
	Row           func(a, b []float32, panelLen int, c, bias []float32)
	train         trainFunc
	supportsCPU   func() bool
	portableAlias string
}

// portable is the Go path; its MR of 4 only sets how rows are tiled.
var portable = &Kernels{Name: "go", portableAlias: "portable", MR: 4, NR: goNR, RowPanels: 1,
	Tile: tileGo, Row: rowGo, train: trainGo, supportsCPU: func() bool { return true }}

// Available lists the paths this CPU can run, fastest first; the last is
// always the portable one.
func Available() []*Kernels {
	var ks []*Kernels
	for _, k := range all {
		if k.supportsCPU() {
			ks = append(ks, k)
		}
	}
	return ks
}

// Portable is the Go path, the reference the others are tested against.
func Portable() *Kernels { return portable }

// Lookup returns the path named name ("portable" is the Go path), or an
// error naming what this CPU can run.
func Lookup(name string) (*Kernels, error) {
	var names []string
	for _, k := range Available() {
		if k.Name == name || k.portableAlias == name {
			return k, nil
		}
		names = append(names, k.Name)
	}
	for _, k := range all {
		if k.Name == name {
			return nil, fmt.Errorf("gemm: path %q needs CPU features this machine lacks (available: %s)", name, strings.Join(names, ", "))
		}
	}
	return nil, fmt.Errorf("gemm: unknown path %q (available here: %s)", name, strings.Join(names, ", "))
}

// Default is the path to use: the one ARENA_GEMM names, else the fastest
// available. A bad ARENA_GEMM is an error naming the variable.
func Default() (*Kernels, error) {
	name := os.Getenv(EnvVar)
	if name == "" {
		return Available()[0], nil
	}
	k, err := Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", EnvVar, name, err)
	}
	return k, nil
}
