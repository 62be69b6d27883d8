package net

import (
	"bytes"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/internal/vectors"
	"github.com/bcserver/bcserver/net/alby"
)

// hostFixture drives a Host with hand-made client datagrams on a fake
// clock.
type hostFixture struct {
	t   *testing.T
	h   *Host
	out *testutil.Wire
	ev  *hostEvents
	now time.Time
}

// newHostFixture's clients all come from 127.0.0.1 at one instant, so the
// stranger limits are off unless the test sets them.
func newHostFixture(t *testing.T, cfg HostConfig) *hostFixture {
	if cfg.StrangerRate == 0 && cfg.StrangerBurst == 0 && cfg.StrangerTotal == 0 {
		cfg.StrangerRate, cfg.StrangerBurst, cfg.StrangerTotal = -1, -1, -1
	}
	out := &testutil.Wire{Open: alby.Decrypt}
	ev := &hostEvents{}
	return &hostFixture{t: t, h: NewHost(cfg, ev, out), out: out, ev: ev, now: t0}
}

func addr(port uint16) netip.AddrPort {
	return netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), port)
}

func ctlDatagram(from, typ byte, seq uint16, payload []byte) []byte {
	m := Message{Type: typ, Reliable: true, Priority: true, HasSeq: true, Seq: seq, Payload: payload}
	return AppendMessage([]byte{from, 1}, &m)
}

func connectDatagram(nonce uint32, password string) []byte {
	return ctlDatagram(PeerUnassigned, TypeConnect, 0, AppendConnect(nil, [4]byte{127, 0, 0, 1}, nonce, password))
}

func identityPayload(id byte, name string) []byte {
	return AppendIdentity(nil, Identity{PeerID: id, IP: [4]byte{127, 0, 0, 1}, Name: name})
}

func ackDatagram(from byte, seqs ...uint16) []byte {
	d := []byte{from, byte(len(seqs))}
	for _, s := range seqs {
		d = AppendMessage(d, &Message{Type: TypeAck, Seq: s, Low: true})
	}
	return d
}

// in feeds one plaintext datagram from port and flushes.
func (f *hostFixture) in(port uint16, plain []byte) {
	f.h.HandleDatagram(f.now, addr(port), enc(plain))
	f.h.Flush(f.now)
}

// join connects a client from port and returns its peer; the connect
// reply is ACKed so only later traffic stays in flight.
func (f *hostFixture) join(port uint16, name string) *Peer {
	f.t.Helper()
	f.in(port, connectDatagram(uint32(port), ""))
	p := f.h.peers[addr(port)]
	if p == nil {
		f.t.Fatalf("no peer from port %d", port)
	}
	f.in(port, ackDatagram(p.ID, 0))
	if name != "" {
		f.in(port, ctlDatagram(p.ID, TypeData, 1, identityPayload(p.ID, name)))
	}
	return p
}

// msgs returns the messages sent to port since the last call (ACKs
// left out unless acks is set), and forgets everything sent.
func (f *hostFixture) msgs(port uint16, acks bool) []Message {
	var out []Message
	var rest []testutil.Datagram
	for _, s := range f.out.Sent {
		if s.To != addr(port) {
			rest = append(rest, s)
			continue
		}
		_, ms, err := ParseDatagram(s.Data, nil)
		if err != nil {
			f.t.Fatalf("bad datagram to %d: %X", port, s.Data)
		}
		for _, m := range ms {
			if acks || m.Type != TypeAck {
				out = append(out, m)
			}
		}
	}
	f.out.Sent = rest
	return out
}

func kinds(ms []Message) string {
	s := ""
	for _, m := range ms {
		s += fmt.Sprintf("%02X:%X ", m.Type, m.Payload)
	}
	return s
}

func TestHostRefusals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		refuse   BootReason
		password string
		sent     string
		want     []byte
	}{
		{"banned", BootBanned, "", "", []byte{0x01, 0x01, 0x04, 0x07, 0xC0, 0x00, 0x00, 0x05, 0xFF}},
		{"wrong password", BootNone, "secret", "wrong", vectors.MustNamed(t, "transport.json", "server_refuses_wrong_password")},
		{"missing password", BootNone, "secret", "", vectors.MustNamed(t, "transport.json", "server_refuses_wrong_password")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHostFixture(t, HostConfig{})
			f.ev.refuse, f.ev.password = tc.refuse, tc.password
			for i := 0; i < 2; i++ { // a retransmitted connect is judged again
				f.in(5000, connectDatagram(9, tc.sent))
				got := f.out.Take()
				if len(got) != 1 || !bytes.Equal(got[0].Data, tc.want) {
					t.Fatalf("refusal %d: %v, want %X", i, got, tc.want)
				}
			}
			if f.h.NumPeers() != 0 || len(f.h.peers) != 0 || f.h.Stats.Refused != 2 {
				t.Fatalf("peers %d stats %+v", len(f.h.peers), f.h.Stats)
			}
		})
	}
	// The right password, in any A..Z case, is admitted.
	f := newHostFixture(t, HostConfig{})
	f.ev.password = "Secret"
	f.in(5000, connectDatagram(9, "sECRET"))
	if f.h.NumPeers() != 1 {
		t.Fatal("right password refused")
	}
	// Refusals to strangers are budgeted: a flood gets a bounded answer.
	f = newHostFixture(t, HostConfig{})
	f.ev.refuse = BootBanned
	for i := 0; i < 1000; i++ {
		f.in(uint16(10000+i), connectDatagram(1, ""))
	}
	if n := len(f.out.Take()); n != refusalBurst || f.h.Stats.RefusalsDropped != uint64(1000-refusalBurst) {
		t.Fatalf("%d refusals sent, %d dropped", n, f.h.Stats.RefusalsDropped)
	}
	f.now = f.now.Add(time.Second)
	f.in(9999, connectDatagram(1, ""))
	if len(f.out.Take()) != 1 {
		t.Fatal("budget did not refill")
	}
}

// Wire ids are next-fit over 2..126 (transport.md 2.2).
func TestHostWireIDsNextFit(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	a := f.join(5000, "")
	b := f.join(5001, "")
	if a.ID != 2 || b.ID != 3 {
		t.Fatalf("ids %d %d", a.ID, b.ID)
	}
	f.in(5000, ctlDatagram(2, TypeDisconnect, 1, []byte{2, 127, 0, 0, 1}))
	if a2 := f.join(5000, ""); a2.ID != 4 {
		t.Fatalf("rejoin got id %d, want 4", a2.ID)
	}
	// Fill every id: the cursor wraps and skips the ids in use.
	f = newHostFixture(t, HostConfig{})
	for i := 0; i < 125; i++ {
		if p := f.join(uint16(6000+i), ""); p.ID != byte(2+i) {
			t.Fatalf("peer %d got id %d", i, p.ID)
		}
	}
	f.out.Take()
	f.in(7000, connectDatagram(1, ""))
	got := f.out.Take()
	if len(got) != 1 || !bytes.Equal(got[0].Data, []byte{0x01, 0x01, 0x04, 0x07, 0xC0, 0x00, 0x00, 0x03, 0xFF}) {
		t.Fatalf("126th connect: %v", got)
	}
	f.in(6003, ctlDatagram(5, TypeDisconnect, 1, []byte{5, 127, 0, 0, 1}))
	f.in(6010, ctlDatagram(12, TypeDisconnect, 1, []byte{12, 127, 0, 0, 1}))
	if p := f.join(7000, ""); p.ID != 5 {
		t.Fatalf("after the wrap got id %d, want 5", p.ID)
	}
	if p := f.join(7001, ""); p.ID != 12 {
		t.Fatalf("next got id %d, want 12", p.ID)
	}
	// MaxPeers bounds the transport below the id space.
	f = newHostFixture(t, HostConfig{MaxPeers: 1})
	f.join(5000, "")
	f.in(5001, connectDatagram(1, ""))
	if f.h.NumPeers() != 1 || f.h.Stats.Refused != 1 {
		t.Fatalf("peers %d refused %d", f.h.NumPeers(), f.h.Stats.Refused)
	}
}

// Every identity is relayed to every peer, the sender included; a newcomer
// gets one per other peer after the connect reply (transport.md 10.2).
func TestHostIdentityRelay(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	f.join(5000, "Alice")
	if got := f.msgs(5000, false); len(got) != 2 || got[1].Type != TypeData || got[1].Seq != 1 || !bytes.Equal(got[1].Payload, identityPayload(2, "Alice")) {
		t.Fatalf("alice's relay: %s", kinds(got))
	}
	// Bob: reply, then Alice's identity; his own goes to both.
	f.in(5001, connectDatagram(7, ""))
	got := f.msgs(5001, false)
	if len(got) != 2 || got[0].Type != TypeConnect || got[1].Type != TypeData || !bytes.Equal(got[1].Payload, identityPayload(2, "Alice")) {
		t.Fatalf("bob at connect: %s", kinds(got))
	}
	f.in(5001, ctlDatagram(3, TypeData, 1, identityPayload(3, "Bob")))
	for _, port := range []uint16{5000, 5001} {
		if got := f.msgs(port, false); len(got) != 1 || !bytes.Equal(got[0].Payload, identityPayload(3, "Bob")) {
			t.Fatalf("bob's relay to %d: %s", port, kinds(got))
		}
	}
	// A rename is relayed again; an unchanged copy is not.
	f.in(5000, ctlDatagram(2, TypeData, 2, identityPayload(2, "Alice (2)")))
	f.in(5000, ctlDatagram(2, TypeData, 3, identityPayload(2, "Alice (2)")))
	for _, port := range []uint16{5000, 5001} {
		if got := f.msgs(port, false); len(got) != 1 || !bytes.Equal(got[0].Payload, identityPayload(2, "Alice (2)")) {
			t.Fatalf("rename relay to %d: %s", port, kinds(got))
		}
	}
	if p := f.h.Peer(2); p.Name != "Alice (2)" {
		t.Fatalf("name %q", p.Name)
	}
	// An identity naming another peer, a malformed one, and one the owner
	// vetoes are not relayed.
	f.ev.veto = func(p *Peer, id Identity) bool { return id.Name != "Bob" }
	f.in(5000, ctlDatagram(2, TypeData, 4, identityPayload(3, "Eve")))
	f.in(5000, ctlDatagram(2, TypeData, 5, []byte{2, 1, 2, 3}))
	f.in(5000, ctlDatagram(2, TypeData, 6, identityPayload(2, "Bob")))
	if got := f.msgs(5001, false); len(got) != 0 || f.h.Stats.BadIdentity != 2 || f.h.Peer(2).Name != "Alice (2)" {
		t.Fatalf("relayed %s, stats %+v", kinds(got), f.h.Stats)
	}
	// Identity changes are rate limited.
	f.ev.veto = nil
	for i := 0; i < 10; i++ {
		f.in(5000, ctlDatagram(2, TypeData, uint16(7+i), identityPayload(2, fmt.Sprint("A", i))))
	}
	// Three changes so far: "Alice", "Alice (2)" and the vetoed "Bob".
	if got := f.msgs(5001, false); len(got) != identityBurst-3 {
		t.Fatalf("%d relays in a burst", len(got))
	}
}

// A graceful leaver's 0x05 is ACKed and relayed to the others before the
// owner's leave messages (transport.md 10.4).
func TestHostGracefulLeaveRelay(t *testing.T) {
	f := newHostFixture(t, HostConfig{})
	f.join(5000, "Alice")
	f.join(5001, "Bob")
	f.msgs(5000, false)
	f.msgs(5001, false)
	f.ev.onLeft = func(p *Peer, r LeaveReason) { _ = f.h.Peer(3).Send([]byte{0x17}, true) }
	// A hostile 0x05 naming the host: the relay still names the leaver.
	f.in(5000, ctlDatagram(2, TypeDisconnect, 2, []byte{1, 10, 10, 10, 239}))
	got := f.msgs(5000, true)
	if len(got) != 1 || got[0].Type != TypeAck || got[0].Seq != 2 || !got[0].Low {
		t.Fatalf("to the leaver: %s", kinds(got))
	}
	got = f.msgs(5001, false)
	if len(got) != 2 || got[0].Type != TypeDisconnect || !bytes.Equal(got[0].Payload, []byte{2, 10, 10, 10, 239}) || got[1].Type != TypeGame {
		t.Fatalf("to the others: %s", kinds(got))
	}
	if len(f.ev.left) != 1 || f.ev.left[0] != LeftDisconnect || f.h.NumPeers() != 1 {
		t.Fatalf("left %v", f.ev.left)
	}
}

// 45 s of silence: the others get `04 07 C0 <seq> 01 <id>` before the
// owner's leave messages (vector server_timeout_boot_notice).
func TestHostTimeout(t *testing.T) {
	f := newHostFixture(t, HostConfig{Transport: Config{Keepalive: time.Hour, AckSends: 1}})
	f.join(5000, "Alice") // id 2
	f.join(5001, "")      // id 3: low seq 0 reply, 1 Alice's identity
	f.in(5001, ackDatagram(3, 1))
	f.out.Take()
	f.ev.onLeft = func(p *Peer, r LeaveReason) { _ = f.h.Peer(3).Send([]byte{0x17}, true) }
	for s := 1; s <= 45; s++ {
		f.now = t0.Add(time.Duration(s) * time.Second)
		f.in(5001, []byte{3, 1, TypeKeepalive}) // peer 3 stays alive on keepalives alone
		f.h.Tick(f.now)
		if s < 45 && len(f.ev.left) != 0 {
			t.Fatalf("left at %d s", s)
		}
	}
	if len(f.ev.left) != 1 || f.ev.left[0] != LeftTimeout || f.ev.leftPeer[0] != 2 || f.h.NumPeers() != 1 {
		t.Fatalf("left %v %v", f.ev.left, f.ev.leftPeer)
	}
	want := vectors.MustNamed(t, "transport.json", "server_timeout_boot_notice")
	var to3 [][]byte
	for _, s := range f.out.Take() {
		if s.To == addr(5001) {
			to3 = append(to3, s.Data)
		}
	}
	if len(to3) != 1 || !bytes.HasPrefix(to3[0], []byte{0x01, 0x02}) || !bytes.Equal(to3[0][2:9], want[2:]) || to3[0][9] != TypeGame {
		t.Fatalf("to peer 3: %X, want the notice %X then the game message", to3, want)
	}
}

// The host sends 02 to a peer it sent nothing to for 5 s, and takes 02 as
// a sign of life without answering it.
func TestHostKeepalive(t *testing.T) {
	f := newHostFixture(t, HostConfig{Transport: Config{AckSends: 1}})
	f.join(5000, "")
	f.out.Take()
	f.now = t0.Add(4 * time.Second)
	f.h.Tick(f.now)
	if got := f.out.Take(); len(got) != 0 {
		t.Fatalf("sent before 5 s: %v", got)
	}
	f.now = t0.Add(5 * time.Second)
	f.h.Tick(f.now)
	if got := f.out.Take(); len(got) != 1 || !bytes.Equal(got[0].Data, []byte{0x01, 0x01, 0x02}) {
		t.Fatalf("keepalive %v", got)
	}
	f.in(5000, vectors.MustNamed(t, "transport.json", "client_idle_keepalive"))
	if got := f.out.Take(); len(got) != 0 {
		t.Fatalf("keepalive answered: %v", got)
	}
}
