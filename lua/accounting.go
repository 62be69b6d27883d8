package lua

import (
	"fmt"
	"time"

	"github.com/bcserver/bcserver/lua/sandbox"
)

// Budgets per tick. All of a mission's calls in one tick of TickInterval
// (on the engine's clock) share TickBudget; each call is also bounded by
// Budget. A call that runs out is stopped with an error naming the budget;
// handlers and timers due after the tick's budget is spent are not run
// (timers wait for the next tick). A mission that overruns in MaxOverruns
// ticks, or fails MaxErrors times, within ErrorWindow is suspended.

// tickKey numbers the tick the engine clock is in.
func (h *Runtime) tickKey() int64 {
	return h.eng.Now().UnixNano() / int64(h.opts.TickInterval)
}

func (h *Runtime) syncTick() {
	if k := h.tickKey(); k != h.tick {
		h.tick = k
		h.tickSpent = 0
	}
}

// tickBudgetLeft is what the current tick still allows.
func (h *Runtime) tickBudgetLeft() time.Duration {
	h.syncTick()
	return h.opts.TickBudget - h.tickSpent
}

func (h *Runtime) budgetMessage(k sandbox.Kind, limit time.Duration) string {
	switch k {
	case sandbox.KindLoad:
		return fmt.Sprintf("time budget exceeded: loading may take %v per call, %v in all", h.opts.LoadBudget, loadCalls*h.opts.LoadBudget)
	case sandbox.KindTick:
		return fmt.Sprintf("time budget exceeded: the mission's calls this tick took its %v tick budget", h.opts.TickBudget)
	}
	return fmt.Sprintf("time budget exceeded: one call may take %v", limit)
}

// loadCalls is how many load budgets a whole load may take: each call
// (main.lua, an addon, one mission_load handler) gets LoadBudget, but the
// game loop waits for all of them, and a mission may have hundreds of
// handlers.
const loadCalls = 4

// callBudget is the limit of the next outermost call of m.
func (h *Runtime) callBudget(m *mission) (time.Duration, sandbox.Kind, error) {
	if m.building {
		left := loadCalls*h.opts.LoadBudget - m.loadTime
		if left <= 0 {
			return 0, 0, &luaError{overrun: true, msg: fmt.Sprintf("not run: loading took %v in all, the most it may (%d × the load budget)", m.loadTime.Round(time.Millisecond), loadCalls)}
		}
		return min(left, h.opts.LoadBudget), sandbox.KindLoad, nil
	}
	left := h.tickBudgetLeft()
	if left <= 0 {
		return 0, 0, &luaError{overrun: true, msg: fmt.Sprintf("not run: the mission used its tick budget of %v", h.opts.TickBudget)}
	}
	if left < h.opts.Budget {
		return left, sandbox.KindTick, nil
	}
	return h.opts.Budget, sandbox.KindCall, nil
}

// spend charges a finished call to the tick, or to the load (loading is
// not a tick's work: a reload runs between ticks).
func (h *Runtime) spend(m *mission, d time.Duration) {
	if m.building {
		m.loadTime += d
		return
	}
	h.tickSpent += d
}

// now is bc.clock's time: the engine's clock plus the time the mission's
// calls took so far this tick, so it advances inside a call.
func (h *Runtime) now(m *mission) time.Time {
	t := h.eng.Now()
	if !m.building {
		h.syncTick()
		t = t.Add(h.tickSpent)
	}
	return t.Add(m.meter.Elapsed())
}

// skipped reports work not run because the tick budget is spent.
func (h *Runtime) skipped(m *mission, what string) {
	msg := "mission tick budget used up; " + what + " deferred to the next tick"
	h.reportError(MissionError{Version: m.version, Kind: ErrDeferred, Callback: what, Err: msg}, slogWarn, true, msg, "version", m.version, "budget", h.opts.TickBudget)
	h.count(m, &luaError{overrun: true})
}

// count records a failure of m and marks it for suspension when it fails
// too often.
func (h *Runtime) count(m *mission, le *luaError) {
	now := h.eng.Now()
	prune := func(ts []time.Time) []time.Time {
		keep := ts[:0]
		for _, t := range ts {
			if now.Sub(t) < h.opts.ErrorWindow {
				keep = append(keep, t)
			}
		}
		return keep
	}
	switch {
	case le != nil && le.memory:
		// Still over the limit once the call is gone (the data is kept,
		// not garbage): every further call would fail the same way.
		if err := m.mem.Measure(); err != nil && m.failed == "" {
			m.failed = fmt.Sprintf("suspended: %v", err)
		}
	case le != nil && le.overrun:
		k := h.tickKey()
		if k == h.overrunTick {
			return // one overrun per tick, however many handlers it stopped
		}
		h.overrunTick = k
		m.overruns = append(prune(m.overruns), now)
		if len(m.overruns) >= h.opts.MaxOverruns && m.failed == "" {
			m.failed = fmt.Sprintf("suspended after overrunning its time budget in %d ticks within %v", len(m.overruns), h.opts.ErrorWindow)
		}
	default:
		m.errs = append(prune(m.errs), now)
		if len(m.errs) >= h.opts.MaxErrors && m.failed == "" {
			m.failed = fmt.Sprintf("suspended after %d errors within %v", len(m.errs), h.opts.ErrorWindow)
		}
	}
}

// settle suspends m if it failed too often, once no call into it runs.
func (h *Runtime) settle(m *mission) {
	if m.failed != "" && m.depth == 0 && !m.building {
		h.suspend(m)
	}
}

// suspend stops a mission that keeps failing. The game goes on without
// it (no scoring); its storage waits for the next version, which a reload
// (a saved file, SIGHUP) loads.
func (h *Runtime) suspend(m *mission) {
	if h.cur != m {
		return
	}
	h.kept = h.carry(m)
	h.pause(m)
	m.close()
	h.cur = nil
	h.syncDamageRule() // a suspended mode's rule deals nothing
	h.unlisten()
	msg := fmt.Sprintf("mission %q %s; fix it and save to reload", h.opts.Mode, m.failed)
	h.reportError(MissionError{Version: h.version, Kind: ErrSuspended, Err: m.failed}, slogError, false, msg, "version", h.version)
	h.tell(suspendedText)
}

// What players read in chat when the mission stops and when it is back:
// the host's log has the why and the how (suspend's message).
const (
	suspendedText = "The game mode stopped after errors. Play on: scores are not kept until the host fixes it."
	resumedText   = "The game mode is running again."
)
