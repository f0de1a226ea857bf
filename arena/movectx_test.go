package arena

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestMoveContext: a move's context is done with DeadlineExceeded when its
// deadline passes, the next move starts afresh, a move disarmed in time is
// never cancelled (not even by a timer that fires later), and the parent's
// cancellation reaches it with the parent's error.
func TestMoveContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	m := newMoveContext(parent)
	defer m.close()

	m.arm(time.Millisecond)
	select {
	case <-m.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a move past its deadline was not cancelled")
	}
	if !errors.Is(m.Err(), context.DeadlineExceeded) {
		t.Fatalf("late move: Err = %v, want DeadlineExceeded", m.Err())
	}
	m.disarm()

	m.arm(time.Hour)
	if m.Err() != nil {
		t.Fatalf("the move after a late one starts cancelled: %v", m.Err())
	}
	if d, ok := m.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Fatalf("Deadline = %v, %v; want about an hour from now", d, ok)
	}
	done := m.Done()
	m.disarm()
	// A move disarmed in time: its timer, had it fired, finds no deadline.
	m.expire()
	m.arm(time.Hour)
	m.expire() // a stale callback during the next move: its deadline is ahead
	select {
	case <-done:
		t.Fatal("a move disarmed in time, or one whose deadline is ahead, was cancelled")
	default:
	}
	if m.Done() != done {
		t.Fatal("a move that was not late got a new done channel")
	}

	cancel()
	select {
	case <-m.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the parent's cancellation did not reach the move")
	}
	if !errors.Is(m.Err(), context.Canceled) {
		t.Fatalf("after the parent's cancellation: Err = %v, want Canceled", m.Err())
	}
	m.disarm()
	m.arm(time.Hour)
	if !errors.Is(m.Err(), context.Canceled) {
		t.Fatalf("a move armed after the parent's cancellation: Err = %v, want Canceled", m.Err())
	}
}

// TestMoveContextAllocatesNothing: arming and disarming a move allocates
// nothing (a context.WithTimeout per move allocated several objects).
func TestMoveContextAllocatesNothing(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newMoveContext(parent)
	defer m.close()
	allocs := testing.AllocsPerRun(100, func() {
		m.arm(time.Hour)
		if m.Done() == nil || m.Err() != nil {
			t.Fatal("an armed move has no done channel, or is done")
		}
		m.disarm()
	})
	if allocs != 0 {
		t.Fatalf("a move allocated %v times, want 0", allocs)
	}
}
