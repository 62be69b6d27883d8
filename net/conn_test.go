package net

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bcserver/bcserver/net/alby"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

type delivery struct {
	typ      byte
	payload  []byte
	reliable bool
}

type recorder struct{ got []delivery }

func (r *recorder) Deliver(typ byte, payload []byte, reliable bool) {
	r.got = append(r.got, delivery{typ, bytes.Clone(payload), reliable})
}

type inflightPkt struct {
	at   time.Time
	data []byte
}

// lossyLink carries datagrams one way with loss, duplication and random
// delay (which reorders them).
type lossyLink struct {
	rng               *rand.Rand
	loss, dup         float64
	maxDelay          time.Duration
	pkts              []inflightPkt
	sent, lost, duped int
}

func (l *lossyLink) send(now time.Time, d []byte) {
	l.sent++
	if l.rng.Float64() < l.loss {
		l.lost++
		return
	}
	n := 1
	if l.rng.Float64() < l.dup {
		n = 2
		l.duped++
	}
	for range n {
		delay := time.Duration(l.rng.Int64N(int64(l.maxDelay) + 1))
		l.pkts = append(l.pkts, inflightPkt{now.Add(delay), bytes.Clone(d)})
	}
}

func (l *lossyLink) due(now time.Time) [][]byte {
	var out [][]byte
	j := 0
	for _, p := range l.pkts {
		if !now.Before(p.at) {
			out = append(out, p.data)
		} else {
			l.pkts[j] = p
			j++
		}
	}
	l.pkts = l.pkts[:j]
	return out
}

// pump moves everything a Conn wants to send through the cipher onto a link.
func pump(t *testing.T, now time.Time, c *Conn, l *lossyLink) {
	buf := make([]byte, 0, MaxDatagram)
	for i := 0; i < 10000; i++ {
		d := c.Flush(now, buf)
		if d == nil {
			return
		}
		if len(d) > MaxDatagram || d[1] == 0 {
			t.Fatalf("datagram of %d bytes, %d messages", len(d), d[1])
		}
		alby.Encrypt(d)
		l.send(now, d)
	}
	t.Fatal("Flush never ran dry")
}

func receive(t *testing.T, now time.Time, c *Conn, l *lossyLink, r Receiver) {
	for _, d := range l.due(now) {
		alby.Decrypt(d)
		if err := c.Receive(now, d, r); err != nil {
			t.Fatalf("receive: %v", err)
		}
	}
}

// Over a link with 10 % loss, duplication and reordering, every reliable
// message — including fragmented ones of 2–20 KB — arrives exactly once and
// in order, in both directions at once.
func TestLossyLinkDeliversInOrder(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			a := NewConn(Config{}, PeerHost, t0)
			b := NewConn(Config{}, 2, t0)
			ab := &lossyLink{rng: rng, loss: 0.10, dup: 0.10, maxDelay: 80 * time.Millisecond}
			ba := &lossyLink{rng: rng, loss: 0.10, dup: 0.10, maxDelay: 80 * time.Millisecond}
			var sentAB, sentBA [][]byte
			mk := func(i int) []byte {
				n := 1 + rng.IntN(300)
				if i%7 == 3 {
					n = 2000 + rng.IntN(18*1024)
				}
				p := make([]byte, n)
				for k := range p {
					p[k] = byte(rng.IntN(256))
				}
				p[0] = byte(i)
				return p
			}
			ra, rb := &recorder{}, &recorder{}
			now := t0
			const total = 120
			for step := 0; step < 20000; step++ {
				if step < total {
					p := mk(step)
					if err := a.Send(p, true); err != nil {
						t.Fatal(err)
					}
					sentAB = append(sentAB, p)
					if step%3 == 0 {
						q := mk(step + 1000)
						if err := b.Send(q, true); err != nil {
							t.Fatal(err)
						}
						sentBA = append(sentBA, q)
					}
					_ = a.Send([]byte{0x1C, byte(step)}, false)
				}
				a.Tick(now)
				b.Tick(now)
				pump(t, now, a, ab)
				pump(t, now, b, ba)
				now = now.Add(10 * time.Millisecond)
				receive(t, now, b, ab, rb)
				receive(t, now, a, ba, ra)
				if err := a.Check(now); err != nil {
					t.Fatalf("a: %v", err)
				}
				if step > total && a.Queued() == 0 && b.Queued() == 0 && len(ab.pkts) == 0 && len(ba.pkts) == 0 {
					break
				}
			}
			check := func(name string, r *recorder, sent [][]byte) {
				var rel [][]byte
				for _, d := range r.got {
					if d.reliable {
						rel = append(rel, d.payload)
					}
				}
				if len(rel) != len(sent) {
					t.Fatalf("%s: %d reliable delivered, %d sent", name, len(rel), len(sent))
				}
				for i := range sent {
					if !bytes.Equal(rel[i], sent[i]) {
						t.Fatalf("%s: message %d differs (len %d vs %d)", name, i, len(rel[i]), len(sent[i]))
					}
				}
			}
			check("a->b", rb, sentAB)
			check("b->a", ra, sentBA)
			if ab.lost == 0 || ab.duped == 0 || a.Stats.Retransmits == 0 || b.Stats.Duplicates == 0 {
				t.Fatalf("link did not exercise loss/dup: lost %d duped %d retx %d dups %d", ab.lost, ab.duped, a.Stats.Retransmits, b.Stats.Duplicates)
			}
			t.Logf("a->b: %d datagrams, %d lost, %d duplicated, %d retransmits, done at %v",
				ab.sent, ab.lost, ab.duped, a.Stats.Retransmits, now.Sub(t0))
		})
	}
}

func flushAll(c *Conn, now time.Time) [][]byte {
	var out [][]byte
	for {
		d := c.Flush(now, nil)
		if d == nil {
			return out
		}
		out = append(out, bytes.Clone(d))
	}
}

// Retransmission follows 1, 2, 3, 4, 5, 5 … s and the peer is dropped when a
// message stays unACKed for 45 s; silence from the peer times it out at 45 s.
func TestRetransmitScheduleAndTimeouts(t *testing.T) {
	c := NewConn(Config{}, PeerHost, t0)
	if err := c.Send([]byte{0x28}, true); err != nil {
		t.Fatal(err)
	}
	if n := len(flushAll(c, t0)); n != 1 {
		t.Fatalf("first send: %d datagrams", n)
	}
	var sends []time.Duration
	for ms := 0; ms <= 44000; ms += 100 {
		now := t0.Add(time.Duration(ms) * time.Millisecond)
		for range flushAll(c, now) {
			sends = append(sends, now.Sub(t0))
		}
	}
	want := []time.Duration{1, 3, 6, 10, 15, 20, 25, 30, 35, 40}
	if len(sends) != len(want) {
		t.Fatalf("resends at %v", sends)
	}
	for i := range want {
		if sends[i] != want[i]*time.Second {
			t.Fatalf("resends at %v, want %v s", sends, want)
		}
	}
	// Keep the peer talking so only the unACKed rule can fire.
	c.lastRecv = t0.Add(44 * time.Second)
	if err := c.Check(t0.Add(44 * time.Second)); err != nil {
		t.Fatalf("alive at 44 s: %v", err)
	}
	if err := c.Check(t0.Add(45 * time.Second)); !errors.Is(err, ErrUnacked) {
		t.Fatalf("unacked at 45 s: %v", err)
	}
	idle := NewConn(Config{}, PeerHost, t0)
	if err := idle.Check(t0.Add(44999 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if err := idle.Check(t0.Add(45 * time.Second)); !errors.Is(err, ErrTimedOut) {
		t.Fatalf("silent peer: %v", err)
	}
}

// An ACK is sent in the next datagram and repeated at most twice more at
// 0.667 s intervals; a duplicate message re-arms it. Its flags come from the
// acknowledged message.
func TestAckRepeatsAndFlags(t *testing.T) {
	c := NewConn(Config{}, PeerHost, t0)
	r := &recorder{}
	// Client: ACK, then connect (low seq 0) and a reliable game message.
	in := []byte{0x02, 0x02, 0x03, 0x06, 0xC0, 0x00, 0x00, 0x02, 0x32, 0x06, 0x80, 0x00, 0x00, 0x2A}
	if err := c.Receive(t0, in, r); err != nil {
		t.Fatal(err)
	}
	var times []time.Duration
	var first []byte
	for ms := 0; ms <= 5000; ms += 1 {
		now := t0.Add(time.Duration(ms) * time.Millisecond)
		for _, d := range flushAll(c, now) {
			if first == nil {
				first = d
			}
			times = append(times, now.Sub(t0))
		}
	}
	if want := []byte{0x01, 0x02, 0x01, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00}; !bytes.Equal(first, want) {
		t.Fatalf("ack datagram %X want %X", first, want)
	}
	if len(times) != 3 || times[1] != 667*time.Millisecond || times[2] != 1334*time.Millisecond {
		t.Fatalf("ack sends at %v", times)
	}
	// The duplicate is ACKed again (not delivered again).
	if err := c.Receive(t0.Add(6*time.Second), in, r); err != nil {
		t.Fatal(err)
	}
	if len(r.got) != 2 {
		t.Fatalf("duplicate delivered: %d deliveries", len(r.got))
	}
	if d := flushAll(c, t0.Add(6*time.Second)); len(d) != 1 || d[0][1] != 2 {
		t.Fatalf("duplicate not re-ACKed: %X", d)
	}
}

// Fragment ACKs are 5 bytes with the fragment's index, every time the
// fragment arrives, also after delivery (transport.md 7.3).
func TestFragmentAcks(t *testing.T) {
	tx := NewConn(Config{}, 2, t0)
	payload := bytes.Repeat([]byte{0x21, 0x02, 0xAB}, 300) // 900 bytes -> 3 fragments
	if err := tx.Send(payload, true); err != nil {
		t.Fatal(err)
	}
	ds := flushAll(tx, t0)
	if len(ds) != 2 { // 412 | 412 + 95: the last two share a datagram
		t.Fatalf("%d datagrams", len(ds))
	}
	var msgs []Message
	for _, d := range ds {
		_, ms, err := ParseDatagram(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, ms...)
	}
	if len(msgs) != 3 || msgs[0].FragCount != 3 || EncodedLen(&msgs[0]) != 412 || EncodedLen(&msgs[1]) != 412 || msgs[2].FragIdx != 2 {
		t.Fatalf("fragments: %+v", msgs)
	}
	rx := NewConn(Config{}, PeerHost, t0)
	r := &recorder{}
	// Deliver in reverse order, then all again.
	for pass := 0; pass < 2; pass++ {
		for i := len(ds) - 1; i >= 0; i-- {
			if err := rx.Receive(t0, ds[i], r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(r.got) != 1 || !bytes.Equal(r.got[0].payload, payload) {
		t.Fatalf("deliveries: %d", len(r.got))
	}
	acks := flushAll(rx, t0)
	_, am, err := ParseDatagram(acks[0], nil)
	if err != nil || len(am) != 3 {
		t.Fatalf("acks %X err %v", acks, err)
	}
	seen := map[byte]bool{}
	for i, a := range am {
		if a.Type != TypeAck || !a.Fragment || a.Low || a.Seq != 0 || EncodedLen(&a) != 5 {
			t.Fatalf("ack %d: %+v", i, a)
		}
		seen[a.FragIdx] = true
	}
	if len(seen) != 3 {
		t.Fatalf("acked fragments %v", seen)
	}
	// The sender matches each fragment ACK to its own fragment only.
	if err := tx.Receive(t0, acks[0], r); err != nil {
		t.Fatal(err)
	}
	if tx.Queued() != 0 {
		t.Fatalf("%d still awaiting ACK", tx.Queued())
	}
	// A plain ACK never matches a fragment.
	tx2 := NewConn(Config{}, 2, t0)
	_ = tx2.Send(payload, true)
	flushAll(tx2, t0)
	_ = tx2.Receive(t0, []byte{1, 1, 0x01, 0, 0, 0}, r)
	if tx2.Queued() != 3 || tx2.Stats.AcksUnmatched != 1 {
		t.Fatalf("plain ack matched a fragment: queued %d", tx2.Queued())
	}
}

// Reassembly is bounded: oversized messages, too many concurrent messages,
// conflicting fragments and stale halves are dropped, and nothing is ACKed
// that was not kept.
func TestReassemblyLimits(t *testing.T) {
	frag := func(seq uint16, idx, count byte, payload []byte) []byte {
		m := Message{Type: TypeGame, Reliable: true, HasSeq: true, Fragment: true, Seq: seq, FragIdx: idx, FragCount: count, Payload: payload}
		return AppendMessage([]byte{2, 1}, &m)
	}
	r := &recorder{}
	t.Run("message size", func(t *testing.T) {
		c := NewConn(Config{MaxMessageSize: 1000}, PeerHost, t0)
		for i := byte(0); i < 4; i++ {
			_ = c.Receive(t0, frag(0, i, 4, make([]byte, 400)), r)
		}
		if c.Stats.ReassemblyDrops == 0 || len(r.got) != 0 {
			t.Fatalf("drops %d delivered %d", c.Stats.ReassemblyDrops, len(r.got))
		}
	})
	t.Run("concurrent messages", func(t *testing.T) {
		c := NewConn(Config{MaxReassemblies: 2}, PeerHost, t0)
		for s := uint16(1); s <= 5; s++ {
			_ = c.Receive(t0, frag(s, 0, 2, []byte{1}), r)
		}
		if len(c.reasm.list) != 2 || c.Stats.ReassemblyDrops != 3 {
			t.Fatalf("held %d drops %d", len(c.reasm.list), c.Stats.ReassemblyDrops)
		}
		if acks := flushAll(c, t0); len(acks) != 1 || acks[0][1] != 2 {
			t.Fatalf("refused fragments were ACKed: %X", acks)
		}
	})
	t.Run("conflicts", func(t *testing.T) {
		c := NewConn(Config{}, PeerHost, t0)
		_ = c.Receive(t0, frag(0, 0, 3, []byte{1}), r)
		_ = c.Receive(t0, frag(0, 0, 4, []byte{1}), r) // count changed
		_ = c.Receive(t0, frag(1, 1, 0, []byte{1}), r)
		_ = c.Receive(t0, frag(1, 1, 0, []byte{2}), r) // same index, other bytes
		_ = c.Receive(t0, frag(2, 5, 0, []byte{1}), r)
		_ = c.Receive(t0, frag(2, 0, 3, []byte{1}), r) // index 5 beyond count 3
		if c.Stats.ReassemblyDrops != 3 || len(c.reasm.list) != 0 {
			t.Fatalf("drops %d held %d", c.Stats.ReassemblyDrops, len(c.reasm.list))
		}
	})
	t.Run("expiry", func(t *testing.T) {
		c := NewConn(Config{}, PeerHost, t0)
		_ = c.Receive(t0, frag(0, 0, 3, []byte{1}), r)
		c.Tick(t0.Add(44 * time.Second))
		if len(c.reasm.list) != 1 {
			t.Fatal("expired early")
		}
		c.Tick(t0.Add(45 * time.Second))
		if len(c.reasm.list) != 0 || c.reasm.bytes != 0 {
			t.Fatal("not expired")
		}
	})
	t.Run("reorder budget", func(t *testing.T) {
		c := NewConn(Config{MaxReassembly: 1000}, PeerHost, t0)
		for s := uint16(1); s <= 10; s++ {
			m := Message{Type: TypeGame, Reliable: true, HasSeq: true, Seq: s, Payload: make([]byte, 300)}
			_ = c.Receive(t0, AppendMessage([]byte{2, 1}, &m), r)
		}
		if c.pendingBytes > 1000 || c.Stats.BufferDrops == 0 {
			t.Fatalf("held %d bytes, drops %d", c.pendingBytes, c.Stats.BufferDrops)
		}
	})
}

func TestSendLimits(t *testing.T) {
	c := NewConn(Config{MaxQueued: 3}, PeerHost, t0)
	if err := c.Send(make([]byte, 410), false); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("big unreliable: %v", err)
	}
	if err := c.Send(make([]byte, 255*406+1), true); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("too many fragments: %v", err)
	}
	for i := 0; i < 3; i++ {
		if err := c.Send([]byte{1}, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Send([]byte{1}, true); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("queue full: %v", err)
	}
	// 255 messages per datagram at most.
	c2 := NewConn(Config{}, PeerHost, t0)
	for i := 0; i < 300; i++ {
		_ = c2.Send(nil, false)
	}
	d := c2.Flush(t0, nil)
	if d[1] != 170 { // 3-byte messages: (512-2)/3 = 170 fit
		t.Fatalf("count %d len %d", d[1], len(d))
	}
	c3 := NewConn(Config{}, PeerHost, t0)
	for i := 0; i < 300; i++ {
		_ = c3.Send(nil, false)
	}
	_ = c3.Receive(t0, []byte{2, 0}, nil)
	if got := len(flushAll(c3, t0)); got != 2 {
		t.Fatalf("%d datagrams for 300 messages", got)
	}
}

// FuzzConnReceive feeds arbitrary datagrams to a Conn: no panic, and the
// memory it holds stays within its limits.
func FuzzConnReceive(f *testing.F) {
	f.Add([]byte{2, 1, 0x32, 0x08, 0xA0, 0x00, 0x00, 0x00, 0x02, 0x21})
	f.Add([]byte{2, 2, 0x01, 0x00, 0x00, 0x02, 0x00, 0x16, 0xC0, 0x01, 0x00, 0x02, 0x0A, 0x0A, 0x0A, 0xEF, 0x43, 0, 0x61, 0, 0x64, 0, 0x79, 0, 0x32, 0, 0, 0})
	f.Add([]byte{2, 1, 0x32, 0x07, 0x80, 0x05, 0x00, 0x2A, 0x20})
	f.Fuzz(func(t *testing.T, b []byte) {
		c := NewConn(Config{MaxReassembly: 4096, MaxReassemblies: 4}, PeerHost, t0)
		r := &recorder{}
		for i := 0; i < 3; i++ { // the same datagram repeated, as a retransmitting peer would
			_ = c.Receive(t0.Add(time.Duration(i)*time.Second), b, r)
			c.Tick(t0.Add(time.Duration(i) * time.Second))
			for k := 0; k < 100 && c.Flush(t0, nil) != nil; k++ {
			}
		}
		if c.pendingBytes+c.reasm.bytes > 4096 || len(c.reasm.list) > 4 {
			t.Fatalf("holding %d bytes in %d reassemblies", c.pendingBytes+c.reasm.bytes, len(c.reasm.list))
		}
	})
}

func BenchmarkReliableSendAck(b *testing.B) {
	tx := NewConn(Config{}, PeerHost, t0)
	rx := NewConn(Config{}, 2, t0)
	payload := make([]byte, 25)
	payload[0] = 0x07
	out := make([]byte, 0, MaxDatagram)
	back := make([]byte, 0, MaxDatagram)
	var sink nopReceiver
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		// 100 messages a second: ACK entries live for their three sends.
		now = now.Add(10 * time.Millisecond)
		_ = tx.Send(payload, true)
		d := tx.Flush(now, out)
		_ = rx.Receive(now, d, sink)
		a := rx.Flush(now, back)
		_ = tx.Receive(now, a, sink)
		tx.lastRecv, rx.lastRecv = now, now
	}
	if tx.Queued() != 0 {
		b.Fatalf("%d unacked", tx.Queued())
	}
}

type nopReceiver struct{}

func (nopReceiver) Deliver(byte, []byte, bool) {}

// atRecorder records each delivery's DeliveredAt.
type atRecorder struct {
	c   *Conn
	got []time.Time
	seq []byte
}

func (r *atRecorder) Deliver(typ byte, payload []byte, reliable bool) {
	r.got = append(r.got, r.c.DeliveredAt())
	r.seq = append(r.seq, payload[0])
}

// A reliable message lost and resent arrives after the ones sent behind
// it: it is delivered then, but DeliveredAt reckons it arrived with the
// first of them, each held one when it did, not with the burst; and each
// message could have arrived as soon as the one before it.
func TestDeliveredAt(t *testing.T) {
	c := NewConn(Config{}, PeerHost, t0)
	r := &atRecorder{c: c}
	msg := func(seq uint16) []byte {
		m := Message{Type: TypeGame, Reliable: true, HasSeq: true, Seq: seq, Payload: []byte{byte(seq)}}
		return AppendMessage([]byte{2, 1}, &m)
	}
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	_ = c.Receive(ms(0), msg(0), r)
	// 1 is lost; 2 and 3 arrive and are held; 1 comes back at 900 ms.
	_ = c.Receive(ms(100), msg(2), r)
	_ = c.Receive(ms(200), msg(3), r)
	_ = c.Receive(ms(900), msg(1), r)
	_ = c.Receive(ms(1000), msg(4), r)
	// 5, 6 and 7 sent together in one datagram, lost and resent together:
	// all three could have arrived as soon as 4 did.
	three := append(append(append([]byte{2, 3}, msg(5)[2:]...), msg(6)[2:]...), msg(7)[2:]...)
	_ = c.Receive(ms(9000), three, r)
	want := []time.Time{ms(0), ms(0), ms(100), ms(100), ms(200), ms(1000), ms(1000), ms(1000)}
	if !bytes.Equal(r.seq, []byte{0, 1, 2, 3, 4, 5, 6, 7}) || len(r.got) != len(want) {
		t.Fatalf("delivered %v", r.seq)
	}
	for i := range want {
		if !r.got[i].Equal(want[i]) {
			t.Errorf("message %d: DeliveredAt %v, want %v", r.seq[i], r.got[i].Sub(t0), want[i].Sub(t0))
		}
	}
}
