package record

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects the games one process of a split run plays: game g (1-based)
// belongs to shard (g-1) mod Count. Interleaving rather than contiguous
// blocks spreads every pairing, colour and part of the opening book evenly
// over the shards, so shards take about the same wall time even when game
// lengths drift along the schedule (later openings, a slower pairing of a
// tournament), and a shard that is lost or late costs a thin sample of the
// whole run rather than a block of it. The zero Shard is the whole run.
type Shard struct {
	Index int `json:"index"` // 0-based
	Count int `json:"count"`
}

// Has reports whether game number g belongs to the shard.
func (s Shard) Has(g int) bool { return s.Count <= 1 || (g-1)%s.Count == s.Index }

// IsZero reports whether s is the whole run.
func (s Shard) IsZero() bool { return s.Count == 0 }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// ParseShard parses "I/N" (0 <= I < N).
func ParseShard(v string) (Shard, error) {
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: expected I/N with 0 <= I < N, e.g. 0/4", v)
	}
	return Shard{Index: i, Count: n}, nil
}
