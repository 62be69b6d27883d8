package engine

import "time"

// NextDeadline returns the earliest time anything in the game is due
// without a datagram arriving: the next tick of the grid, an engine or
// mission timer, a handshake deadline, or the transport's next
// retransmission, ACK repeat, keepalive or timeout (Host.NextDue). The
// server loop sleeps until then; Advance at that time does the work. It
// may be early (Advance then finds less to do), never late.
func (g *Game) NextDeadline(now time.Time) time.Time {
	t := g.nextTick
	t = earlier(t, g.timers.q.Next())
	for _, p := range g.bySlot {
		if p != nil && !p.InGame() && !p.deadline.IsZero() {
			t = earlier(t, p.deadline)
		}
	}
	return earlier(t, g.host.NextDue(now))
}

// earlier returns the earlier of a and b, where the zero time means "none".
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// firstRun is when a timer added at now with period every first runs. A
// period of whole ticks starts on the tick grid, at the first tick at or
// after now+every: such timers (a mission's timer scan every tick, the
// once-a-second plugins) then share the tick's wake-up instead of each
// waking an idle server on its own phase. Other timers run at now+every.
func (g *Game) firstRun(now time.Time, every time.Duration) time.Time {
	at := now.Add(every)
	interval := g.cfg.TickInterval
	if interval <= 0 || every%interval != 0 || g.nextTick.IsZero() {
		return at
	}
	if !at.After(g.nextTick) {
		return g.nextTick
	}
	k := (at.Sub(g.nextTick) + interval - 1) / interval
	return g.nextTick.Add(k * interval)
}
