package nnuetrain

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/engines/board"
	"arena/engines/nnue"
)

// TestGradientMatchesFiniteDifferences checks backward against central
// differences of the loss on a tiny net (the portable path: 8 hidden
// units), for both activations, on parameters of every kind.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	d := syntheticData(t, 40, 3)
	for _, activation := range []nnue.Activation{nnue.SCReLU, nnue.CReLU} {
		net, err := NewNet(8, activation, 5)
		if err != nil {
			t.Fatal(err)
		}
		for i := range net.B {
			net.B[i] = 0.3 // most units inside (0, 1), where the loss is smooth
		}
		s := newScratch(8)
		checked := 0
		for k := range 30 {
			feats := d.Feats[d.Off[k]:d.Off[k+1]]
			stm, target := d.STM[k], float32(0.3)
			loss := func() float64 {
				p := float64(sigmoid(net.forward(s, feats, stm, 0)))
				return (p - float64(target)) * (p - float64(target))
			}
			grad := make([]float32, len(net.Params))
			p := sigmoid(net.forward(s, feats, stm, 0))
			if nearKink(s.acc) {
				continue // a difference across a kink is not a derivative
			}
			checked++
			net.backward(s, len(feats), 2*(p-target)*p*(1-p), grad)
			// The parameters the position uses: its first feature's row
			// for the side to move, biases, output weights.
			fu := s.us[0]
			check := []int{fu*8 + 1, fu*8 + 6, nnue.Inputs*8 + 2, nnue.Inputs*8 + 8 + 3, nnue.Inputs*8 + 16 + 5, len(net.Params) - 1}
			for _, j := range check {
				const eps = 1e-3
				old := net.Params[j]
				net.Params[j] = old + eps
				up := loss()
				net.Params[j] = old - eps
				down := loss()
				net.Params[j] = old
				num := (up - down) / (2 * eps)
				if diff := math.Abs(num - float64(grad[j])); diff > 1e-4+0.02*math.Abs(num) {
					t.Errorf("activation %d, position %d, parameter %d: backward %.6g, finite differences %.6g", activation, k, j, grad[j], num)
				}
			}
		}
		if checked < 5 {
			t.Errorf("activation %d: only %d positions away from the kinks, expected >= 5", activation, checked)
		}
	}
}

func nearKink(acc []float32) bool {
	for _, x := range acc {
		if math.Abs(float64(x)) < 0.01 || math.Abs(float64(x)-1) < 0.01 {
			return true
		}
	}
	return false
}

// TestRowKernelsBitIdentical compares the kernels in use (AVX2 where the
// CPU has it) with the portable ones, bit for bit.
func TestRowKernelsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, h := range []int{64, 256, 512} {
		w := make([]float32, nnue.Inputs*h)
		for i := range w {
			w[i] = float32(rng.NormFloat64())
		}
		rows := rng.Perm(nnue.Inputs)[:32]
		src := make([]float32, h)
		for i := range src {
			src[i] = float32(rng.NormFloat64())
		}
		a, b := append([]float32(nil), src...), append([]float32(nil), src...)
		sumRows(a, w, rows)
		sumRowsGo(b, w, rows)
		wa, wb := append([]float32(nil), w...), append([]float32(nil), w...)
		addToRows(wa, rows, src)
		addToRowsGo(wb, rows, src)
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("h %d: sumRows[%d] = %v, portable %v", h, i, a[i], b[i])
			}
		}
		for i := range wa {
			if math.Float32bits(wa[i]) != math.Float32bits(wb[i]) {
				t.Fatalf("h %d: addToRows[%d] = %v, portable %v", h, i, wa[i], wb[i])
			}
		}
	}
	t.Logf("AVX2 path in use: %v", useAVX2)
}

// TestDenseKernelsBitIdentical compares the SCReLU output layer's kernels
// in use with the portable ones, bit for bit, on accumulators either side
// of 0 and 1 (exact zeros of both signs and ones included) and a tail of
// additions (add) not a multiple of the SIMD width.
func TestDenseKernelsBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vec := func(n int, special bool) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
			if special {
				v[i] = []float32{v[i], 0, float32(math.Copysign(0, -1)), 1, 0.5 + v[i]/4}[rng.IntN(5)]
			}
		}
		return v
	}
	for _, h := range []int{8, 64, 256, 264} {
		us, them, ou, ot := vec(h, true), vec(h, true), vec(h, false), vec(h, false)
		if a, b := outputSCReLU(us, them, ou, ot), outputSCReLUGo(us, them, ou, ot); math.Float32bits(a) != math.Float32bits(b) {
			t.Fatalf("h %d: outputSCReLU %v, portable %v", h, a, b)
		}
		var got, want [5][]float32
		for k := range got {
			got[k] = vec(h, false)
			want[k] = append([]float32(nil), got[k]...)
		}
		dOut := float32(rng.NormFloat64())
		backwardSCReLU(us, them, ou, ot, got[0], got[1], got[2], got[3], got[4], dOut)
		backwardSCReLUGo(us, them, ou, ot, want[0], want[1], want[2], want[3], want[4], dOut)
		for k := range got {
			for i := range got[k] {
				if math.Float32bits(got[k][i]) != math.Float32bits(want[k][i]) {
					t.Fatalf("h %d: backwardSCReLU output %d [%d] = %v, portable %v", h, k, i, got[k][i], want[k][i])
				}
			}
		}
		dst, src := vec(h+5, false), vec(h+5, false)
		ref := append([]float32(nil), dst...)
		add(dst, src)
		for i := range dst {
			if dst[i] != ref[i]+src[i] {
				t.Fatalf("add [%d] = %v, want %v", i, dst[i], ref[i]+src[i])
			}
		}
	}
}

func smallConfig() Config {
	return Config{Hidden: 64, Epochs: 4, Batch: 256, LR: 0.005, LRFinal: 0.1, Lambda: 0.5, Seed: 7, Threads: 2}
}

// TestLossDecreases trains on material-labelled positions: the validation
// loss must fall well below the constant predictor's.
func TestLossDecreases(t *testing.T) {
	d := syntheticData(t, 6000, 11)
	train, val := d.Split(0.1)
	cfg := smallConfig()
	cfg.Epochs = 6
	_, rep, err := Train(cfg, train, val)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("validation loss %.5f, constant %.5f, training %.5f", rep.ValLoss, rep.ConstLoss, rep.TrainLoss)
	if !(rep.ValLoss < 0.7*rep.ConstLoss) {
		t.Errorf("validation loss %.5f, expected below 0.7 x the constant predictor's %.5f", rep.ValLoss, rep.ConstLoss)
	}
}

// TestResumeAndThreadsGiveTheSameNet: a run stopped after an epoch and
// resumed, and a run on one thread, end with the uninterrupted two-thread
// run's parameters, bit for bit.
func TestResumeAndThreadsGiveTheSameNet(t *testing.T) {
	d := syntheticData(t, 2000, 13)
	train, val := d.Split(0.1)
	cfg := smallConfig()
	cfg.Mirror = true
	whole, _, err := Train(cfg, train, val)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Checkpoint = filepath.Join(t.TempDir(), "ckpt")
	cfg.StopAfter = 1
	if _, _, err := Train(cfg, train, val); err != nil {
		t.Fatal(err)
	}
	cfg.StopAfter, cfg.Resume = 0, true
	resumed, rep, err := Train(cfg, train, val)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ResumedEpoch != 1 || rep.Epochs != 3 {
		t.Fatalf("resumed from epoch %d and trained %d, expected 1 and 3", rep.ResumedEpoch, rep.Epochs)
	}
	cfg.Checkpoint, cfg.Resume, cfg.Threads = "", false, 1
	single, _, err := Train(cfg, train, val)
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]*Net{"resumed": resumed, "one thread": single} {
		for i := range whole.Params {
			if math.Float32bits(whole.Params[i]) != math.Float32bits(n.Params[i]) {
				t.Fatalf("%s: parameter %d is %v, the uninterrupted two-thread run's %v", name, i, n.Params[i], whole.Params[i])
			}
		}
	}
	// A checkpoint of another configuration is refused, naming both.
	cfg.Checkpoint, cfg.Resume, cfg.Seed = filepath.Join(filepath.Dir(cfg.Checkpoint), "x"), true, 8
	if _, _, err := Train(cfg, train, val); err == nil {
		t.Error("resume without a checkpoint: no error")
	}
}

// TestNetFileRoundTrip writes a trained net, reads it back with the
// engine's reader, and checks the engine's integer evaluation against the
// float net: on the trainer's feature lists, and on the board positions
// they came from (the engine's own features), so that the trainer's
// feature convention is the engine's.
func TestNetFileRoundTrip(t *testing.T) {
	lines := syntheticLines(3000, 17)
	d, err := ReadData(strings.NewReader(strings.Join(lines, "\n")), "synthetic", 0)
	if err != nil {
		t.Fatal(err)
	}
	train, val := d.Split(0.1)
	cfg := smallConfig()
	net, _, err := Train(cfg, train, val)
	if err != nil {
		t.Fatal(err)
	}
	q, clamped := net.Quantise(400)
	if clamped != 0 {
		t.Errorf("%d weights clamped", clamped)
	}
	path := filepath.Join(t.TempDir(), "net.nnue")
	if err := WriteNet(path, q); err != nil {
		t.Fatal(err)
	}
	back, err := nnue.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.CRC != q.CRC || back.Hidden != 64 || back.Activation != nnue.SCReLU || back.QA != QA || back.QB != QB || back.Scale != 400 {
		t.Fatalf("read back: CRC %08x hidden %d activation %d QA %d QB %d scale %d; written CRC %08x, 64, SCReLU, %d, %d, 400",
			back.CRC, back.Hidden, back.Activation, back.QA, back.QB, back.Scale, q.CRC, QA, QB)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != int64(len(nnue.Magic)+24+2*(nnue.Inputs*64+64+128)+8) {
		t.Errorf("file: %v, %v", st, err)
	}
	// The integer evaluation is the float one of the dequantised weights
	// up to its integer divisions' truncation; quantisation itself costs
	// a few centipawns, which the log shows.
	deq := netOf(64, nnue.SCReLU, make([]float32, len(net.Params)))
	for i, v := range back.FeatureWeights {
		deq.W[i] = float32(v) / QA
	}
	for i, v := range back.FeatureBias {
		deq.B[i] = float32(v) / QA
	}
	for i, v := range back.OutputWeights {
		deq.O[i] = float32(v) / QB
	}
	deq.OB[0] = float32(back.OutputBias) / (QA * QB)
	var worst, quant float64
	first := train.Len()
	for i := range val.Len() {
		feats := val.Feats[val.Off[i]:val.Off[i+1]]
		var us, them []int
		for _, f := range feats {
			us, them = append(us, int(f)), append(them, Flip(int(f)))
		}
		if val.STM[i] == 1 {
			us, them = them, us
		}
		got := back.EvaluateFeatures(us, them)
		fen, _, _ := strings.Cut(lines[first+i], " |")
		p, err := board.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if e := back.Evaluate(p); e != got {
			t.Fatalf("%s: the engine evaluates the position %d, the trainer's features %d", fen, e, got)
		}
		worst = max(worst, math.Abs(float64(got)-400*float64(deq.Evaluate(feats, val.STM[i]))))
		quant += math.Abs(float64(got) - 400*float64(net.Evaluate(feats, val.STM[i])))
	}
	t.Logf("quantisation: mean |integer - float evaluation| %.2f cp over %d positions", quant/float64(val.Len()), val.Len())
	if worst > 2 {
		t.Errorf("integer evaluation and the dequantised float net's differ by up to %.2f cp, expected <= 2", worst)
	}
}

// TestReadDataErrorsNameTheLine checks the reader's messages.
func TestReadDataErrorsNameTheLine(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5", "two kings"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | x | 0.5", "score"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 2", "result"},
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0", "3"},
	} {
		_, err := ReadData(strings.NewReader("# comment\n"+tc.text+"\n"), "f.txt", 0)
		if err == nil || !strings.Contains(err.Error(), "f.txt:2:") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, expected f.txt:2 and %q", tc.text, err, tc.want)
		}
	}
	d, err := ReadData(strings.NewReader("4k3/8/8/8/8/8/8/4K3 b - - 0 1 | -35 | 0.0\n"), "f.txt", 0)
	if err != nil || d.Len() != 1 || d.STM[0] != 1 || d.Score[0] != -35 || d.Result[0] != 0 {
		t.Fatalf("got %+v, %v", d, err)
	}
	if f := int(d.Feats[0]); f != Feature(1, 5, 60) || Flip(f) != Feature(0, 5, 4) {
		t.Errorf("black king on e8: feature %d (flipped %d), expected %d (%d)", f, Flip(f), Feature(1, 5, 60), Feature(0, 5, 4))
	}
}
