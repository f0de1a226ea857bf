package arena

import (
	"context"
	"sync"
	"time"
)

// moveContext is the context of a game's moves: made once per game and
// armed with each move's deadline in turn. A context.WithTimeout per move
// allocated a context, a timer and a done channel, and registered the
// child with its parent and removed it again, on every move: in games of
// a few milliseconds a move, 6-8% of the arena's own CPU profile
// (docs/reference.md, "The arena's own cost, beside fastchess"). Here a
// move costs a timer's Reset and Stop. As WithTimeout's context, it is
// done with context.DeadlineExceeded once the armed move's deadline has
// passed, or with the parent's error once the parent is done.
type moveContext struct {
	parent     context.Context
	timer      *time.Timer
	stopParent func() bool

	mu       sync.Mutex
	deadline time.Time // the armed move's; zero between moves
	done     chan struct{}
	err      error
}

// newMoveContext returns parent's move context; close releases it.
func newMoveContext(parent context.Context) *moveContext {
	m := &moveContext{parent: parent, done: make(chan struct{})}
	m.timer = time.AfterFunc(time.Hour, m.expire)
	m.timer.Stop()
	m.stopParent = context.AfterFunc(parent, func() { m.cancel(parent.Err()) })
	return m
}

// arm starts a move that must end within d.
func (m *moveContext) arm(d time.Duration) {
	m.mu.Lock()
	if m.err != nil {
		if err := m.parent.Err(); err != nil {
			m.err = err // stays done, now with the parent's reason
		} else { // the last move ran late: this one starts afresh
			m.done, m.err = make(chan struct{}), nil
		}
	}
	m.deadline = time.Now().Add(d)
	m.mu.Unlock()
	m.timer.Reset(d)
}

// disarm ends the armed move.
func (m *moveContext) disarm() {
	m.timer.Stop()
	m.mu.Lock()
	m.deadline = time.Time{}
	m.mu.Unlock()
}

// expire is the timer's: the armed move is late. A callback that was
// already running when its move was disarmed finds no deadline, or the
// next move's, not yet passed (the timer is set after the deadline is
// taken, so it never fires before it), and does nothing.
func (m *moveContext) expire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.deadline.IsZero() || time.Now().Before(m.deadline) {
		return
	}
	m.cancelLocked(context.DeadlineExceeded)
}

func (m *moveContext) cancel(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cancelLocked(err)
}

func (m *moveContext) cancelLocked(err error) {
	if m.err == nil {
		m.err = err
		close(m.done)
	}
}

// close releases the timer and the parent's hold on m.
func (m *moveContext) close() {
	m.stopParent()
	m.timer.Stop()
}

// Deadline is the armed move's deadline, or the parent's if earlier.
func (m *moveContext) Deadline() (time.Time, bool) {
	m.mu.Lock()
	d := m.deadline
	m.mu.Unlock()
	pd, ok := m.parent.Deadline()
	if d.IsZero() || (ok && pd.Before(d)) {
		return pd, ok
	}
	return d, true
}

func (m *moveContext) Done() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.done
}

func (m *moveContext) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

func (m *moveContext) Value(key any) any { return m.parent.Value(key) }
