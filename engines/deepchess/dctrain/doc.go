// Package dctrain trains the deepchess engine's net ("arena train
// deepchess"; docs/deepchess.md).
//
// Data. Positions come from the decisive games of arena runs (games.jsonl):
// every position after the first five moves that does not directly follow
// a capture, filed by who won the game, as DeepChess does. Whole openings
// (both games of a pair) are held out, so held-out pairs measure the net on
// games it never saw, not on neighbours of its training positions.
// Positions are kept as their active inputs (at most 37 of 773), about 75
// bytes each.
//
// Training. Pos2Vec is first pre-trained layer by layer as autoencoders,
// then Pos2Vec and the head are trained together on pairs drawn anew every
// epoch (one position from a game White won, one from a game Black won, in
// random order). The Siamese net is a single Pos2Vec tape over both halves
// of a batch and a head tape over the halves' vectors side by side, the
// head's input gradient split back onto the halves: the shared weights get
// the sum of both uses without any shared-weight machinery in mlp.
package dctrain
