//go:build !worker

package main

// The built-in engines register themselves in their packages' init
// functions; importing them here is what makes them available to every
// subcommand.
import (
	_ "arena/engines/deepchess"
	_ "arena/engines/giraffe"
	_ "arena/engines/heuristic"
	_ "arena/engines/mcts"
	_ "arena/engines/neural"
	_ "arena/engines/nnue"
	_ "arena/engines/random"
	_ "arena/engines/supervised"
)
