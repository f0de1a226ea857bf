// Package nnue is the nnue engine: preset strong's alpha-beta search
// (engines/heuristic) with an efficiently updatable neural network as its
// evaluation, and the reader of the net file the trainer
// (engines/nnuetrain, "arena train nnue") writes; docs/nnue.md has the
// format and the engine's use and speed.
//
// The net is 768 piece-square inputs from each side's perspective, N
// hidden neurons per perspective (int16 accumulators), SCReLU or clipped
// ReLU, and one output over both perspectives, the side to move's first.
//
// Design decisions:
//   - The search tells the evaluator of its moves (heuristic.Incremental),
//     and the evaluator only records what a move changes; the accumulators
//     are brought up to date when a position is evaluated, from the nearest
//     computed ancestor. Interior nodes and moves the pruning takes back at
//     once are never evaluated, so they cost no update. A null move is not
//     pushed: the accumulators do not depend on the side to move.
//   - Accumulators are int16 and wrap, as in every NNUE engine: an update
//     and a refresh from scratch then agree bit for bit whatever the
//     weights. A net whose accumulators could pass int16 would disagree
//     with its trainer's wider arithmetic; "arena model info" prints a bound
//     from the weights so that such a net is seen before it is used.
//   - Every kernel path (AVX2 assembly, portable Go) computes the same
//     integers: dot products are exact in int64. Nets whose output weights
//     times QA fit int16 (trained nets, as a rule) take a narrower SCReLU
//     kernel that is exact for them; the choice is made once per evaluator.
//   - The engine's option defaults are preset strong's search values, not a
//     preset: "engine: nnue" is strong's search, and each technique can be
//     switched off on top, through the same option layers.
package nnue
