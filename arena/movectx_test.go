package arena

import (
	"context"
	"errors"
	"runtime"
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

// TestMoveContextAfterFunc: a function registered with AfterFunc runs once
// the move is late (or at once on a move already done), not after its stop,
// and context.AfterFunc on a move context uses it rather than starting a
// goroutine to wait for Done (the UCI client registers one every move).
func TestMoveContextAfterFunc(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := newMoveContext(parent)
	defer m.close()

	m.arm(time.Hour)
	ran := make(chan int, 3)
	stop := m.AfterFunc(func() { ran <- 1 })
	if !stop() {
		t.Fatal("stop of a registered function reported it had already run")
	}
	if stop() {
		t.Fatal("a second stop reported the function stopped again")
	}
	m.disarm()

	m.arm(time.Millisecond)
	m.AfterFunc(func() { ran <- 2 })
	select {
	case n := <-ran:
		if n != 2 {
			t.Fatalf("function %d ran, want 2 (1 was stopped)", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a late move did not run its registered function")
	}
	m.AfterFunc(func() { ran <- 3 }) // the move is already done
	select {
	case n := <-ran:
		if n != 3 {
			t.Fatalf("function %d ran, want 3", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a function registered on a done move did not run")
	}
	m.disarm()

	m.arm(time.Hour)
	before := runtime.NumGoroutine()
	stops := make([]func() bool, 100)
	for i := range stops {
		stops[i] = context.AfterFunc(m, func() {})
	}
	if n := runtime.NumGoroutine(); n >= before+len(stops) {
		t.Errorf("context.AfterFunc on the move context started goroutines: %d, %d before", n, before)
	}
	for _, s := range stops {
		s()
	}
	m.disarm()
}
