package net

import "time"

// Loss recovery (transport.md 9 gives the stock schedule: 1 s, then +1 s
// per resend up to 5 s). Each peer's round trip is measured and the
// retransmission timeout follows it, RFC 6298 style, with the stock
// values as the start (no sample yet) and the cap; the backoff stays
// linear like the stock one, in units of the timeout. Two rules recover
// sooner than any timer: an ACK for a message sent after another that is
// still unACKed means the earlier one (or its ACK) was lost, and the first
// datagram after a silence means the link is back. Neither puts anything
// on the wire that a stock peer does not already see: retransmissions of
// unACKed messages, which it ACKs again as duplicates.

// rtoGranularity is G of RFC 6298: the loop that flushes ACKs wakes at
// this resolution, so no timeout is shorter than the round trip plus it.
const rtoGranularity = 10 * time.Millisecond

// linkGap is the silence after which the first datagram from a peer makes
// every unACKed message due at once: a blackout that outlived the backoff
// must not leave the backlog waiting for the next (up to 5 s) timer.
const linkGap = time.Second

// rttEstimator smooths round-trip samples the way TCP does (RFC 6298:
// SRTT = 7/8 SRTT + 1/8 R, RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|). A
// sample is the time from the first send of a reliable message to its ACK;
// a retransmitted message gives none, since its ACK may answer either copy
// (Karn's rule).
type rttEstimator struct {
	srtt, rttvar time.Duration
	last         time.Duration
	samples      uint64
}

func (r *rttEstimator) sample(d time.Duration) {
	if d < 0 {
		return
	}
	r.last = d
	r.samples++
	if r.samples == 1 {
		r.srtt, r.rttvar = d, d/2
		return
	}
	diff := r.srtt - d
	if diff < 0 {
		diff = -diff
	}
	r.rttvar += (diff - r.rttvar) / 4
	r.srtt += (d - r.srtt) / 8
}

// RTT returns the smoothed round-trip time and the number of samples it
// rests on (0: no reliable message was ACKed on its first send yet).
func (c *Conn) RTT() (smoothed time.Duration, samples uint64) { return c.rtt.srtt, c.rtt.samples }

// LastRTT returns the latest round-trip sample (0 before the first).
func (c *Conn) LastRTT() time.Duration { return c.rtt.last }

// RTO returns the current retransmission timeout: the stock first interval
// until the first sample, then SRTT + max(G, 4·RTTVAR), kept between
// RTOMin and the stock cap ResendMax.
func (c *Conn) RTO() time.Duration {
	if c.rtt.samples == 0 || c.cfg.FixedResend {
		return c.cfg.ResendFirst
	}
	d := c.rtt.srtt + max(rtoGranularity, 4*c.rtt.rttvar)
	return min(max(d, c.cfg.RTOMin), c.cfg.ResendMax)
}

// resendInterval is the wait after the n-th send of a reliable message:
// linear backoff from the timeout, capped at ResendMax. With no sample yet
// it is the stock schedule 1, 2, 3, 4, 5, 5 ... s (transport.md 9).
func (c *Conn) resendInterval(n int) time.Duration {
	rto := c.RTO()
	step := rto
	if c.rtt.samples == 0 || c.cfg.FixedResend {
		step = c.cfg.ResendStep
	}
	return min(rto+time.Duration(n-1)*step, c.cfg.ResendMax)
}

// fastRetransmit runs when an ACK arrives for a message last sent at sent:
// every message still unACKed that was last sent in an earlier datagram has
// been overtaken, so it is lost (or its ACK is), and goes again after a
// small allowance for reordering instead of waiting for its timer.
func (c *Conn) fastRetransmit(now time.Time, sent mono) {
	if c.cfg.FixedResend || len(c.inflight) == 0 {
		return
	}
	due := c.mono(now) + mono(min(c.rtt.srtt/8, 20*time.Millisecond))
	for _, o := range c.inflight {
		if o.lastSent < sent && o.nextSend > due {
			o.nextSend = due
			c.Stats.FastRetransmits++
			c.minResend = min(c.minResend, due)
		}
	}
}

// heard records a datagram from the peer at now. After a silence of
// linkGap (and longer than the timeout), everything unACKed is due at
// once and its backoff starts over: the link is back.
func (c *Conn) heard(now time.Time) {
	gap := now.Sub(c.lastRecv)
	c.lastRecv = now
	if c.cfg.FixedResend || len(c.inflight) == 0 || gap < max(linkGap, c.RTO()) {
		return
	}
	at := c.mono(now)
	for _, o := range c.inflight {
		o.backoff = 0
		o.nextSend = min(o.nextSend, at)
	}
	c.minResend = at
	c.Stats.LinkReturns++
}

// RTT returns the peer's smoothed round-trip time and its sample count.
func (p *Peer) RTT() (time.Duration, uint64) { return p.conn.RTT() }
