// Package nn is the thesis value network (ValueNet, THESIS.md 1.3) in pure Go:
// the network and its input encoding, fast batched inference, and weight files.
//
// Input. A position is 12 planes of 8x8 (Input): planes 0-5 hold the white
// pawns, knights, bishops, rooks, queens and king, planes 6-11 the black ones;
// plane row 7-rank, column file, so row 0 is rank 8. Nothing else (side to
// move, castling, en passant) is encoded, exactly as board_to_tensor_optimized
// in the thesis listing. SetPlacement and SetPosition fill an Input.
//
// Network. Conv(12,64,3x3)-BN-ReLU, Conv(64,128,3x3)-BN-ReLU,
// Conv(128,128,3x3)-BN-ReLU, Conv(128,32,1x1)-ReLU, Flatten(2048),
// Linear(2048,256)-ReLU, Linear(256,1)-Tanh. The value is in [-1, 1], positive
// when the position is good for White. BatchNorm is folded into the preceding
// convolution when a Net is built, so inference is four convolutions and two
// matrix products.
//
// Inference. Every layer is one matrix product in which each output row is a
// board square of one position and each column an output channel; the 3x3
// convolutions read their inputs through a table of row indices (an "indirect"
// convolution: no im2col copy). The inner kernels are package gemm's (shared
// with the trainer): AVX-512 or AVX2/FMA assembly on amd64, chosen from the
// CPU features or forced with ARENA_GEMM, portable Go otherwise (Kernel
// reports which one runs). An Evaluator owns the scratch buffers of one
// goroutine, so evaluating allocates nothing; a Net is immutable and shared.
//
// Files. The native format is safetensors (tensor names as in PyTorch, with
// metadata: architecture, generation, best_wr, training). PyTorch checkpoints
// written by torch.save are read directly: a raw state_dict or the self-play
// trainer's {"m": state_dict, "g": generation, "best_wr": rate}.
package nn
