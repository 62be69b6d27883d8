package net

import "time"

// ackEntry is one ACK to send or repeat.
type ackEntry struct {
	seq      uint16
	low      bool
	fragment bool
	fragIdx  byte
	sends    uint8 // at most AckSends
	due      mono
}

// queueAck creates the ACK for a reliable message (transport.md 6.1): flags
// derived from the message, merged with an identical ACK not sent yet.
func (c *Conn) queueAck(now time.Time, m *Message) {
	a := ackEntry{seq: m.Seq, low: IsLowChannel(m.Type), fragment: m.Fragment, fragIdx: m.FragIdx, due: c.mono(now)}
	if !a.fragment {
		a.fragIdx = 0
	}
	for i := range c.acks {
		e := &c.acks[i]
		if e.seq == a.seq && e.low == a.low && e.fragment == a.fragment && e.fragIdx == a.fragIdx {
			return
		}
	}
	if len(c.acks) >= 1024 {
		// A peer that floods us with reliable messages cannot make the
		// outbox grow without bound: the oldest unsent ACK goes; its message
		// will be retransmitted and ACKed then.
		copy(c.acks, c.acks[1:])
		c.acks = c.acks[:len(c.acks)-1]
	}
	c.acks = append(c.acks, a)
}

// ackReceived removes one matching entry from the retransmit queue
// (transport.md 6.3).
func (c *Conn) ackReceived(now time.Time, m *Message) {
	ch := uint8(chGame)
	if m.Low {
		ch = chLow
	}
	for i, o := range c.inflight {
		if o.ch == ch && o.seq == m.Seq && o.fragment == m.Fragment && (!o.fragment || o.fragIdx == m.FragIdx) {
			if o.sends == 1 {
				c.rtt.sample(c.since(now, o.firstSent))
			}
			sent := o.lastSent
			copy(c.inflight[i:], c.inflight[i+1:])
			c.inflight[len(c.inflight)-1] = nil
			c.inflight = c.inflight[:len(c.inflight)-1]
			c.pool.put(o)
			c.fastRetransmit(now, sent)
			return
		}
	}
	c.Stats.AcksUnmatched++
}

// maxAckRepeats bounds the repeat queue: repeats only help when an ACK was
// lost, so under a flood of reliable messages the surplus is not repeated.
const maxAckRepeats = 4096

func (c *Conn) repeatAck(now time.Time, a ackEntry) {
	if int(a.sends) >= c.cfg.AckSends || len(c.ackRepeat)-c.ackHead >= maxAckRepeats {
		return
	}
	a.due = c.mono(now) + mono(c.cfg.AckInterval)
	c.ackRepeat = append(c.ackRepeat, a)
}

func (c *Conn) appendAck(b []byte, a *ackEntry) []byte {
	msg := Message{Type: TypeAck, Seq: a.seq, Low: a.low, Fragment: a.fragment, FragIdx: a.fragIdx}
	c.Stats.AcksOut++
	a.sends++
	return AppendMessage(b, &msg)
}
