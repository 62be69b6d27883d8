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

type hostEvents struct {
	refuse   BootReason
	password string // refused with BootRefused when it does not match
	nonces   []uint32
	onConn   func(p *Peer)
	onLeft   func(p *Peer, r LeaveReason)
	veto     func(p *Peer, id Identity) bool
	ids      []Identity
	msgs     [][]byte
	left     []LeaveReason
	leftPeer []byte
	verified []byte
}

func (e *hostEvents) Verified(p *Peer) { e.verified = append(e.verified, p.ID) }

func (e *hostEvents) Admit(_ netip.AddrPort, req *ConnectRequest) BootReason {
	e.nonces = append(e.nonces, req.Nonce)
	if e.refuse != BootNone {
		return e.refuse
	}
	if !req.PasswordMatches(e.password) {
		return BootRefused
	}
	return BootNone
}
func (e *hostEvents) Connected(p *Peer) {
	if e.onConn != nil {
		e.onConn(p)
	}
}
func (e *hostEvents) Identity(p *Peer, id Identity) bool {
	if e.veto != nil && !e.veto(p, id) {
		return false
	}
	e.ids = append(e.ids, id)
	return true
}
func (e *hostEvents) Message(p *Peer, b []byte, rel bool) {
	e.msgs = append(e.msgs, bytes.Clone(b))
}
func (e *hostEvents) Left(p *Peer, r LeaveReason) {
	e.left = append(e.left, r)
	e.leftPeer = append(e.leftPeer, p.ID)
	if e.onLeft != nil {
		e.onLeft(p, r)
	}
}

func enc(b []byte) []byte { c := bytes.Clone(b); alby.Encrypt(c); return c }

func sessionVector(t *testing.T, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "session.json", name)
}

var client1 = netip.MustParseAddrPort("127.0.0.1:50001")

// The join exchange of transport.md 10.1, byte for byte against the
// captured stock datagrams.
func TestHostJoinBytes(t *testing.T) {
	out := &testutil.Wire{Open: alby.Decrypt}
	req0 := sessionVector(t, "checksum_req_round0")
	ev := &hostEvents{onConn: func(p *Peer) { _ = p.Send(req0, true) }}
	h := NewHost(HostConfig{}, ev, out)

	h.HandleDatagram(t0, client1, enc(sessionVector(t, "connect_request")))
	h.Flush(t0)
	got := out.Take()
	if len(got) != 2 {
		t.Fatalf("%d datagrams after connect", len(got))
	}
	if want := sessionVector(t, "connect_reply_with_checksum_round0"); !bytes.Equal(got[0].Data, want) {
		t.Fatalf("connect reply:\n got %X\nwant %X", got[0].Data, want)
	}
	if want := []byte{0x01, 0x01, 0x01, 0x00, 0x00, 0x02}; !bytes.Equal(got[1].Data, want) {
		t.Fatalf("ack of connect: %X", got[1].Data)
	}
	p := h.Peer(2)
	if p == nil || p.Addr != client1 {
		t.Fatal("peer 2 missing")
	}

	// Client: ACK reply, ACK checksum req, identity (low seq 1).
	identity := vectors.MustHex(t, "0016C00100020A0A0AEF430061006400790032000000")
	in := append([]byte{0x02, 0x03, 0x01, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00}, identity...)
	h.HandleDatagram(t0, client1, enc(in))
	h.Flush(t0)
	got = out.Take()
	want := append([]byte{0x01, 0x02, 0x01, 0x01, 0x00, 0x02}, identity...)
	if len(got) != 1 || !bytes.Equal(got[0].Data, want) {
		t.Fatalf("identity relay:\n got %v\nwant %X", got, want)
	}
	if relay := vectors.MustNamed(t, "transport.json", "identity_message_echoed_by_server"); !bytes.Equal(got[0].Data[6:], relay) {
		t.Fatalf("identity relay message %X, want %X", got[0].Data[6:], relay)
	}
	if len(ev.ids) != 1 || ev.ids[0].Name != "Cady2" || p.Name != "Cady2" || ev.ids[0].IP != [4]byte{10, 10, 10, 239} {
		t.Fatalf("identity %+v", ev.ids)
	}

	// Round-0 response reaches the engine.
	h.HandleDatagram(t0, client1, enc(vectors.MustHex(t, "0201321A800000210043E20C7E2FCBAF4D010077B63E3768A7A0F800")))
	if len(ev.msgs) != 1 || ev.msgs[0][0] != 0x21 {
		t.Fatalf("messages %X", ev.msgs)
	}
	h.Flush(t0)
	if got = out.Take(); len(got) != 1 || !bytes.Equal(got[0].Data, []byte{0x01, 0x01, 0x01, 0x00, 0x00, 0x00}) {
		t.Fatalf("ack of round 0: %v", got)
	}

	// Graceful disconnect: ACK with flags 0x02, then Left at once.
	h.HandleDatagram(t0, client1, enc(sessionVector(t, "graceful_disconnect")))
	got = out.Take()
	if len(got) != 1 || !bytes.Equal(got[0].Data, sessionVector(t, "disconnect_ack")) {
		t.Fatalf("disconnect ack %v", got)
	}
	if len(ev.left) != 1 || ev.left[0] != LeftDisconnect || h.Peer(2) != nil || h.NumPeers() != 0 {
		t.Fatalf("left %v", ev.left)
	}
	// The retransmitted disconnect of a removed peer is ACKed again.
	h.HandleDatagram(t0, client1, enc(sessionVector(t, "graceful_disconnect")))
	if got = out.Take(); len(got) != 1 || !bytes.Equal(got[0].Data, sessionVector(t, "disconnect_ack")) {
		t.Fatalf("stale disconnect: %v", got)
	}
}

func TestHostStrangersAndBadIDs(t *testing.T) {
	out := &testutil.Wire{Open: alby.Decrypt}
	ev := &hostEvents{}
	h := NewHost(HostConfig{}, ev, out)
	h.HandleDatagram(t0, client1, enc([]byte{0x02, 0x01, 0x32, 0x06, 0x80, 0x00, 0x00, 0x2A})) // game data, unknown addr
	h.HandleDatagram(t0, client1, []byte{0x02})                                                // too short
	if h.NumPeers() != 0 || h.Stats.Strangers != 1 || h.Stats.Malformed != 1 || len(out.Sent) != 0 {
		t.Fatalf("stats %+v", h.Stats)
	}
	h.HandleDatagram(t0, client1, enc(sessionVector(t, "connect_request")))
	out.Take()
	// A datagram claiming another peer's id is dropped.
	h.HandleDatagram(t0, client1, enc([]byte{0x03, 0x01, 0x32, 0x06, 0x80, 0x00, 0x00, 0x2A}))
	if len(ev.msgs) != 0 || h.Stats.Malformed != 2 {
		t.Fatalf("spoofed id accepted: %+v", h.Stats)
	}
	// A second connect from the joined address is a duplicate: re-ACKed, no new peer.
	h.HandleDatagram(t0, client1, enc(sessionVector(t, "connect_request")))
	h.Flush(t0)
	if h.NumPeers() != 1 || h.Peer(3) != nil {
		t.Fatal("second connect created a peer")
	}
}

// Host and Client over real loopback UDP sockets: connect with a password,
// identity, messages both ways, fragmented messages, idle keepalives.
func TestLoopbackClientHost(t *testing.T) {
	srv, err := Listen("127.0.0.1:0", SocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, err := Listen("127.0.0.1:0", SocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()

	ev := &hostEvents{password: "abc"}
	// Short keepalives so both sides send some while idle.
	cfg := Config{Keepalive: 50 * time.Millisecond}
	h := NewHost(HostConfig{Transport: cfg}, ev, srv)
	ev.onConn = func(p *Peer) { _ = p.Send([]byte{0x20, 0x00}, true) }
	cev := &clientEvents{}
	c := NewClient(cfg, cev, ClientOptions{IP: [4]byte{127, 0, 0, 1}, Name: "Bot", Password: "ABC"}, time.Now())
	if err := c.Connect(); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("0123456789"), 1000) // 10 KB, fragmented
	serverAddr := srv.LocalAddr()
	deadline := time.Now().Add(5 * time.Second)
	buf := make([]byte, 0, MaxDatagram)
	sentBig := false
	for time.Now().Before(deadline) {
		now := time.Now()
		for d := c.Flush(now, buf); d != nil; d = c.Flush(now, buf) {
			alby.Encrypt(d)
			if _, err := cli.WriteToUDPAddrPort(d, serverAddr); err != nil {
				t.Fatal(err)
			}
		}
		if err := cli.Flush(); err != nil {
			t.Fatal(err)
		}
		// One goroutine owns both sockets: each read waits a little.
		pkts, err := srv.Receive(time.Now().Add(5 * time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		for _, pk := range pkts {
			h.HandleDatagram(time.Now(), pk.Addr, pk.Data)
		}
		h.Tick(time.Now())
		if err := srv.Flush(); err != nil {
			t.Fatal(err)
		}
		if pkts, err = cli.Receive(time.Now().Add(5 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		for _, pk := range pkts {
			alby.Decrypt(pk.Data)
			if err := c.Receive(time.Now(), pk.Data); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Tick(time.Now()); err != nil {
			t.Fatal(err)
		}
		if c.State() == ClientConnected && !sentBig && len(ev.ids) == 1 {
			_ = c.Send(big, true)
			_ = c.Send([]byte{0x2A, 0x20}, true)
			sentBig = true
		}
		p := h.Peer(2)
		if len(ev.msgs) == 2 && len(cev.msgs) == 1 && p != nil && p.Stats().KeepalivesIn > 0 && c.Conn().Stats.KeepalivesIn > 0 {
			break
		}
	}
	if len(cev.accepted) != 1 || cev.accepted[0] != 2 || len(ev.ids) != 1 || ev.ids[0].Name != "Bot" {
		t.Fatalf("accepted %v ids %v", cev.accepted, ev.ids)
	}
	if len(ev.msgs) != 2 || !bytes.Equal(ev.msgs[0], big) || !bytes.Equal(ev.msgs[1], []byte{0x2A, 0x20}) {
		t.Fatalf("server got %d messages", len(ev.msgs))
	}
	if len(cev.msgs) != 1 || !bytes.Equal(cev.msgs[0], []byte{0x20, 0x00}) {
		t.Fatalf("client got %X", cev.msgs)
	}
	// Both sides kept the idle link alive with the 1-byte keepalive.
	if p := h.Peer(2); p == nil || p.Stats().KeepalivesIn == 0 || p.Stats().Keepalives == 0 || c.Conn().Stats.KeepalivesIn == 0 {
		t.Fatal("no keepalives exchanged")
	}
}

type clientEvents struct {
	accepted     []byte
	msgs         [][]byte
	booted       []BootReason
	disconnected int
	peers        map[byte]string
	gone         []byte
}

func (e *clientEvents) Accepted(id byte)                { e.accepted = append(e.accepted, id) }
func (e *clientEvents) Message(b []byte, reliable bool) { e.msgs = append(e.msgs, bytes.Clone(b)) }
func (e *clientEvents) Booted(r BootReason)             { e.booted = append(e.booted, r) }
func (e *clientEvents) Disconnected()                   { e.disconnected++ }
func (e *clientEvents) Peer(id byte, name string) {
	if e.peers == nil {
		e.peers = map[byte]string{}
	}
	e.peers[id] = name
}
func (e *clientEvents) PeerGone(id byte) { e.gone = append(e.gone, id); delete(e.peers, id) }

// FuzzHostDatagram throws arbitrary datagrams from several addresses at a
// Host: no panic, bounded peers (verified ones by MaxPeers, unverified ones
// by MaxPending and PendingPerAddr).
func FuzzHostDatagram(f *testing.F) {
	f.Add(vectors.MustHex(f, "FF01030FC000000A0A0AEF5F0A00000000"), uint8(0))
	f.Add(vectors.MustHex(f, "0203050AC00200020A0A0AEF0127000001280000"), uint8(1))
	f.Add([]byte(`\status\`), uint8(2))
	f.Add(vectors.MustHex(f, "FF010315C000000A0A0AEF5F0A00006100620063000000"), uint8(3))
	f.Add(append([]byte{0x02, 0x01}, vectors.MustHex(f, "0016C00100020A0A0AEF430061006400790032000000")...), uint8(0))
	f.Add([]byte{0x02, 0x01, 0x02}, uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, who uint8) {
		h := NewHost(HostConfig{MaxPeers: 4, MaxPending: 3, PendingPerAddr: 2}, &hostEvents{password: "abc"}, &testutil.Wire{Open: alby.Decrypt})
		for i := 0; i < 8; i++ {
			addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(40000+int(who+uint8(i))%6))
			h.HandleDatagram(t0, addr, enc(b))
			h.HandleDatagram(t0, addr, bytes.Clone(b))
			h.Tick(t0.Add(time.Duration(i) * time.Second))
		}
		if len(h.peers)-h.pending > 4 || h.pending > 3 || h.pendingByAddr[netip.MustParseAddr("127.0.0.1")] > 2 {
			t.Fatalf("%d peers, %d unverified", len(h.peers), h.pending)
		}
		if n := len(h.list); n != len(h.peers) {
			t.Fatalf("peer list %d, map %d", n, len(h.peers))
		}
		h.Shutdown(t0.Add(time.Minute))
		h.Tick(t0.Add(2 * time.Minute))
		if !h.Done() {
			t.Fatal("shutdown did not finish")
		}
	})
}

func BenchmarkHostRelayFanout(b *testing.B) {
	out := &discard{}
	ev := &hostEvents{}
	h := NewHost(HostConfig{}, ev, out)
	var peers []*Peer
	for i := 0; i < 16; i++ {
		addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(41000+i))
		h.HandleDatagram(t0, addr, enc(vectors.MustHex(b, "FF01030FC000000A0A0AEF5F0A00000000")))
		p := h.Peer(byte(2 + i))
		h.HandleDatagram(t0, addr, enc(ackDatagram(p.ID, 0))) // answers its reply: a player
		peers = append(peers, p)
	}
	for _, p := range peers {
		if p.closing || !p.Verified() {
			b.Fatalf("peer %d did not join", p.ID)
		}
	}
	h.Flush(t0)
	msg := bytes.Repeat([]byte{0x07}, 25)
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(time.Millisecond)
		for _, p := range peers[1:] {
			_ = p.Send(msg, true)
		}
		h.Flush(now)
		for _, p := range peers { // pretend every peer ACKed
			for _, o := range p.conn.inflight {
				p.conn.pool.put(o)
			}
			p.conn.inflight = p.conn.inflight[:0]
			p.conn.lastRecv = now
		}
	}
	b.ReportMetric(float64(out.n)/float64(b.N), "datagrams/op")
}

type discard struct{ n int }

func (d *discard) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	d.n++
	return len(b), nil
}

var _ = fmt.Sprint

// BenchmarkHostKeepalives measures the idle path: every op, 16 peers that
// heard nothing for 5 s each get the 1-byte keepalive, and each sends one
// back. It must not allocate.
func BenchmarkHostKeepalives(b *testing.B) {
	out := &discard{}
	h := NewHost(HostConfig{Transport: Config{AckSends: 1}}, &hostEvents{}, out)
	var peers []*Peer
	for i := 0; i < 16; i++ {
		addr := netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(41000+i))
		h.HandleDatagram(t0, addr, enc(vectors.MustHex(b, "FF01030FC000000A0A0AEF5F0A00000000")))
		p := h.Peer(byte(2 + i))
		h.HandleDatagram(t0, addr, enc([]byte{p.ID, 1, 0x01, 0x00, 0x00, 0x02})) // ACK of the reply
		peers = append(peers, p)
	}
	h.Flush(t0)
	ka := make([][]byte, len(peers))
	for i, p := range peers {
		ka[i] = enc([]byte{p.ID, 1, TypeKeepalive})
	}
	d := make([]byte, 3)
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(5 * time.Second)
		for i, p := range peers {
			copy(d, ka[i])
			h.HandleDatagram(now, p.Addr, d)
		}
		h.Tick(now)
	}
	if out.n < b.N*16 {
		b.Fatalf("%d keepalives for %d ops", out.n, b.N)
	}
}
