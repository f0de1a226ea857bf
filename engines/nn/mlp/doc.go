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
// activations), Tape.Backward is plain Go over the rows, split between
// worker goroutines each with a partial gradient summed in a fixed order:
// a run is reproducible for a given seed, data and worker count.
// Initialisation is He before ReLU and Xavier otherwise.
//
// Files. Safetensors with PyTorch nn.Linear names and layouts
// ("layer0.weight" [out, in], "group1.0.bias" [out]) and two metadata
// entries: "architecture", the tag (Arch.Name), and "mlp", the whole Arch
// as JSON. Loading checks the shape against the tensors before allocating,
// then every value for NaN and infinity; Load also requires the
// architecture the engine expects.
package mlp
