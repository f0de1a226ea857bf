package engines_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"arena/engines"
	"arena/engines/board"
	"arena/engines/heuristic"
)

func TestBenchPositionsAreValid(t *testing.T) {
	names := map[string]bool{}
	for _, bp := range engines.BenchPositions {
		if names[bp.Name] || strings.ContainsAny(bp.Name, " \t") {
			t.Errorf("bench position name %q is duplicated or has blanks", bp.Name)
		}
		names[bp.Name] = true
		p, err := board.ParseFEN(bp.FEN)
		if err != nil {
			t.Errorf("%s: %v", bp.Name, err)
			continue
		}
		var ml board.MoveList
		p.GenerateLegal(&ml)
		if ml.Len == 0 || p.FEN() != bp.FEN {
			t.Errorf("%s: %d legal moves, FEN round trip %q: want a playable position written canonically", bp.Name, ml.Len, p.FEN())
		}
	}
	if len(engines.BenchPositions) < 6 {
		t.Errorf("only %d bench positions", len(engines.BenchPositions))
	}
}

// fakeEngine answers every search with a fixed result, counting calls.
type fakeEngine struct {
	searches, newGames int
	failOn             string
}

func (f *fakeEngine) Name() string { return "fake" }
func (f *fakeEngine) NewGame()     { f.newGames++ }
func (f *fakeEngine) Close() error { return nil }
func (f *fakeEngine) Search(_ context.Context, pos engines.Position, lim engines.Limits, _ engines.InfoFunc) (engines.Result, error) {
	f.searches++
	if pos.FEN == f.failOn {
		return engines.Result{}, errors.New("engine crashed")
	}
	return engines.Result{Move: "a1a2", Depth: lim.Depth, Nodes: 1000}, nil
}

func TestRunBench(t *testing.T) {
	f := &fakeEngine{}
	var out bytes.Buffer
	sum, err := engines.RunBench(context.Background(), f, engines.Limits{Depth: 3}, &out)
	if err != nil {
		t.Fatal(err)
	}
	n := len(engines.BenchPositions)
	if f.searches != n || f.newGames != n || len(sum.Lines) != n || sum.Nodes != int64(1000*n) {
		t.Errorf("%d searches, %d new games, %d lines, %d nodes; want %d each and %d nodes", f.searches, f.newGames, len(sum.Lines), sum.Nodes, n, 1000*n)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != n+2 || !strings.HasPrefix(lines[0], "position") || !strings.HasPrefix(lines[n+1], "total") {
		t.Fatalf("output has %d lines, want a header, %d positions and a total:\n%s", len(lines), n, out.String())
	}
	if !strings.Contains(lines[1], "start") || !strings.Contains(lines[1], "1000") || !strings.Contains(lines[1], "a1a2") {
		t.Errorf("first position line %q lacks name, nodes or move", lines[1])
	}
}

func TestRunBenchErrors(t *testing.T) {
	if _, err := engines.RunBench(context.Background(), &fakeEngine{}, engines.Limits{}, &bytes.Buffer{}); err == nil {
		t.Error("unbounded limits: no error")
	}
	if _, err := engines.RunBench(context.Background(), &fakeEngine{}, engines.Limits{Infinite: true}, &bytes.Buffer{}); err == nil {
		t.Error("infinite: no error")
	}
	failing := engines.BenchPositions[1]
	_, err := engines.RunBench(context.Background(), &fakeEngine{failOn: failing.FEN}, engines.Limits{Nodes: 10}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), failing.Name) || !strings.Contains(err.Error(), "engine crashed") {
		t.Errorf("failing engine: error %v, want one naming %s and the cause", err, failing.Name)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &fakeEngine{}
	if _, err := engines.RunBench(ctx, f, engines.Limits{Depth: 1}, &bytes.Buffer{}); !errors.Is(err, context.Canceled) || f.searches != 0 {
		t.Errorf("cancelled: error %v after %d searches, want context.Canceled before any", err, f.searches)
	}
}

// TestRunBenchHeuristic runs the real engine on the whole set at a small
// depth: every position gets a legal move and a nonzero node count.
func TestRunBenchHeuristic(t *testing.T) {
	e, err := engines.New(heuristic.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := engines.RunBench(context.Background(), e, engines.Limits{Depth: 3}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range sum.Lines {
		p, _ := board.ParseFEN(l.Position.FEN)
		if _, err := p.ParseMove(l.Result.Move); err != nil || l.Result.Nodes == 0 || l.Result.Depth != 3 {
			t.Errorf("%s: result %+v (%v)", l.Position.Name, l.Result, err)
		}
	}
}
