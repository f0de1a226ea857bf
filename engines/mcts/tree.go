package mcts

import (
	"arena/engines/board"
)

// maxNodes bounds the tree: about 48 MB of nodes plus the move lists of the
// expanded ones. A search that fills it stops and answers (at 2,000
// simulations per second that is after more than 8 minutes).
const maxNodes = 1 << 20

// none marks a missing node link.
const none int32 = -1

// Node kinds, fixed when the node is created.
const (
	ongoing  uint8 = iota
	mate           // the move into the node mates: a win for its mover
	drawnEnd       // stalemate or a draw by rule
)

// node is one position of the tree. Values are from the point of view of the
// player who made the move into the node (the side to move at its parent),
// so a parent picks the child with the highest value, as in the thesis's
// MCTSNode. Children form a list, newest first.
type node struct {
	parent      int32
	firstChild  int32
	nextSibling int32
	move        board.Move // the move into the node
	visits      int32
	inflight    int32   // leaf evaluations under way below (and at) the node: virtual losses
	valueSum    float64 // sum of the values backed up through the node
	moves       int32   // start of the legal moves in tree.moves; none until the node is expanded
	numMoves    uint8   // legal moves (at most 218)
	expanded    uint8   // moves[:expanded] have a child; moves[expanded:] are untried
	kind        uint8
	// proof (mate_detection) is 0 while unproven; +k if the node's mover
	// mates k plies after the parent's position, -k if the mover is mated k
	// plies after it.
	proof int16
}

// tree is a pool of nodes (root at index 0) and of the move lists of the
// expanded nodes. Both are allocated once and reused by every search.
type tree struct {
	nodes []node
	moves []board.Move
}

func newTree() *tree {
	// The capacity is reserved, not touched: pages of the node pool become
	// resident only as the tree grows into them.
	return &tree{nodes: make([]node, 0, maxNodes), moves: make([]board.Move, 0, 1<<20)}
}

func (t *tree) reset() {
	t.nodes = t.nodes[:0]
	t.moves = t.moves[:0]
}

func (t *tree) full() bool { return len(t.nodes) >= maxNodes }

// add appends a node for move m below parent (none for the root) and
// returns its index.
func (t *tree) add(parent int32, m board.Move, kind uint8) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{parent: parent, firstChild: none, nextSibling: none, move: m, moves: none, kind: kind})
	if parent != none {
		p := &t.nodes[parent]
		t.nodes[i].nextSibling = p.firstChild
		p.firstChild = i
	}
	return i
}

// setMoves records the legal moves of node n.
func (t *tree) setMoves(n int32, ml *board.MoveList) {
	nd := &t.nodes[n]
	nd.moves = int32(len(t.moves))
	nd.numMoves = uint8(ml.Len)
	t.moves = append(t.moves, ml.Moves[:ml.Len]...)
}

// compactInto copies the subtree of root into dst (emptied first) with root
// as dst's root, keeping every child list in order.
func (t *tree) compactInto(dst *tree, root int32) {
	dst.reset()
	type item struct{ src, parent int32 }
	// Depth-first with an explicit stack; children are pushed oldest first
	// so that each list is rebuilt newest first again by add.
	stack := []item{{root, none}}
	var kids []int32
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		src := &t.nodes[it.src]
		i := dst.add(it.parent, src.move, src.kind)
		d := &dst.nodes[i]
		d.visits, d.valueSum, d.proof = src.visits, src.valueSum, src.proof
		d.numMoves, d.expanded = src.numMoves, src.expanded
		if src.moves != none {
			d.moves = int32(len(dst.moves))
			dst.moves = append(dst.moves, t.moves[src.moves:src.moves+int32(src.numMoves)]...)
		}
		kids = kids[:0]
		for c := src.firstChild; c != none; c = t.nodes[c].nextSibling {
			kids = append(kids, c)
		}
		// kids is newest first; pushing it in that order pops the oldest
		// first, and add prepends, so the newest ends up first again.
		for _, c := range kids {
			stack = append(stack, item{c, i})
		}
	}
}
