package heuristic

import "testing"

// strongSignature is the node count of `arena bench heuristic --depth 8
// --option preset=strong`, the search's fingerprint as Stockfish's "bench"
// is: the games of docs/ablation.md (results/ablation/) were played by the
// engine with this signature, and a game at a fixed node count depends on
// every node. A change to preset strong's search or evaluation changes it;
// update it together with a note in docs/ablation.md of which rows were
// played by the old engine, or with the replayed rows.
const strongSignature = 114138

func TestStrongSignature(t *testing.T) {
	if n := benchNodes(t, newEngine(t, map[string]string{"preset": "strong"}), 8); n != strongSignature {
		t.Errorf("preset strong searches %d nodes to depth 8 on the bench positions, the ablation's engine %d: "+
			"its search changed (see strongSignature)", n, strongSignature)
	}
}
