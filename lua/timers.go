package lua

import (
	"fmt"
	"math"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/internal/timeq"
)

// A mission's timers live in its own heap, run by the host once per tick
// (Options.TickInterval) from a single engine timer. Owning them here
// means a cancelled timer is gone at once (the engine's heap would keep it
// until its due time), a version's timers die with its state, the count
// is bounded, and timers share the tick budget with the handlers: due
// timers the budget cannot take wait for the next tick, none is dropped.
// A timer fires on the first tick at or after its due time.

// luaTimer is what a mission timer does when it comes due.
type luaTimer struct {
	id   int
	fn   *glua.LFunction // bc.after / bc.every
	name string          // bc.timer: raises the timer event
}

type luaTimers struct {
	q    timeq.Queue[*luaTimer]
	byID map[int]*timeq.Timer[*luaTimer]
	next int
}

func (t *luaTimers) init() {
	t.q.Reset()
	t.byID = make(map[int]*timeq.Timer[*luaTimer])
}

func (t *luaTimers) add(at time.Time, every time.Duration, tm *luaTimer) int {
	t.next++
	tm.id = t.next
	t.byID[tm.id] = t.q.Add(at, every, tm)
	return tm.id
}

func (t *luaTimers) cancel(id int) bool {
	tm, ok := t.byID[id]
	if !ok {
		return false
	}
	delete(t.byID, id)
	return t.q.Remove(tm)
}

// due pops (or reschedules) the earliest timer due at now.
func (t *luaTimers) due(now time.Time) *luaTimer {
	tm := t.q.Due(now)
	if tm == nil {
		return nil
	}
	if tm.Every <= 0 {
		delete(t.byID, tm.Value.id)
	}
	return tm.Value
}

// runTimers runs the running mission's due timers, once per tick.
func (h *Runtime) runTimers() {
	h.logs.flush(h.log)
	h.errLogs.flush(h.log)
	m := h.cur
	if m == nil || m.timers.q.Len() == 0 {
		return
	}
	now := h.eng.Now()
	// Timers made by these callbacks wait for the next tick: a callback
	// that re-arms itself with bc.after(0) cannot spin here.
	for n := m.timers.q.Len(); n > 0; n-- {
		if h.tickBudgetLeft() <= 0 {
			h.skipped(m, "timer")
			break
		}
		tm := m.timers.due(now)
		if tm == nil {
			break
		}
		if tm.fn != nil {
			m.call("timer", tm.fn, glua.LNil)
		} else {
			id, name := tm.id, tm.name
			m.emit(EvTimer, func(L *glua.LState) *glua.LTable {
				t := L.CreateTable(0, 2)
				t.RawSetString("name", glua.LString(name))
				t.RawSetString("id", glua.LNumber(id))
				return t
			})
		}
		if h.cur != m || m.closed {
			return
		}
	}
	h.settle(m)
}

// checkDelay reads a timer's delay or period in seconds.
func (m *mission) checkDelay(L *glua.LState, n int, what string, repeat bool) time.Duration {
	s := float64(L.CheckNumber(n))
	if math.IsNaN(s) || s < 0 || s > 365*24*3600 {
		L.ArgError(n, "seconds must be 0..31536000")
	}
	d := time.Duration(s * float64(time.Second))
	if repeat && d < m.h.opts.MinPeriod {
		L.ArgError(n, fmt.Sprintf("%s: a period of %gs is shorter than the minimum of %gs", what, s, m.h.opts.MinPeriod.Seconds()))
	}
	return d
}

func (m *mission) addTimer(L *glua.LState, what string, d time.Duration, repeat bool, tm *luaTimer) int {
	if m.timers.q.Len() >= m.h.opts.MaxTimers {
		L.RaiseError("%s: the mission already has %d timers, the most it may have (cancel some with bc.cancel)", what, m.h.opts.MaxTimers)
	}
	var every time.Duration
	if repeat {
		every = d
	}
	return m.timers.add(m.h.eng.Now().Add(d), every, tm)
}

// timer is bc.after(seconds, fn) / bc.every(seconds, fn): a callback on
// the game goroutine, cancelled with bc.cancel(id) and when the mission is
// unloaded or reloaded (a new version sets its own timers up again).
func (m *mission) timer(L *glua.LState, repeat bool) int {
	what := "bc.after"
	if repeat {
		what = "bc.every"
	}
	d := m.checkDelay(L, 1, what, repeat)
	fn := L.CheckFunction(2)
	L.Push(glua.LNumber(m.addTimer(L, what, d, repeat, &luaTimer{fn: fn})))
	return 1
}

// namedTimer is bc.timer(name, seconds[, repeat]): raises the "timer"
// event with {name = name} instead of calling a closure.
func (m *mission) namedTimer(L *glua.LState) int {
	name := L.CheckString(1)
	repeat := L.ToBool(3)
	d := m.checkDelay(L, 2, "bc.timer", repeat)
	L.Push(glua.LNumber(m.addTimer(L, "bc.timer", d, repeat, &luaTimer{name: name})))
	return 1
}

func (m *mission) cancelTimer(L *glua.LState) int {
	L.Push(glua.LBool(m.timers.cancel(int(L.CheckNumber(1)))))
	return 1
}
