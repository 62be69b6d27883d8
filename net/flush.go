package net

import "time"

// ackEarly: an ACK repeat may leave AckInterval/ackEarly (a quarter, 167
// ms of the stock 667) before it is due in a datagram that goes anyway.
// The repeats only cover a lost ACK before the peer's retransmission (1 s
// at the earliest), which they still precede.
const ackEarly = 4

// Pending reports whether Flush at now would produce a datagram.
func (c *Conn) Pending(now time.Time) bool {
	if c.qhead < len(c.queue) {
		return true
	}
	n := c.mono(now)
	if len(c.acks) > 0 || (c.ackHead < len(c.ackRepeat) && n >= c.ackRepeat[c.ackHead].due) {
		return true
	}
	if len(c.inflight) > 0 && n >= c.minResend {
		for _, o := range c.inflight {
			if n >= o.nextSend {
				return true
			}
		}
	}
	return false
}

// Flush builds the next datagram to send into out (whose capacity should
// be at least MaxDatagram) and returns it, or nil when there is nothing to
// send. Order: due ACKs, due retransmissions (oldest first), new messages;
// never more than 512 bytes or 255 messages (transport.md 8). Call it until
// it returns nil to send everything that is due.
func (c *Conn) Flush(now time.Time, out []byte) []byte {
	b := append(out[:0], c.LocalID, 0)
	count := 0
	fits := func(n int) bool { return len(b)+n <= MaxDatagram && count < MaxMessages }

	// 1. New ACKs, then repeats that are due (transport.md 6.2: each ACK at
	// most AckSends times, AckInterval apart). A repeat rides along up to
	// ackEarly before it is due when the datagram goes anyway (as the stock
	// sender adds older ACKs to a datagram holding something else): under
	// a light load it otherwise cost a wake-up and a datagram of its own,
	// since the next one to the peer rarely leaves just after it is due.
	at := c.mono(now)
	carrier := len(c.acks) > 0 || c.qhead < len(c.queue) || len(c.inflight) > 0 && at >= c.minResend
	early := at + mono(c.cfg.AckInterval/ackEarly)
	sent := 0
	for _, a := range c.acks {
		if !fits(5) {
			break
		}
		b = c.appendAck(b, &a)
		count++
		sent++
		c.repeatAck(now, a)
	}
	n := copy(c.acks, c.acks[sent:])
	c.acks = c.acks[:n]
	for c.ackHead < len(c.ackRepeat) {
		a := c.ackRepeat[c.ackHead]
		if at < a.due && (!carrier || early < a.due) || !fits(5) {
			break
		}
		c.ackHead++
		b = c.appendAck(b, &a)
		count++
		c.repeatAck(now, a)
	}
	if c.ackHead == len(c.ackRepeat) {
		c.ackRepeat, c.ackHead = c.ackRepeat[:0], 0
	} else if c.ackHead >= 16 && 2*c.ackHead >= len(c.ackRepeat) {
		// Compacting once half the queue is spent keeps it about twice
		// the live repeats (a steady peer's queue never empties) at an
		// amortised copy of one entry per pop.
		n := copy(c.ackRepeat, c.ackRepeat[c.ackHead:])
		c.ackRepeat, c.ackHead = c.ackRepeat[:n], 0
	}

	// 2. Retransmissions that are due, oldest first.
	if len(c.inflight) > 0 && at >= c.minResend {
		next := c.inflight[0].nextSend
		for _, o := range c.inflight {
			if at >= o.nextSend && fits(len(o.data)) {
				b = append(b, o.data...)
				count++
				c.Stats.Retransmits++
				o.sends++
				o.backoff++
				o.lastSent = at
				o.nextSend = at + mono(c.resendInterval(int(o.backoff)))
			}
			next = min(next, o.nextSend)
		}
		c.minResend = next
	}

	// 3. New messages in queue order.
	for c.qhead < len(c.queue) {
		o := c.queue[c.qhead]
		if !fits(len(o.data)) {
			break
		}
		b = append(b, o.data...)
		count++
		c.queue[c.qhead] = nil
		c.qhead++
		if o.reliable {
			o.firstSent, o.lastSent = at, at
			o.sends, o.backoff = 1, 1
			o.nextSend = at + mono(c.resendInterval(1))
			if len(c.inflight) == 0 || o.nextSend < c.minResend {
				c.minResend = o.nextSend
			}
			c.inflight = append(c.inflight, o)
		} else {
			c.pool.put(o)
		}
	}
	if c.qhead == len(c.queue) {
		c.queue = c.queue[:0]
		c.qhead = 0
	} else if c.qhead > 64 && c.qhead > len(c.queue)/2 {
		n := copy(c.queue, c.queue[c.qhead:])
		clear(c.queue[n:])
		c.queue = c.queue[:n]
		c.qhead = 0
	}

	if count == 0 {
		return nil
	}
	b[1] = byte(count)
	c.Stats.DatagramsOut++
	c.Stats.MessagesOut += uint64(count)
	c.lastSend = now
	return b
}
