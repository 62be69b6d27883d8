package net

import "time"

// The game loop sleeps until a datagram arrives or the transport next has
// something to do on a timer (NextDue), instead of polling: an idle host
// costs no wake-ups of its own.

// earlier returns the earlier of a and b, where the zero time means "none".
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// NextDue returns when Tick or Flush next has work on a timer for any
// peer: a retransmission, an ACK repeat, a keepalive, a timeout, the
// expiry of a fragmented message, the end of a booted peer's linger or of
// an unverified peer's wait; the zero time when nothing waits on one.
// Anything queued to send is due at once (Flush is called after every
// batch anyway). It may be early, never late: the caller then runs Tick
// and Flush for nothing and asks again.
func (h *Host) NextDue(now time.Time) time.Time {
	var t time.Time
	for _, p := range h.list {
		t = earlier(t, h.peerDue(now, p))
	}
	return t
}

func (h *Host) peerDue(now time.Time, p *Peer) time.Time {
	c := p.conn
	if c.qhead < len(c.queue) || len(c.acks) > 0 {
		return now
	}
	t := c.NextDue()
	if p.closing {
		return earlier(t, p.closeBy)
	}
	t = earlier(t, c.timerDue())
	if !p.verified {
		t = earlier(t, p.since.Add(h.cfg.VerifyTimeout))
	}
	return t
}

// timerDue returns when Tick or Check next acts on their own: the
// keepalive, the receive and ACK timeouts, the expiry of a fragmented
// message.
func (c *Conn) timerDue() time.Time {
	t := c.lastRecv.Add(c.cfg.Timeout)
	if len(c.inflight) > 0 {
		t = earlier(t, c.at(c.inflight[0].firstSent).Add(c.cfg.UnackedTimeout))
	}
	if c.keepalive {
		t = earlier(t, c.lastSend.Add(c.cfg.Keepalive))
	}
	for _, r := range c.reasm.list {
		t = earlier(t, r.started.Add(c.cfg.ReassemblyTTL))
	}
	return t
}
