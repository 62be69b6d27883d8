package net

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/vectors"
)

// A repeated connect with the session's nonce is a retransmission; a new
// nonce from the same address is a new session and the old peer goes
// (transport.md 10.1).
func TestHostReconnect(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	f.join(5001, "Bob")
	f.in(5000, connectDatagram(77, "")) // id 3, reply not ACKed yet
	f.msgs(5000, true)
	f.msgs(5001, true)

	f.now = t0.Add(100 * time.Millisecond) // before the 1 s retransmission
	f.in(5000, connectDatagram(77, ""))
	got := f.msgs(5000, true)
	if len(got) != 2 || got[0].Type != TypeAck || got[0].Seq != 0 || got[1].Type != TypeConnect || got[1].Payload[0] != 3 {
		t.Fatalf("retransmitted connect: %s", kinds(got))
	}
	if f.h.NumPeers() != 2 || len(f.ev.nonces) != 2 {
		t.Fatalf("peers %d admits %d", f.h.NumPeers(), len(f.ev.nonces))
	}

	f.in(5000, ctlDatagram(3, TypeData, 1, identityPayload(3, "Carl")))
	f.msgs(5001, false)
	f.in(5000, connectDatagram(78, ""))
	if len(f.ev.left) != 1 || f.ev.left[0] != LeftReplaced || f.ev.leftPeer[0] != 3 || f.h.Stats.Replaced != 1 {
		t.Fatalf("left %v %v", f.ev.left, f.ev.leftPeer)
	}
	p := f.h.peers[addr(5000)]
	if p == nil || p.ID != 4 || p.nonce != 78 {
		t.Fatalf("new session %+v", p)
	}
	// Bob learns that peer 3 is gone (boot reason 1), then gets Carl's new
	// session only when it announces itself.
	if got := f.msgs(5001, false); len(got) != 1 || got[0].Type != TypeBoot || !bytes.Equal(got[0].Payload, []byte{1, 3}) {
		t.Fatalf("to bob: %s", kinds(got))
	}
}

// A booted peer gets its notice, leaves the game at once and lingers in
// the transport only until it ACKs the notice (or BootLinger passes).
func TestHostBootLingers(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	f.join(5000, "Alice")
	f.msgs(5000, true)
	// A full game boots the newcomer from Connected: the connect reply,
	// the identity of the peer already there (transport.md 4.5 step 4),
	// then the reason-3 boot naming its id, in one datagram.
	f.ev.onConn = func(p *Peer) { f.h.Boot(f.now, p, BootFull) }
	f.in(5001, connectDatagram(1, ""))
	got := f.out.Take()
	want := append([]byte{0x01, 0x03, 0x03, 0x06, 0xC0, 0x00, 0x00, 0x03}, ctlDatagram(0, TypeData, 1, identityPayload(2, "Alice"))[2:]...)
	want = append(want, 0x04, 0x07, 0xC0, 0x02, 0x00, 0x03, 0x03)
	if len(got) < 1 || got[0].To != addr(5001) || !bytes.Equal(got[0].Data, want) {
		t.Fatalf("full: %v, want %X", got, want)
	}
	for _, s := range got {
		if s.To == addr(5000) {
			t.Fatalf("the others heard of a peer they never knew: %X", s.Data)
		}
	}
	if f.h.NumPeers() != 1 || f.h.Lingering() != 1 || f.h.Peer(3) != nil || len(f.ev.left) != 1 || f.ev.left[0] != LeftBooted {
		t.Fatalf("peers %d lingering %d left %v", f.h.NumPeers(), f.h.Lingering(), f.ev.left)
	}
	// Its identity and game messages go nowhere; its ACKs end the linger.
	f.ev.onConn = nil
	f.in(5001, ctlDatagram(3, TypeData, 1, identityPayload(3, "Late")))
	d := ackDatagram(3, 0, 1, 2)
	d[1]++
	f.in(5001, append(d, 0x32, 0x06, 0x80, 0x00, 0x00, 0x2A))
	if len(f.ev.ids) != 1 || len(f.ev.msgs) != 0 || len(f.msgs(5000, false)) != 0 {
		t.Fatalf("a lingering peer was heard: ids %v msgs %d", f.ev.ids, len(f.ev.msgs))
	}
	f.h.Tick(f.now)
	if f.h.Lingering() != 0 {
		t.Fatal("still lingering after the ACK")
	}
	// A kicked player that never ACKs goes after BootLinger; the peers that
	// knew it get the same notice.
	f.join(5002, "Kim") // id 4
	f.msgs(5000, false)
	f.h.Boot(f.now, f.h.Peer(4), BootKicked)
	f.h.Flush(f.now)
	if got := f.msgs(5000, false); len(got) != 1 || got[0].Type != TypeBoot || !bytes.Equal(got[0].Payload, []byte{4, 4}) {
		t.Fatalf("others: %s", kinds(got))
	}
	f.now = f.now.Add(5*time.Second - time.Millisecond)
	f.h.Tick(f.now)
	if f.h.Lingering() != 1 {
		t.Fatal("gone before BootLinger")
	}
	f.now = f.now.Add(time.Millisecond)
	f.h.Tick(f.now)
	if f.h.Lingering() != 0 || f.h.NumPeers() != 1 {
		t.Fatalf("lingering %d peers %d", f.h.Lingering(), f.h.NumPeers())
	}
}

// Shutdown: each client gets `05 0A C0 <seq> 01 <host ipv4>` (vector
// server_shutdown_disconnect), retransmitted until ACKed, at most 15 s;
// nobody is reported gone before every notice is queued.
func TestHostShutdown(t *testing.T) {
	ip := [4]byte{10, 10, 10, 1}
	f := newHostFixture(t, HostConfig{LocalIP: func(netip.AddrPort) [4]byte { return ip }})
	f.join(5000, "Alice") // low seq 0 reply, 1 own identity relay
	f.in(5000, ackDatagram(2, 1))
	f.msgs(5000, true)
	f.h.Shutdown(f.now)
	want := vectors.MustNamed(t, "transport.json", "server_shutdown_disconnect")
	if got := f.out.Take(); len(got) != 1 || !bytes.Equal(got[0].Data, want) {
		t.Fatalf("shutdown notice %v, want %X", got, want)
	}

	f = newHostFixture(t, HostConfig{LocalIP: func(netip.AddrPort) [4]byte { return ip }})
	f.join(5000, "Alice")
	f.join(5001, "Bob")
	f.msgs(5000, true)
	f.msgs(5001, true)
	queued := 0
	f.ev.onLeft = func(p *Peer, r LeaveReason) {
		if r != LeftShutdown {
			t.Errorf("reason %v", r)
		}
		for _, o := range f.h.peers {
			if o.conn.Queued() > 0 {
				queued++
			}
		}
	}
	f.h.Shutdown(f.now)
	if queued != 4 || len(f.ev.left) != 2 || f.h.Done() {
		t.Fatalf("notices in flight at each Left: %d; left %v", queued, f.ev.left)
	}
	for _, port := range []uint16{5000, 5001} {
		got := f.msgs(port, false)
		if len(got) != 1 || got[0].Type != TypeDisconnect || !bytes.Equal(got[0].Payload, []byte{1, 10, 10, 10, 1}) {
			t.Fatalf("notice to %d: %s", port, kinds(got))
		}
	}
	// A connect that never answered its reply got the notice once and is
	// not waited for.
	f = newHostFixture(t, HostConfig{LocalIP: func(netip.AddrPort) [4]byte { return ip }})
	f.join(5000, "Alice")
	f.in(5009, connectDatagram(9, "")) // no answer ever comes from 5009
	f.msgs(5000, true)
	f.msgs(5009, true)
	f.h.Shutdown(f.now)
	if got := f.msgs(5009, false); len(got) != 1 || got[0].Type != TypeDisconnect {
		t.Fatalf("notice to the unanswered connect: %s", kinds(got))
	}
	if len(f.h.peers) != 1 || f.h.Lingering() != 1 || len(f.ev.left) != 2 {
		t.Fatalf("after shutdown: %d peers, %d lingering, left %v", len(f.h.peers), f.h.Lingering(), f.ev.left)
	}
	f.in(5000, ackDatagram(2, 1, 2))
	f.h.Tick(f.now)
	if !f.h.Done() {
		t.Fatal("shutdown waits for a connect that never answered")
	}

	f = newHostFixture(t, HostConfig{LocalIP: func(netip.AddrPort) [4]byte { return ip }})
	f.join(5000, "Alice")
	f.join(5001, "Bob")
	f.msgs(5000, true)
	f.msgs(5001, true)
	f.h.Shutdown(f.now)
	f.msgs(5000, false)
	f.msgs(5001, false)
	// New connects are ignored now; Alice ACKs, Bob never does.
	f.in(5002, connectDatagram(1, ""))
	f.in(5000, ackDatagram(2, 1, 2, 3))
	f.h.Tick(f.now)
	if f.h.Lingering() != 1 || len(f.out.Take()) != 0 {
		t.Fatalf("lingering %d", f.h.Lingering())
	}
	resent := 0
	for ms := 100; ms < 15000; ms += 100 {
		f.now = t0.Add(time.Duration(ms) * time.Millisecond)
		f.h.Tick(f.now)
		for _, m := range f.msgs(5001, false) {
			if m.Type == TypeDisconnect {
				resent++
			}
		}
		if f.h.Done() {
			t.Fatalf("done at %d ms", ms)
		}
	}
	f.now = t0.Add(15 * time.Second)
	f.h.Tick(f.now)
	if !f.h.Done() || resent < 3 {
		t.Fatalf("done %v after %d retransmissions", f.h.Done(), resent)
	}
}

// The idle keepalive is the single byte 02, unreliable and never ACKed,
// sent after 5 s with nothing sent (transport.md 10.3; vector
// client_idle_keepalive is 02 01 02 from peer 2).
func TestKeepalive(t *testing.T) {
	want := vectors.MustNamed(t, "transport.json", "client_idle_keepalive")
	c := NewConn(Config{}, 2, t0)
	c.Tick(t0.Add(time.Hour))
	if c.Pending(t0.Add(time.Hour)) {
		t.Fatal("keepalive while disabled")
	}
	c = NewConn(Config{}, 2, t0)
	c.SetKeepalive(true)
	c.Tick(t0.Add(4999 * time.Millisecond))
	if c.Pending(t0.Add(4999 * time.Millisecond)) {
		t.Fatal("keepalive before 5 s")
	}
	now := t0.Add(5 * time.Second)
	c.Tick(now)
	if d := c.Flush(now, nil); !bytes.Equal(d, want) {
		t.Fatalf("keepalive %X, want %X", d, want)
	}
	if c.Queued() != 0 || len(c.inflight) != 0 {
		t.Fatal("keepalive waits for an ACK")
	}
	// One per idle interval, however often Tick runs; any other traffic
	// restarts the interval.
	for ms := 5010; ms < 10000; ms += 10 {
		c.Tick(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	if c.Pending(t0.Add(9999 * time.Millisecond)) {
		t.Fatal("second keepalive within 5 s")
	}
	_ = c.Send([]byte{0x2A, 0x20}, false)
	c.Flush(t0.Add(9*time.Second), nil)
	c.Tick(t0.Add(10 * time.Second))
	if c.Pending(t0.Add(10 * time.Second)) {
		t.Fatal("keepalive 1 s after a message")
	}
	c.Tick(t0.Add(14 * time.Second))
	if d := c.Flush(t0.Add(14*time.Second), nil); !bytes.Equal(d, want) {
		t.Fatalf("second keepalive %X", d)
	}
	if c.Stats.Keepalives != 2 {
		t.Fatalf("keepalives %d", c.Stats.Keepalives)
	}
	// Received keepalives are delivered as unreliable type-0x02 messages
	// and never ACKed.
	h := NewConn(Config{}, PeerHost, t0)
	r := &recorder{}
	if err := h.Receive(t0, bytes.Clone(want), r); err != nil {
		t.Fatal(err)
	}
	if h.Pending(t0) {
		t.Fatal("keepalive ACKed")
	}
}
