package arena

import (
	"context"
	"slices"
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
	afters   []afterFunc // AfterFunc's, run when m is done
	lastID   uint64
}

// afterFunc is a function AfterFunc runs when the context is done.
type afterFunc struct {
	id uint64
	f  func()
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
		for _, a := range m.afters {
			go a.f()
		}
		m.afters = m.afters[:0]
	}
}

// AfterFunc runs f in a goroutine of its own once m is done, as
// context.AfterFunc does, until stop is called. context.AfterFunc(m, f)
// calls it, and so does the UCI client's search, which wakes its read
// of the engine's output so (engines/uci/lines.go). Without it,
// context.AfterFunc on a context of a type of its own starts a goroutine
// per call to wait for Done: a goroutine started and ended every move,
// 8% of the arena's CPU in games of a few milliseconds a move.
func (m *moveContext) AfterFunc(f func()) (stop func() bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		go f()
		return func() bool { return false }
	}
	m.lastID++
	id := m.lastID
	m.afters = append(m.afters, afterFunc{id, f})
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		for i, a := range m.afters {
			if a.id == id {
				m.afters = slices.Delete(m.afters, i, i+1)
				return true
			}
		}
		return false
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
