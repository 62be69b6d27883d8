package net

import (
	"errors"
	"fmt"
	"time"
)

// Errors from Conn.
var (
	ErrTooLarge  = errors.New("message too large")
	ErrQueueFull = errors.New("send queue full")
	ErrTimedOut  = errors.New("peer timed out")
	ErrUnacked   = errors.New("reliable message unacknowledged too long")
	ErrBadPeerID = fmt.Errorf("datagram peer id does not match the sender: %w", ErrMalformed)
)

// Receiver gets the messages a Conn delivers, in order per channel.
// payload is valid only during the call.
type Receiver interface {
	// Deliver is called for every message the transport hands upward: game
	// messages (typ 0x32) and low-channel messages (typ < 0x32).
	Deliver(typ byte, payload []byte, reliable bool)
}

// outMsg is one encoded transport message waiting to be sent or ACKed.
type outMsg struct {
	ch       uint8
	reliable bool
	fragment bool
	fragIdx  byte
	class    int8 // pool size class, -1 for none
	seq      uint16
	sends    int32 // times sent
	backoff  int32 // sends since the backoff was last reset (link return)
	// firstSent and lastSent time the RTT samples and the fast
	// retransmission; nextSend is when it goes again without an ACK.
	firstSent, lastSent, nextSend mono
	data                          []byte // the encoded message
}

// held is a reliable message received ahead of a gap, or a completed
// fragmented message waiting for its turn.
type held struct {
	typ     byte
	payload []byte
	at      time.Time // when it arrived
}

// Conn is the reliable-transport state of one peer pair, seen from our
// side. It is a pure state machine: Receive takes decrypted datagrams,
// Flush produces plaintext datagrams, Tick advances timers. A Conn is not
// safe for concurrent use; one goroutine owns it.
type Conn struct {
	cfg     Config
	LocalID byte // byte 0 of every datagram we send

	sendSeq [2]uint16
	recvSeq [2]uint16

	pool     *msgPool
	queue    []*outMsg // new messages, FIFO
	qhead    int
	inflight []*outMsg // sent reliable messages awaiting ACK, oldest first
	// ACKs not sent yet, and ACKs waiting to be repeated. Every repeat is
	// queued with due = now + AckInterval, so the repeat queue stays in due
	// order and Flush only looks at its head.
	acks      []ackEntry
	ackRepeat []ackEntry
	ackHead   int
	// minResend is no later than the earliest retransmission time in
	// inflight, so Flush skips the scan until then.
	minResend mono
	// epoch is the origin of the Conn's mono times.
	epoch time.Time

	pending [2]map[uint16]held // reorder buffers per channel
	// deliveredAt is DeliveredAt of the message being delivered; per
	// reliable channel, of the last message delivered on it: when it
	// arrived, when it would have (a lost one's reckoning, DeliveredAt),
	// and its DeliveredAt.
	deliveredAt  time.Time
	arrived      [2]time.Time
	reckoned     [2]time.Time
	earliest     [2]time.Time
	pendingBytes int
	reasm        reassembler

	keepalive bool // send the 1-byte type-0x02 keepalive when idle
	lastRecv  time.Time
	lastSend  time.Time
	started   bool

	Stats Stats
	rtt   rttEstimator
}

// NewConn returns a Conn that stamps localID on the datagrams it builds.
func NewConn(cfg Config, localID byte, now time.Time) *Conn {
	return newConn(cfg, localID, now, new(msgPool))
}

// newConn returns a Conn drawing its message buffers from pool, which it
// shares with the other Conns of its goroutine.
func newConn(cfg Config, localID byte, now time.Time, pool *msgPool) *Conn {
	c := &Conn{cfg: cfg.withDefaults(), LocalID: localID, lastRecv: now, lastSend: now, started: true, pool: pool, epoch: now}
	c.reasm.init(&c.cfg)
	return c
}

// SetKeepalive turns the idle keepalive on or off: when on, Tick queues
// the single byte 02 (transport type 0x02, unreliable, never ACKed) once
// nothing has been sent for the keepalive interval (transport.md 10.3).
func (c *Conn) SetKeepalive(on bool) { c.keepalive = on }

// Queued returns the number of messages waiting to be sent or ACKed.
func (c *Conn) Queued() int { return len(c.queue) - c.qhead + len(c.inflight) }

// release hands a Conn's buffers back to its pool (the peer is gone).
func (c *Conn) release() {
	for _, m := range c.queue[c.qhead:] {
		c.pool.put(m)
	}
	for _, m := range c.inflight {
		c.pool.put(m)
	}
	c.queue, c.qhead, c.inflight = nil, 0, nil
}

// enqueue encodes msg into a pooled buffer and queues it.
func (c *Conn) enqueue(msg *Message, ch uint8) {
	m := c.pool.get(EncodedLen(msg))
	m.ch, m.reliable, m.fragment, m.fragIdx, m.seq = ch, msg.Reliable, msg.Fragment, msg.FragIdx, msg.Seq
	m.data = AppendMessage(m.data[:0], msg)
	c.queue = append(c.queue, m)
}

// Send queues a game message (transport type 0x32). Reliable messages whose
// encoded size exceeds the 412-byte budget are fragmented (transport.md 7.1);
// an unreliable message must fit in one.
func (c *Conn) Send(payload []byte, reliable bool) error {
	if !reliable {
		if 3+len(payload) > FragmentBudget {
			return fmt.Errorf("unreliable message of %d bytes: %w", len(payload), ErrTooLarge)
		}
		if c.Queued() >= c.cfg.MaxQueued {
			return ErrQueueFull
		}
		c.enqueue(&Message{Type: TypeGame, Payload: payload}, chGame)
		return nil
	}
	if 5+len(payload) <= FragmentBudget {
		if c.Queued() >= c.cfg.MaxQueued {
			return ErrQueueFull
		}
		seq := c.sendSeq[chGame]
		c.sendSeq[chGame]++
		c.enqueue(&Message{Type: TypeGame, Reliable: true, HasSeq: true, Seq: seq, Payload: payload}, chGame)
		return nil
	}
	// Fragment 0 carries up to 405 payload bytes, later ones up to 406.
	first, rest := FragmentBudget-7, FragmentBudget-6
	n := 1
	if len(payload) > first {
		n += (len(payload) - first + rest - 1) / rest
	}
	if n > 255 {
		return fmt.Errorf("message of %d bytes needs %d fragments: %w", len(payload), n, ErrTooLarge)
	}
	if c.Queued()+n > c.cfg.MaxQueued {
		return ErrQueueFull
	}
	seq := c.sendSeq[chGame]
	c.sendSeq[chGame]++
	for i := 0; i < n; i++ {
		var part []byte
		if i == 0 {
			part = payload[:first]
			payload = payload[first:]
		} else {
			k := min(rest, len(payload))
			part = payload[:k]
			payload = payload[k:]
		}
		c.enqueue(&Message{Type: TypeGame, Reliable: true, HasSeq: true, Fragment: true, Seq: seq,
			FragIdx: byte(i), FragCount: byte(n), Payload: part}, chGame)
	}
	return nil
}

// SendControl queues a low-channel message (types 0x00, 0x03, 0x04, 0x05),
// reliable and priority as every stock low-channel message (hi = 0xC0).
func (c *Conn) SendControl(typ byte, payload []byte) error {
	if !IsLowChannel(typ) || typ == TypeAck {
		return fmt.Errorf("type 0x%02X is not a control message", typ)
	}
	if 5+len(payload) > MaxDatagram-HeaderSize {
		return fmt.Errorf("control message of %d bytes: %w", len(payload), ErrTooLarge)
	}
	if c.Queued() >= c.cfg.MaxQueued {
		return ErrQueueFull
	}
	seq := c.sendSeq[chLow]
	c.sendSeq[chLow]++
	c.enqueue(&Message{Type: typ, Reliable: true, Priority: true, HasSeq: true, Seq: seq, Payload: payload}, chLow)
	return nil
}

// Receive processes one decrypted datagram from the peer and delivers its
// messages to r. It returns an error if the datagram was malformed (the
// messages before the fault are still processed).
func (c *Conn) Receive(now time.Time, datagram []byte, r Receiver) error {
	c.Stats.DatagramsIn++
	c.heard(now)
	// The pool's scratch is free again before any delivery can reach a
	// Receive of another Conn: handle copies nothing it needs later.
	_, msgs, err := ParseDatagram(datagram, c.pool.msgs[:0])
	c.pool.msgs = nil
	if err != nil {
		c.Stats.Malformed++
	}
	for i := range msgs {
		c.handle(now, &msgs[i], r)
	}
	clear(msgs) // do not keep payload references alive
	c.pool.msgs = msgs[:0]
	return err
}

func (c *Conn) handle(now time.Time, m *Message, r Receiver) {
	c.Stats.MessagesIn++
	if m.Type == TypeAck {
		c.Stats.AcksIn++
		c.ackReceived(now, m)
		return
	}
	if !m.Reliable {
		if m.Type == TypeKeepalive {
			c.Stats.KeepalivesIn++
		}
		// Unreliable messages are delivered as they arrive: no order, no
		// duplicate suppression (transport.md 5.1).
		c.Stats.Delivered++
		c.deliveredAt = now
		r.Deliver(m.Type, m.Payload, false)
		return
	}
	ch := channel(m.Type)
	d := m.Seq - c.recvSeq[ch]
	switch {
	case d >= 0xC000:
		// An old duplicate: ACK it again so the sender stops resending.
		c.Stats.Duplicates++
		c.queueAck(now, m)
		return
	case d >= 0x4000:
		// Outside the window. The stock receiver ACKs before its window
		// check, so do the same; no legitimate peer gets here.
		c.Stats.OutOfWindow++
		c.queueAck(now, m)
		return
	}
	if d != 0 {
		if _, dup := c.pending[ch][m.Seq]; dup {
			// Already complete and waiting for its turn.
			c.Stats.Duplicates++
			c.queueAck(now, m)
			return
		}
	}
	if m.Fragment {
		if ch != chGame {
			c.Stats.Malformed++
			return
		}
		payload, done, ok := c.reasm.add(now, m, &c.Stats, c.cfg.MaxReassembly-c.pendingBytes)
		if !ok {
			return // refused: not ACKed, so the sender will try again
		}
		c.queueAck(now, m)
		if !done {
			return
		}
		// Release first: the completed message moves from the reassembly
		// budget to the reorder budget, which it is then sure to fit.
		c.reasm.release(m.Seq)
		c.accept(ch, d, m.Type, m.Seq, payload, r, now)
		return
	}
	if d == 0 {
		// ACK first, as the stock receiver creates the ACK when it parses
		// the message: whatever the delivery makes us send comes after it.
		c.queueAck(now, m)
		c.accept(ch, d, m.Type, m.Seq, m.Payload, r, now)
		return
	}
	if c.accept(ch, d, m.Type, m.Seq, m.Payload, r, now) {
		c.queueAck(now, m)
	}
}

// accept delivers a whole reliable message now (d == 0) or holds it until
// its turn. It returns false if the message could not be held.
func (c *Conn) accept(ch int, d uint16, typ byte, seq uint16, payload []byte, r Receiver, now time.Time) bool {
	if d == 0 {
		c.recvSeq[ch]++
		c.Stats.Delivered++
		// A message that fills a gap was sent before every message held
		// behind it: it would have arrived by the first of their arrivals
		// had it not been lost.
		at := now
		for _, h := range c.pending[ch] {
			if h.at.Before(at) {
				at = h.at
			}
		}
		c.delivering(ch, now, at)
		r.Deliver(typ, payload, true)
		c.drain(ch, r)
		return true
	}
	if c.pending[ch] == nil {
		c.pending[ch] = make(map[uint16]held)
	}
	if _, dup := c.pending[ch][seq]; dup {
		c.Stats.Duplicates++
		return true
	}
	if c.pendingBytes+c.reasm.bytes+len(payload) > c.cfg.MaxReassembly || len(c.pending[ch]) >= 4096 {
		c.Stats.BufferDrops++
		return false
	}
	c.pendingBytes += len(payload)
	c.pending[ch][seq] = held{typ: typ, payload: append([]byte(nil), payload...), at: now}
	return true
}

func (c *Conn) drain(ch int, r Receiver) {
	for len(c.pending[ch]) > 0 {
		h, ok := c.pending[ch][c.recvSeq[ch]]
		if !ok {
			return
		}
		delete(c.pending[ch], c.recvSeq[ch])
		c.pendingBytes -= len(h.payload)
		c.recvSeq[ch]++
		c.Stats.Delivered++
		c.delivering(ch, h.at, h.at)
		r.Deliver(h.typ, h.payload, true)
	}
}

// delivering sets DeliveredAt for a reliable message of channel ch that
// arrived at arr, and would have at at but for a loss: as soon as the
// message before it would have, or, when both came in one datagram (sent
// together, lost and resent together), as soon as that one could have.
func (c *Conn) delivering(ch int, arr, at time.Time) {
	e := at
	switch prev := c.reckoned[ch]; {
	case prev.IsZero():
	case arr.Equal(c.arrived[ch]):
		if c.earliest[ch].Before(at) {
			e = c.earliest[ch]
		}
	case prev.Before(at):
		e = prev
	}
	c.deliveredAt = e
	c.arrived[ch], c.reckoned[ch], c.earliest[ch] = arr, at, e
}

// DeliveredAt is, during a Deliver, the earliest time the message being
// delivered could have arrived had nothing been lost. A reliable message
// was sent after the one before it on its channel, so it could have
// arrived as soon as that one did (or, arriving in the same datagram, as
// soon as that one could have: they were sent and resent together); and
// that one arrived when it did, or,
// held back behind a lost message, when it arrived and was held, or, lost
// itself, when the first message held behind it arrived. An unreliable
// message arrived when it arrived. Rate checks read a shot's time from
// it, not from the burst a loss releases; how much earlier than its
// delivery it may be is theirs to bound (a message after a long silence
// gets the time of the one before the silence).
func (c *Conn) DeliveredAt() time.Time { return c.deliveredAt }

// mono is a time on a Conn's clock: nanoseconds since its epoch. Queued
// messages and ACK repeats keep their times in this form, 8 bytes against
// a time.Time's 24: they are most of what a connected player costs in
// memory, and the comparisons in Flush become integer ones.
type mono int64

// mono returns t on c's clock.
func (c *Conn) mono(t time.Time) mono { return mono(t.Sub(c.epoch)) }

// at returns the time m on c's clock stands for.
func (c *Conn) at(m mono) time.Time { return c.epoch.Add(time.Duration(m)) }

// since returns the time from m to now.
func (c *Conn) since(now time.Time, m mono) time.Duration { return time.Duration(c.mono(now) - m) }
