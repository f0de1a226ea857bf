package engines

import (
	"context"
	"testing"
	"time"
)

func TestStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := NewStop(ctx, time.Now(), Limits{Nodes: 10}, 0)
	if s.NodesSpent(9) || !s.NodesSpent(10) || s.Check(9) || !s.Check(10) {
		t.Fatal("node budget of 10: spent at 9 or not at 10")
	}
	if s.Interrupted() {
		t.Fatal("interrupted before cancel and without a time limit")
	}
	cancel()
	if !s.Interrupted() || !s.Check(0) {
		t.Fatal("not interrupted after the context was cancelled")
	}

	unlimited := NewStop(context.Background(), time.Now(), Limits{}, 0)
	if unlimited.NodesSpent(1<<62) || unlimited.Interrupted() {
		t.Fatal("a stop without limits stopped")
	}
	// A start in the past: the time limit has passed, whatever the clock.
	late := NewStop(context.Background(), time.Now().Add(-time.Hour), Limits{}, time.Minute)
	if !late.Interrupted() {
		t.Fatal("not interrupted an hour into a one-minute limit")
	}
}

func TestUnbounded(t *testing.T) {
	for _, c := range []struct {
		lim  Limits
		want bool
	}{
		{Limits{}, true},
		{Limits{Infinite: true}, true},
		{Limits{Infinite: true, Depth: 3}, true},
		{Limits{MovesToGo: 5, WInc: time.Second}, true}, // no clock, only its details
		{Limits{Depth: 1}, false},
		{Limits{Nodes: 1}, false},
		{Limits{MoveTime: time.Millisecond}, false},
		{Limits{BTime: time.Second}, false},
	} {
		if got := c.lim.Unbounded(); got != c.want {
			t.Errorf("%+v.Unbounded() = %v, want %v", c.lim, got, c.want)
		}
	}
}
