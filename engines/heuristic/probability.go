package heuristic

import (
	"fmt"
	"math"
)

// Probability-limited search (option probability; Giraffe, seed 003).
// Every node has a probability of lying on the principal variation: the
// root 1, and each node passes its own to its children split evenly among
// its legal moves. A node is expanded while its probability is above a
// threshold, and each iteration of the deepening divides the threshold by
// probBranching. In logarithms that is the depth-limited search with a
// move costing ln(legal moves) instead of one ply, so the searcher keeps
// its depth arithmetic and measures depth in probUnit steps per
// ln(probBranching): iteration d starts the root with d*probUnit, a child
// of a node with n moves gets probUnit*ln(n)/ln(probBranching) less, and a
// node left with nothing goes to the quiescence search. In a tree of
// constant branching factor probBranching the two searches are the same;
// where the branching differs (checks, forced replies, exchanges of
// queens) probability-limited search goes deeper in the narrow lines and
// shallower in the wide ones, as the seed describes. A single reply costs
// nothing (its probability is its parent's); the ply limit still ends such
// lines. The options that reduce, extend or prune by plies (null_move,
// lmr, futility, razoring, iir, check_extension) have no meaning on this
// scale and are refused with it; move ordering, pvs and aspiration apply.
const (
	probBranching = 30
	probUnit      = 500 // depth units per factor probBranching; 64 iterations fit the table's int16
)

// probCost[n] is the depth a node with n legal moves passes to its children.
var probCost [257]int

func init() {
	for n := 1; n < len(probCost); n++ {
		probCost[n] = int(math.Round(probUnit * math.Log(float64(n)) / math.Log(probBranching)))
	}
}

// rootDepth is the depth the root of iteration d is searched with.
func (s *searcher) rootDepth(d int) int {
	if s.cfg.probability {
		return d * probUnit
	}
	return d
}

// moveCost is what a move at a node with n legal moves takes off the depth.
func (s *searcher) moveCost(n int) int {
	if s.cfg.probability {
		return probCost[min(n, len(probCost)-1)]
	}
	return 1
}

// checkProbability refuses the options measured in plies together with
// probability-limited search.
func (c config) checkProbability() error {
	if !c.probability {
		return nil
	}
	for _, s := range switches {
		if s.plies && *s.field(&c) {
			return fmt.Errorf("option %s=true cannot be combined with %s=true (it counts plies; probability-limited search has no plies)", optProb, s.name)
		}
	}
	return nil
}
