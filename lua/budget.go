package lua

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// watchdog is the context every call into Lua runs under. gopher-lua checks
// ctx.Done() between every two VM instructions, so Done must be a plain
// field read; a fresh context.WithTimeout per call would also allocate a
// timer and a goroutine-safe context on the hot path. The watchdog instead
// re-arms one reusable time.Timer per call and only replaces its channel
// after it fired.
//
// ch is written only on the game goroutine (in arm, under mu) and read
// there without the lock by Done; the timer goroutine reads it under mu.
type watchdog struct {
	budget time.Duration

	mu       sync.Mutex
	ch       chan struct{}
	fired    bool
	armed    bool
	deadline time.Time
	timer    *time.Timer
}

func newWatchdog(budget time.Duration) *watchdog {
	w := &watchdog{budget: budget, ch: make(chan struct{})}
	w.timer = time.AfterFunc(time.Hour, w.expire)
	w.timer.Stop()
	return w
}

// arm starts the budget of one call into Lua.
func (w *watchdog) arm() {
	w.mu.Lock()
	if w.fired {
		w.ch = make(chan struct{})
		w.fired = false
	}
	w.armed = true
	w.deadline = time.Now().Add(w.budget)
	w.mu.Unlock()
	w.timer.Reset(w.budget)
}

// disarm ends the call; it reports whether the budget ran out during it.
func (w *watchdog) disarm() bool {
	w.timer.Stop()
	w.mu.Lock()
	w.armed = false
	fired := w.fired
	w.mu.Unlock()
	return fired
}

// expire runs on the timer goroutine. A late firing from an earlier call
// (Stop cannot recall a func already started) finds a deadline in the
// future and does nothing.
func (w *watchdog) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.armed && !w.fired && !time.Now().Before(w.deadline) {
		close(w.ch)
		w.fired = true
	}
}

func (w *watchdog) stop() { w.timer.Stop() }

// Deadline implements context.Context; the deadline is enforced by the
// timer, not advertised.
func (w *watchdog) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context.
func (w *watchdog) Done() <-chan struct{} { return w.ch }

// Err implements context.Context; gopher-lua turns it into the Lua error.
func (w *watchdog) Err() error {
	select {
	case <-w.ch:
		return fmt.Errorf("time budget of %v exceeded", w.budget)
	default:
		return nil
	}
}

// Value implements context.Context.
func (w *watchdog) Value(any) any { return nil }

var _ context.Context = (*watchdog)(nil)
