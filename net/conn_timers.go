package net

import "time"

// Check reports whether the peer is still alive at now: it fails after the
// receive timeout or when a reliable message has waited too long for its
// ACK.
func (c *Conn) Check(now time.Time) error {
	if now.Sub(c.lastRecv) >= c.cfg.Timeout {
		return ErrTimedOut
	}
	if len(c.inflight) > 0 && c.since(now, c.inflight[0].firstSent) >= c.cfg.UnackedTimeout {
		return ErrUnacked
	}
	return nil
}

// Tick advances timers that produce traffic on their own: the keepalive and
// reassembly expiry. Retransmissions and ACK repeats are picked up by Flush.
func (c *Conn) Tick(now time.Time) {
	c.reasm.expire(now, &c.Stats)
	if c.keepalive && now.Sub(c.lastSend) >= c.cfg.Keepalive && c.qhead == len(c.queue) {
		// The keepalive counts as traffic the moment it is queued, so it
		// goes out once per idle interval however often Tick runs.
		c.enqueue(&Message{Type: TypeKeepalive}, chLow)
		c.Stats.Keepalives++
		c.lastSend = now
	}
}

// resendNow makes the in-flight low-channel message seq due at once (a
// client that repeats its connect did not get our reply).
func (c *Conn) resendNow(now time.Time, seq uint16) {
	for _, o := range c.inflight {
		if o.ch == chLow && o.seq == seq {
			o.nextSend = c.mono(now)
			c.minResend = min(c.minResend, o.nextSend)
			return
		}
	}
}

// NextDue returns when Flush will next have something to send on a timer,
// a retransmission or an ACK repeat, or the zero time when nothing waits on
// one. It may be early (Flush then sends nothing and moves it on), never
// late. What Send, Receive and Tick queue is due at once (Pending).
func (c *Conn) NextDue() time.Time {
	switch {
	case c.ackHead < len(c.ackRepeat) && len(c.inflight) > 0:
		return c.at(min(c.minResend, c.ackRepeat[c.ackHead].due))
	case c.ackHead < len(c.ackRepeat):
		return c.at(c.ackRepeat[c.ackHead].due)
	case len(c.inflight) > 0:
		return c.at(c.minResend)
	}
	return time.Time{}
}
