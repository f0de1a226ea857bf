package mlp_test

import (
	"fmt"

	"arena/engines/nn/mlp"
	"arena/engines/nn/optim"
)

// A Giraffe-shaped net: three feature groups, each with its own layer,
// concatenated into two fully connected layers with a tanh output.
func Example_giraffe() {
	arch := mlp.Arch{Name: "giraffe-1", Inputs: 363,
		Groups: []mlp.Group{
			{From: 0, To: 23, Layers: []mlp.Dense{{Out: 32, Act: mlp.ReLU}}},     // global
			{From: 23, To: 235, Layers: []mlp.Dense{{Out: 256, Act: mlp.ReLU}}},  // piece-centric
			{From: 235, To: 363, Layers: []mlp.Dense{{Out: 128, Act: mlp.ReLU}}}, // square-centric
		},
		Layers: []mlp.Dense{{Out: 64, Act: mlp.ReLU}, {Out: 1, Act: mlp.Tanh}}}
	m, err := mlp.New(arch, 1)
	if err != nil {
		panic(err)
	}
	net, err := m.Compile()
	if err != nil {
		panic(err)
	}
	ev := net.NewEvaluator(1) // one per search goroutine
	features := make([]float32, 363)
	var value [1]float32
	ev.Forward(features, value[:])
	fmt.Println(arch.MultiplyAdds(), value[0] > -1 && value[0] < 1)
	// Output: 98080 true
}

// DeepChess: Pos2Vec applied to two positions, a head on the two vectors;
// one training step through both copies of Pos2Vec.
func Example_deepChess() {
	pos2vec, _ := mlp.New(mlp.Arch{Name: "deepchess-pos2vec-1", Inputs: 773,
		Layers: []mlp.Dense{{Out: 600}, {Out: 400}, {Out: 200}, {Out: 100}}}, 1) // Act zero value: ReLU
	head, _ := mlp.New(mlp.Arch{Name: "deepchess-head-1", Inputs: 200,
		Layers: []mlp.Dense{{Out: 400}, {Out: 200}, {Out: 100}, {Out: 2, Act: mlp.Identity}}}, 2)
	const batch = 4
	white, black := make([]float32, batch*773), make([]float32, batch*773)
	for r := range batch {
		white[r*773+r], black[r*773+100+r] = 1, 1
	}
	labels := []int{0, 0, 0, 0} // class 0: the first position is the better one

	tapeA, _ := pos2vec.NewTape(batch, 2)
	tapeB, _ := pos2vec.NewTape(batch, 2)
	tapeH, _ := head.NewTape(batch, 2)
	gP, gH := make([]float32, len(pos2vec.Params)), make([]float32, len(head.Params))
	optP, optH := optim.NewAdam(len(gP), 3e-4), optim.NewAdam(len(gH), 3e-4)
	cat, dOut, dCat := make([]float32, batch*200), make([]float32, batch*2), make([]float32, batch*200)
	dA, dB := make([]float32, batch*100), make([]float32, batch*100)
	step := func() float64 {
		va, vb := tapeA.Forward(white, batch), tapeB.Forward(black, batch)
		for r := range batch {
			copy(cat[r*200:], va[r*100:(r+1)*100])
			copy(cat[r*200+100:], vb[r*100:(r+1)*100])
		}
		loss := mlp.SoftmaxCE(tapeH.Forward(cat, batch), labels, dOut)
		clear(gP)
		clear(gH)
		tapeH.Backward(dOut, gH, dCat) // dCat: the gradient of both vectors
		for r := range batch {
			copy(dA[r*100:(r+1)*100], dCat[r*200:])
			copy(dB[r*100:(r+1)*100], dCat[r*200+100:])
		}
		tapeA.Backward(dA, gP, nil) // both copies add into one gradient
		tapeB.Backward(dB, gP, nil)
		optP.Update(pos2vec.Params, gP, tapeA.Parallel)
		optH.Update(head.Params, gH, tapeH.Parallel)
		return loss
	}
	first := step()
	for range 10 {
		step()
	}
	fmt.Println(step() < first/2)
	// Output: true
}
