package gemm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestAvailable checks that this machine's CPU features give the paths they
// should, so the tests below cover every assembly path where the CPU has it.
func TestAvailable(t *testing.T) {
	var names []string
	for _, k := range Available() {
		names = append(names, k.Name)
	}
	want := []string{"go"}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		want = append([]string{"avx2"}, want...)
	}
	if cpu.X86.HasAVX512F {
		want = append([]string{"avx512"}, want...)
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("Available() = %v, want %v", names, want)
	}
}

func TestDefaultHonoursEnv(t *testing.T) {
	for _, k := range Available() {
		t.Setenv(EnvVar, k.Name)
		got, err := Default()
		if err != nil || got != k {
			t.Fatalf("%s=%s: Default() = %v, %v", EnvVar, k.Name, got, err)
		}
	}
	t.Setenv(EnvVar, "portable")
	if got, err := Default(); err != nil || got != Portable() {
		t.Fatalf("%s=portable: Default() = %v, %v", EnvVar, got, err)
	}
	t.Setenv(EnvVar, "sse9")
	if _, err := Default(); err == nil || !strings.Contains(err.Error(), "ARENA_GEMM=sse9") || !strings.Contains(err.Error(), "go") {
		t.Fatalf("%s=sse9: error %v, want one naming the variable and the available paths", EnvVar, err)
	}
	t.Setenv(EnvVar, "")
	if got, err := Default(); err != nil || got != Available()[0] {
		t.Fatalf("unset %s: Default() = %v, %v, want the fastest path", EnvVar, got, err)
	}
}

// TestTrainKernels checks every path's training tile against the portable
// one and a float64 reference, with and without accumulation, on shapes
// whose k and strides are not multiples of anything the assembly favours.
// The assembly paths fuse each multiply-add in the same order, so they must
// agree bit for bit.
func TestTrainKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const lda, k, ldb, ldc = 40, 37, 70, 50
	a := make([]float32, 2000)
	b := make([]float32, 3*k*ldb)
	for i := range a {
		a[i] = rng.Float32()*2 - 1
	}
	for i := range b {
		b[i] = rng.Float32()*2 - 1
	}
	aoff := []int{5, 300, 17}
	for _, acc := range []bool{false, true} {
		fresh := func() []float32 {
			c := make([]float32, TileM*ldc)
			for i := range c {
				c[i] = float32(i)
			}
			return c
		}
		want := fresh()
		Portable().TrainTile(a, aoff, lda, k, b[3:], ldb, want, ldc, acc)
		var fused []float32
		for _, ks := range Available() {
			got := fresh()
			ks.TrainTile(a, aoff, lda, k, b[3:], ldb, got, ldc, acc)
			for i := range TileM {
				for j := range TileN {
					ref := 0.0
					if acc {
						ref = float64(i*ldc + j)
					}
					for tp, o := range aoff {
						for kk := range k {
							ref += float64(a[o+i*lda+kk]) * float64(b[3+(tp*k+kk)*ldb+j])
						}
					}
					v := got[i*ldc+j]
					if math.Abs(float64(v)-ref) > 1e-4*math.Max(1, math.Abs(ref)) {
						t.Fatalf("acc=%v %s: c[%d][%d] = %v, float64 reference %v", acc, ks.Name, i, j, v, ref)
					}
					if d := math.Abs(float64(v - want[i*ldc+j])); d > 1e-4*math.Max(1, math.Abs(ref)) {
						t.Fatalf("acc=%v %s: c[%d][%d] = %v, portable %v", acc, ks.Name, i, j, v, want[i*ldc+j])
					}
				}
				for j := TileN; j < ldc; j++ {
					if got[i*ldc+j] != float32(i*ldc+j) {
						t.Fatalf("acc=%v %s wrote c[%d][%d], beyond the tile", acc, ks.Name, i, j)
					}
				}
			}
			if ks == Portable() {
				continue
			}
			if fused == nil {
				fused = got
			} else if d := firstDiff(fused, got); d >= 0 {
				t.Fatalf("acc=%v %s: c[%d] = %v, the other assembly path %v: should be bit-identical", acc, ks.Name, d, got[d], fused[d])
			}
		}
	}
}

func firstDiff(x, y []float32) int {
	for i := range x {
		if x[i] != y[i] {
			return i
		}
	}
	return -1
}

// TestInferKernels compares every inference path with a float64 reference on
// random data, including negative sums (which the ReLU must clear).
func TestInferKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range Available() {
		for _, shape := range []struct{ taps, cin int }{{9, 12}, {9, 64}, {1, 128}, {1, 2048}} {
			rows := 80
			a := make([]float32, (rows+1)*shape.cin)
			for i := range a[:rows*shape.cin] {
				a[i] = rng.Float32()*2 - 1
			}
			idx := make([]int32, shape.taps*k.MR)
			for i := range idx {
				idx[i] = int32(rng.IntN(rows + 1)) // row `rows` is all zero
			}
			b := make([]float32, shape.taps*shape.cin*k.NR)
			for i := range b {
				b[i] = rng.Float32()*2 - 1
			}
			bias := make([]float32, k.NR)
			for i := range bias {
				bias[i] = rng.Float32()*2 - 1
			}
			ldc := k.NR + 3
			got := make([]float32, k.MR*ldc)
			k.Tile(a, idx, shape.taps, shape.cin, b, got, ldc, bias)

			// The reference: the same sum in float64.
			for i := range k.MR {
				for l := range k.NR {
					sum := float64(bias[l])
					for tap := range shape.taps {
						row := int(idx[tap*k.MR+i])
						for c := range shape.cin {
							sum += float64(a[row*shape.cin+c]) * float64(b[(tap*shape.cin+c)*k.NR+l])
						}
					}
					want := max(sum, 0)
					if d := math.Abs(float64(got[i*ldc+l]) - want); d > 1e-4*(1+math.Abs(want)) {
						t.Fatalf("kernel %s, taps %d cin %d: c[%d][%d] = %v, want %v", k.Name, shape.taps, shape.cin, i, l, got[i*ldc+l], want)
					}
				}
				for l := k.NR; l < ldc; l++ {
					if got[i*ldc+l] != 0 {
						t.Fatalf("kernel %s wrote column %d of row %d, beyond its %d columns", k.Name, l, i, k.NR)
					}
				}
			}
		}
	}
}

// TestRowKernelMatchesTile checks that the row kernel (small batches of the
// linear layer) gives bit for bit the tile kernel's values.
func TestRowKernelMatchesTile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range Available() {
		const cin = 256
		panels := 2 * k.RowPanels
		a := make([]float32, cin)
		for i := range a {
			a[i] = rng.Float32()*2 - 1
		}
		b := make([]float32, panels*cin*k.NR)
		for i := range b {
			b[i] = rng.Float32()*2 - 1
		}
		bias := make([]float32, panels*k.NR)
		for i := range bias {
			bias[i] = rng.Float32()*2 - 1
		}
		idx := make([]int32, k.MR) // every tile row reads row 0
		cout := panels * k.NR
		viaTile := make([]float32, k.MR*cout)
		for j := 0; j < cout; j += k.NR {
			k.Tile(a, idx, 1, cin, b[j*cin:(j+k.NR)*cin], viaTile[j:], cout, bias[j:j+k.NR])
		}
		viaRow := make([]float32, cout)
		group := k.RowPanels * k.NR
		for j := 0; j < cout; j += group {
			k.Row(a, b[j*cin:], cin*k.NR, viaRow[j:j+group], bias[j:j+group])
		}
		positive := 0
		for l := range viaRow {
			if viaRow[l] != viaTile[l] || viaRow[l] != viaTile[(k.MR-1)*cout+l] {
				t.Fatalf("kernel %s: column %d: row kernel %v, tile kernel %v", k.Name, l, viaRow[l], viaTile[l])
			}
			if viaRow[l] > 0 {
				positive++
			}
		}
		if positive == 0 || positive == cout {
			t.Fatalf("kernel %s: %d of %d outputs positive; the test data should exercise the ReLU", k.Name, positive, cout)
		}
	}
}
