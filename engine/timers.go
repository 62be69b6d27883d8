package engine

import (
	"time"

	"github.com/bcserver/bcserver/internal/timeq"
)

// timers are the engine timers run by the game goroutine.
type timers struct{ q timeq.Queue[func()] }

// add queues fn at at (repeating every every if > 0) and returns its
// cancel function, which takes it out of the queue at once.
func (t *timers) add(at time.Time, every time.Duration, fn func()) func() {
	tm := t.q.Add(at, every, fn)
	return func() { t.q.Remove(tm) }
}

// run fires every timer due at now; a repeating timer that fell far behind
// fires once and is rescheduled from now, not once per missed period.
func (t *timers) run(now time.Time) {
	for i := 0; i < 10000; i++ {
		tm := t.q.Due(now)
		if tm == nil {
			return
		}
		tm.Value()
	}
}
