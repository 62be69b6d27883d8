package net

import "time"

// Check reports whether the peer is still alive at now: it fails after the
// receive timeout or when a reliable message has waited too long for its
// ACK.
func (c *Conn) Check(now time.Time) error {
	if now.Sub(c.lastRecv) >= c.cfg.Timeout {
		return ErrTimedOut
	}
	if len(c.inflight) > 0 && now.Sub(c.inflight[0].firstSent) >= c.cfg.UnackedTimeout {
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
		m := c.get()
		*m = outMsg{}
		m.data = append(m.storage[:0], TypeKeepalive)
		c.queue = append(c.queue, m)
		c.Stats.Keepalives++
		c.lastSend = now
	}
}

// resendNow makes the in-flight low-channel message seq due at once (a
// client that repeats its connect did not get our reply).
func (c *Conn) resendNow(now time.Time, seq uint16) {
	for _, o := range c.inflight {
		if o.ch == chLow && o.seq == seq {
			o.nextSend = now
			if now.Before(c.minResend) {
				c.minResend = now
			}
			return
		}
	}
}

// resendInterval is the wait after the n-th send of a reliable message:
// 1 s, then linear backoff by 1 s up to 5 s (transport.md 9).
func (c *Conn) resendInterval(sends int) time.Duration {
	d := c.cfg.ResendFirst + time.Duration(sends-1)*c.cfg.ResendStep
	return min(d, c.cfg.ResendMax)
}
