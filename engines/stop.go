package engines

import (
	"context"
	"math"
	"time"
)

// Stop is the check every search makes to decide whether to stop: the
// context is done (UCI "stop"), the node budget is spent, or the time limit
// has passed. It is split in two because the costs differ: NodesSpent is a
// comparison, cheap enough for every node (so a node limit is exact), while
// Interrupted reads the clock and the context, which a fast search does
// only every few thousand nodes.
type Stop struct {
	done      <-chan struct{}
	start     time.Time
	limit     time.Duration
	nodeLimit int64
}

// NewStop starts the checks of one search begun at start: ctx's
// cancellation, lim's node count, and the time limit (0: none), which is
// the hard or soft budget of Limits.Budget as suits the engine's search.
// The zero Stop has a node budget of 0: it stops at once.
func NewStop(ctx context.Context, start time.Time, lim Limits, limit time.Duration) Stop {
	s := Stop{done: ctx.Done(), start: start, limit: limit, nodeLimit: math.MaxInt64}
	if lim.Nodes > 0 {
		s.nodeLimit = lim.Nodes
	}
	return s
}

// NodesSpent reports whether a search that has counted nodes has used its
// node budget.
func (s *Stop) NodesSpent(nodes int64) bool { return nodes >= s.nodeLimit }

// Interrupted reports whether the context is done or the time limit has
// passed.
func (s *Stop) Interrupted() bool {
	if s.limit > 0 && time.Since(s.start) >= s.limit {
		return true
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Check is NodesSpent or Interrupted, for searches whose nodes are costly
// enough to check everything every time.
func (s *Stop) Check(nodes int64) bool { return s.NodesSpent(nodes) || s.Interrupted() }
