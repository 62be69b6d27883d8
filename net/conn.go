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
	ch        int
	seq       uint16
	reliable  bool
	fragment  bool
	fragIdx   byte
	firstSent time.Time
	nextSend  time.Time
	sends     int
	data      []byte // encoded message, aliases storage
	storage   [MaxDatagram - HeaderSize]byte
}

// held is a reliable message received ahead of a gap, or a completed
// fragmented message waiting for its turn.
type held struct {
	typ     byte
	payload []byte
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

	queue    []*outMsg // new messages, FIFO
	qhead    int
	inflight []*outMsg // sent reliable messages awaiting ACK, oldest first
	free     []*outMsg
	// ACKs not sent yet, and ACKs waiting to be repeated. Every repeat is
	// queued with due = now + AckInterval, so the repeat queue stays in due
	// order and Flush only looks at its head.
	acks      []ackEntry
	ackRepeat []ackEntry
	ackHead   int
	// minResend is no later than the earliest retransmission time in
	// inflight, so Flush skips the scan until then.
	minResend time.Time

	pending      [2]map[uint16]held // reorder buffers per channel
	pendingBytes int
	reasm        reassembler

	keepalive bool // send the 1-byte type-0x02 keepalive when idle
	lastRecv  time.Time
	lastSend  time.Time
	started   bool

	Stats Stats
	rtt   rttEstimator
	msgs  []Message // scratch for parsing
}

// NewConn returns a Conn that stamps localID on the datagrams it builds.
func NewConn(cfg Config, localID byte, now time.Time) *Conn {
	c := &Conn{cfg: cfg.withDefaults(), LocalID: localID, lastRecv: now, lastSend: now, started: true}
	c.reasm.init(&c.cfg)
	return c
}

// SetKeepalive turns the idle keepalive on or off: when on, Tick queues
// the single byte 02 (transport type 0x02, unreliable, never ACKed) once
// nothing has been sent for the keepalive interval (transport.md 10.3).
func (c *Conn) SetKeepalive(on bool) { c.keepalive = on }

// Queued returns the number of messages waiting to be sent or ACKed.
func (c *Conn) Queued() int { return len(c.queue) - c.qhead + len(c.inflight) }

func (c *Conn) get() *outMsg {
	if n := len(c.free); n > 0 {
		m := c.free[n-1]
		c.free = c.free[:n-1]
		return m
	}
	return new(outMsg)
}

func (c *Conn) put(m *outMsg) {
	m.data = nil
	m.sends = 0
	if len(c.free) < 256 {
		c.free = append(c.free, m)
	}
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
		m := c.get()
		*m = outMsg{ch: chGame}
		msg := Message{Type: TypeGame, Payload: payload}
		m.data = AppendMessage(m.storage[:0], &msg)
		c.queue = append(c.queue, m)
		return nil
	}
	if 5+len(payload) <= FragmentBudget {
		if c.Queued() >= c.cfg.MaxQueued {
			return ErrQueueFull
		}
		seq := c.sendSeq[chGame]
		c.sendSeq[chGame]++
		m := c.get()
		*m = outMsg{ch: chGame, seq: seq, reliable: true}
		msg := Message{Type: TypeGame, Reliable: true, HasSeq: true, Seq: seq, Payload: payload}
		m.data = AppendMessage(m.storage[:0], &msg)
		c.queue = append(c.queue, m)
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
		m := c.get()
		*m = outMsg{ch: chGame, seq: seq, reliable: true, fragment: true, fragIdx: byte(i)}
		msg := Message{Type: TypeGame, Reliable: true, HasSeq: true, Fragment: true, Seq: seq,
			FragIdx: byte(i), FragCount: byte(n), Payload: part}
		m.data = AppendMessage(m.storage[:0], &msg)
		c.queue = append(c.queue, m)
	}
	return nil
}

// SendControl queues a low-channel message (types 0x00, 0x03, 0x04, 0x05),
// reliable and priority as every stock low-channel message (hi = 0xC0).
func (c *Conn) SendControl(typ byte, payload []byte) error {
	if !IsLowChannel(typ) || typ == TypeAck {
		return fmt.Errorf("type 0x%02X is not a control message", typ)
	}
	if 5+len(payload) > len(outMsg{}.storage) {
		return fmt.Errorf("control message of %d bytes: %w", len(payload), ErrTooLarge)
	}
	if c.Queued() >= c.cfg.MaxQueued {
		return ErrQueueFull
	}
	seq := c.sendSeq[chLow]
	c.sendSeq[chLow]++
	m := c.get()
	*m = outMsg{ch: chLow, seq: seq, reliable: true}
	msg := Message{Type: typ, Reliable: true, Priority: true, HasSeq: true, Seq: seq, Payload: payload}
	m.data = AppendMessage(m.storage[:0], &msg)
	c.queue = append(c.queue, m)
	return nil
}

// Receive processes one decrypted datagram from the peer and delivers its
// messages to r. It returns an error if the datagram was malformed (the
// messages before the fault are still processed).
func (c *Conn) Receive(now time.Time, datagram []byte, r Receiver) error {
	c.Stats.DatagramsIn++
	c.lastRecv = now
	_, msgs, err := ParseDatagram(datagram, c.msgs[:0])
	if err != nil {
		c.Stats.Malformed++
	}
	for i := range msgs {
		c.handle(now, &msgs[i], r)
	}
	clear(msgs) // do not keep payload references alive
	c.msgs = msgs[:0]
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
	c.pending[ch][seq] = held{typ: typ, payload: append([]byte(nil), payload...)}
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
		r.Deliver(h.typ, h.payload, true)
	}
}

// Pending reports whether Flush at now would produce a datagram.
func (c *Conn) Pending(now time.Time) bool {
	if c.qhead < len(c.queue) {
		return true
	}
	if len(c.acks) > 0 || (c.ackHead < len(c.ackRepeat) && !now.Before(c.ackRepeat[c.ackHead].due)) {
		return true
	}
	if len(c.inflight) > 0 && !now.Before(c.minResend) {
		for _, o := range c.inflight {
			if !now.Before(o.nextSend) {
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
	// most AckSends times, AckInterval apart).
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
		if now.Before(a.due) || !fits(5) {
			break
		}
		c.ackHead++
		b = c.appendAck(b, &a)
		count++
		c.repeatAck(now, a)
	}
	if c.ackHead == len(c.ackRepeat) {
		c.ackRepeat, c.ackHead = c.ackRepeat[:0], 0
	} else if c.ackHead > 256 && c.ackHead > len(c.ackRepeat)/2 {
		n := copy(c.ackRepeat, c.ackRepeat[c.ackHead:])
		c.ackRepeat, c.ackHead = c.ackRepeat[:n], 0
	}

	// 2. Retransmissions that are due, oldest first.
	if len(c.inflight) > 0 && !now.Before(c.minResend) {
		next := time.Time{}
		for _, o := range c.inflight {
			if !now.Before(o.nextSend) && fits(len(o.data)) {
				b = append(b, o.data...)
				count++
				c.Stats.Retransmits++
				o.sends++
				o.nextSend = now.Add(c.resendInterval(o.sends))
			}
			if next.IsZero() || o.nextSend.Before(next) {
				next = o.nextSend
			}
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
			o.firstSent = now
			o.sends = 1
			o.nextSend = now.Add(c.resendInterval(1))
			if len(c.inflight) == 0 || o.nextSend.Before(c.minResend) {
				c.minResend = o.nextSend
			}
			c.inflight = append(c.inflight, o)
		} else {
			c.put(o)
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
