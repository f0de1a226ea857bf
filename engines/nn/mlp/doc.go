// Package mlp is the dense multilayer perceptron shared by the giraffe and
// deepchess engines: the net (Arch, Model), its inference over package
// gemm's kernels (Net, Evaluator), its training (Tape, the losses, Adam
// from package optim) and its safetensors files.
//
// Shape. An Arch is a trunk of Dense layers (width and activation: ReLU,
// tanh, sigmoid or identity), optionally preceded by Groups: each a stack of
// dense layers of its own over a range of the inputs, their last outputs
// concatenated into the trunk's input. That is a block-diagonal first part,
// which is how Giraffe keeps its feature groups (global, piece-centric,
// square-centric) apart until the top layers: each group's units see only
// features of one kind, and the net costs the sum of the blocks rather than
// a full matrix over all 363 inputs. Representing the blocks as separate
// small stacks, instead of a full matrix with a mask, keeps both the
// multiply-adds and the gradients of the zero blocks away.
//
// Composition. A Model is one stack of layers with one input and one
// output; nets built from several (DeepChess: the same Pos2Vec applied to
// two positions, a head on the two outputs concatenated) are composed by the
// caller. The engine wants exactly that anyway (it caches each position's
// Pos2Vec vector in the transposition table and runs only the head per
// comparison), and in training a Siamese pair is two Tapes over one Model
// whose Backward calls add into one gradient, with the head's input
// gradient (Tape.Backward's dIn) split between them. A general graph type
// would serve these two nets no better and be much larger.
//
// Inference. Each layer is one matrix product by gemm's kernels: the row
// kernel for one position (an engine's case), the tile kernel for batches;
// both add a row's products in the same order, so a position's outputs do
// not depend on the batch it was evaluated in. The kernels fuse bias and
// ReLU; a layer with another activation gets a second copy of its weights,
// negated, and takes max(0, z) - max(0, -z) = z before applying it (exact;
// such layers are the small output layers). Widths are padded to the
// kernels' panels (zeros), so any width works.
//
// Training. Tape.Forward reuses the inference path (keeping every layer's
// activations); Tape.Backward computes each layer's weight and input
// gradients as two products on gemm's 8x32 training tile. The rows are
// split between worker goroutines, each with a partial gradient, summed in
// a fixed order: a run is reproducible for a given seed, data and worker
// count (not across worker counts: the sums' order changes). The trainer
// lives here rather than in package train, which is the ValueNet's; the
// optimiser both use is package optim's Adam.
// Initialisation is He before ReLU and Xavier otherwise.
//
// Speed (go test -bench . ./engines/nn/mlp, 2026-11-23, the shared 2-core
// AMD EPYC at load average ~36, so CPU time per position, which the load
// disturbs least; the padding to kernel panels included). One position:
// Giraffe-shaped (363 inputs in three groups, 98 k multiply-adds) 4.1 us on
// AVX-512, 3.8 us AVX2, 16 us portable Go; Pos2Vec (773-600-400-200-100,
// 0.80 M) 52 / 55 / 160 us; the DeepChess head (200-400-200-100-2, 0.18 M)
// 13 / 13 / 64 us. In batches of 256 a position costs 1.7, 15 and 3.3 us
// (AVX-512). One position is bound by streaming the weights (4 MB for
// Pos2Vec once padded), which is why DeepChess's engine computes Pos2Vec
// once per node and only the head per comparison. A training step of 256
// DeepChess pairs (both Pos2Vec copies and the head, forward, backward,
// Adam; BenchmarkTrainSiamese) runs 700-2,900 pairs per CPU second,
// depending on the load.
//
// Files. Safetensors with PyTorch nn.Linear names and layouts
// ("layer0.weight" [out, in], "group1.0.bias" [out]) and two metadata
// entries: "architecture", the tag (Arch.Name), and "mlp", the whole Arch
// as JSON. Loading checks the shape against the tensors before allocating,
// then every value for NaN and infinity; Load also requires the
// architecture the engine expects.
package mlp
