package enginetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"arena/engines"
)

// Subject is an engine under the conformance suite.
type Subject struct {
	Name string
	// New builds a fresh engine with the given options (nil: defaults);
	// the suite passes "seed" only when Seeded is set. The engine must be
	// closed when the test ends.
	New func(t *testing.T, opts map[string]string) engines.Engine
	// Seeded: the engine takes a seed option.
	Seeded bool
	// IgnoresNodes: the engine does not search, so "go nodes N" has nothing
	// to bound (the random mover).
	IgnoresNodes bool
}

// slack bounds how long past its time limit, or past a stop, an engine may
// take to answer. It only catches an engine that ignores the limit on a
// machine shared by many builds; speed is measured by benchmarks.
const slack = 5 * time.Second

// Conformance checks the engine contract (engines.Engine) that the arena
// and the UCI server rely on, the same for every engine: legal moves from
// varied positions, no move and no error without a legal move, depth,
// node and time limits honoured, cancellation (UCI "stop") answered with a
// legal move, an unbounded search held until stopped, node counts reported
// (exactly N under "go nodes N" when the search is not over sooner), and
// results that depend only on the input and the seed.
func Conformance(t *testing.T, s Subject) {
	t.Run("legal moves", func(t *testing.T) { conformLegal(t, s) })
	t.Run("limits", func(t *testing.T) { conformLimits(t, s) })
	t.Run("stop", func(t *testing.T) { conformStop(t, s) })
	t.Run("deterministic", func(t *testing.T) { conformDeterministic(t, s) })
}

func conformLegal(t *testing.T, s Subject) {
	e := s.New(t, nil)
	for _, fen := range Positions {
		e.NewGame()
		res := Search(t, e, engines.Position{FEN: fen}, engines.Limits{Depth: 1})
		if res.Nodes <= 0 {
			t.Errorf("%s: %s: %d nodes reported", s.Name, fen, res.Nodes)
		}
	}
	// A game given as moves from the start: the engine must replay them.
	pos := engines.Position{Moves: []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}}
	Search(t, e, pos, engines.Limits{Depth: 1})
	for _, fen := range NoMoves {
		res, err := e.Search(context.Background(), engines.Position{FEN: fen}, engines.Limits{Depth: 1}, nil)
		if err != nil || res.Move != "" {
			t.Errorf("%s: %s has no legal move: got %q, %v; want no move and no error", s.Name, fen, res.Move, err)
		}
	}
}

func conformLimits(t *testing.T, s Subject) {
	e := s.New(t, nil)
	start := engines.Position{}
	for _, depth := range []int{1, 2} {
		e.NewGame()
		res := Search(t, e, start, engines.Limits{Depth: depth})
		if res.Depth < 1 || res.Depth > depth {
			t.Errorf("%s: go depth %d reported depth %d", s.Name, depth, res.Depth)
		}
	}
	// Five nodes end every engine's search of the start position (20
	// legal moves) before it is over by itself.
	const nodes = 5
	e.NewGame()
	res := Search(t, e, start, engines.Limits{Nodes: nodes})
	switch {
	case res.Nodes <= 0:
		t.Errorf("%s: go nodes %d reported %d nodes", s.Name, nodes, res.Nodes)
	case !s.IgnoresNodes && res.Nodes != nodes:
		t.Errorf("%s: go nodes %d searched %d nodes, want exactly %d", s.Name, nodes, res.Nodes, nodes)
	}
	timed := []struct {
		name  string
		lim   engines.Limits
		limit time.Duration
	}{
		{"movetime 50ms", engines.Limits{MoveTime: 50 * time.Millisecond}, 50 * time.Millisecond},
		{"clock 1s+0", engines.Limits{WTime: time.Second, BTime: time.Second}, time.Second},
	}
	for _, c := range timed {
		e.NewGame()
		t0 := time.Now()
		res := Search(t, e, engines.Position{FEN: Positions[1]}, c.lim)
		if el := time.Since(t0); el > c.limit+slack {
			t.Errorf("%s: %s answered after %v", s.Name, c.name, el)
		}
		if res.Nodes <= 0 {
			t.Errorf("%s: %s reported %d nodes", s.Name, c.name, res.Nodes)
		}
	}
}

// conformStop: a cancelled search answers a legal move without error, and
// an unbounded one ("go infinite", or a go without limits) only once
// cancelled.
func conformStop(t *testing.T, s Subject) {
	e := s.New(t, nil)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	pos := engines.Position{FEN: Positions[4]}
	res, err := e.Search(cancelled, pos, engines.Limits{Infinite: true}, nil)
	if err != nil {
		t.Fatalf("%s: search cancelled before it began: %v", s.Name, err)
	}
	CheckLegal(t, pos, res.Move)
	for _, lim := range []engines.Limits{{Infinite: true}, {}} {
		e.NewGame()
		ctx, cancel := context.WithCancel(context.Background())
		type answer struct {
			res engines.Result
			err error
		}
		done := make(chan answer, 1)
		go func() {
			res, err := e.Search(ctx, pos, lim, nil)
			done <- answer{res, err}
		}()
		select {
		case a := <-done:
			cancel()
			t.Fatalf("%s: unbounded search %+v answered %+v, %v before it was stopped", s.Name, lim, a.res, a.err)
		case <-time.After(100 * time.Millisecond):
		}
		cancel()
		select {
		case a := <-done:
			if a.err != nil {
				t.Fatalf("%s: stopped search %+v: %v", s.Name, lim, a.err)
			}
			CheckLegal(t, pos, a.res.Move)
			if a.res.Nodes <= 0 {
				t.Errorf("%s: stopped search reported %d nodes", s.Name, a.res.Nodes)
			}
		case <-time.After(slack):
			t.Fatalf("%s: no answer %v after stop", s.Name, slack)
		}
	}
}

// conformDeterministic: two engines with the same options give the same
// results on a short game, even when one has searched elsewhere before
// (NewGame in between); with a seed option, per seed.
func conformDeterministic(t *testing.T, s Subject) {
	seeds := []string{""}
	if s.Seeded {
		seeds = []string{"1", "2"}
	}
	for _, seed := range seeds {
		var opts map[string]string
		if seed != "" {
			opts = map[string]string{"seed": seed}
		}
		a, b := s.New(t, opts), s.New(t, opts)
		Search(t, b, engines.Position{FEN: Positions[2]}, engines.Limits{Nodes: 40})
		b.NewGame()
		if x, y := line(t, a), line(t, b); x != y {
			t.Errorf("%s seed %q: %s\nthen %s", s.Name, seed, x, y)
		}
	}
}

// line plays three moves from the start with depth and node limits and
// describes every result.
func line(t *testing.T, e engines.Engine) string {
	pos := engines.Position{}
	out := ""
	for _, lim := range []engines.Limits{{Depth: 2}, {Nodes: 30}, {Depth: 1}} {
		res := Search(t, e, pos, lim)
		out += fmt.Sprintf("%s %v d%d n%d %v; ", res.Move, res.Score, res.Depth, res.Nodes, res.PV)
		pos.Moves = append(pos.Moves, res.Move)
	}
	return out
}
