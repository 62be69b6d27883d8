package net

import (
	"bytes"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/vectors"
)

// hostDatagram builds a datagram from the host holding msgs.
func hostDatagram(msgs ...Message) []byte {
	d := []byte{PeerHost, byte(len(msgs))}
	for i := range msgs {
		d = AppendMessage(d, &msgs[i])
	}
	return d
}

func ctl(typ byte, seq uint16, payload []byte) Message {
	return Message{Type: typ, Reliable: true, Priority: true, HasSeq: true, Seq: seq, Payload: payload}
}

func TestClientSession(t *testing.T) {
	ev := &clientEvents{}
	c := NewClient(Config{AckSends: 1}, ev, ClientOptions{IP: [4]byte{10, 10, 10, 239}, Name: "Cady2", Password: "abc", Nonce: 0x0A5F}, t0)
	if err := c.Connect(); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Flush(t0, nil), vectors.MustNamed(t, "transport.json", "client_connect_request_with_password"); !bytes.Equal(got, want) {
		t.Fatalf("connect %X, want %X", got, want)
	}
	// No keepalive while connecting: the connect is retransmitted instead.
	c.Tick(t0.Add(6 * time.Second))
	for d := c.Flush(t0.Add(6*time.Second), nil); d != nil; d = c.Flush(t0.Add(6*time.Second), nil) {
		if bytes.Contains(d, []byte{TypeKeepalive}) && len(d) == 3 {
			t.Fatal("keepalive before the reply")
		}
	}
	now := t0.Add(7 * time.Second)
	// Reply (id 2), then the host's relays: Bob's identity, ours.
	_ = c.Receive(now, hostDatagram(ctl(TypeConnect, 0, []byte{2}), ctl(TypeData, 1, identityPayload(3, "Bob"))))
	_ = c.Receive(now, hostDatagram(ctl(TypeData, 2, AppendIdentity(nil, Identity{PeerID: 2, IP: [4]byte{10, 10, 10, 239}, Name: "Cady2"}))))
	if c.State() != ClientConnected || c.ID() != 2 || len(ev.accepted) != 1 || ev.peers[3] != "Bob" || len(ev.peers) != 1 {
		t.Fatalf("state %v id %d peers %v", c.State(), c.ID(), ev.peers)
	}
	d := c.Flush(now, nil)
	_, ms, err := ParseDatagram(d, nil)
	if err != nil || ms[len(ms)-1].Type != TypeData || !bytes.Equal(ms[len(ms)-1].Payload, vectors.MustHex(t, "020A0A0AEF430061006400790032000000")) {
		t.Fatalf("identity %X (%v)", d, err)
	}
	// Adopting a rename re-sends the identity.
	_ = c.SetName("Cady2 (2)")
	_, ms, _ = ParseDatagram(c.Flush(now, nil), nil)
	if id, err := ParseIdentity(ms[0].Payload); err != nil || id.Name != "Cady2 (2)" || c.Name() != "Cady2 (2)" {
		t.Fatalf("renamed identity %+v %v", id, err)
	}
	// Idle for 5 s once the host has ACKed everything: the single byte 02
	// from peer 2.
	lowAck := func(seq uint16) Message { return Message{Type: TypeAck, Seq: seq, Low: true} }
	_ = c.Receive(now, hostDatagram(lowAck(0), lowAck(1), lowAck(2)))
	c.Tick(now.Add(5 * time.Second))
	if got := c.Flush(now.Add(5*time.Second), nil); !bytes.Equal(got, vectors.MustNamed(t, "transport.json", "client_idle_keepalive")) {
		t.Fatalf("keepalive %X", got)
	}
	// Others leave: a relayed 0x05, a boot naming Bob.
	_ = c.Receive(now, hostDatagram(ctl(TypeDisconnect, 3, []byte{3, 1, 2, 3, 4})))
	_ = c.Receive(now, hostDatagram(ctl(TypeData, 4, identityPayload(5, "Eve")), ctl(TypeBoot, 5, []byte{1, 5})))
	if len(ev.gone) != 2 || ev.gone[0] != 3 || ev.gone[1] != 5 || len(c.Peers()) != 0 || c.State() != ClientConnected {
		t.Fatalf("gone %v peers %v", ev.gone, c.Peers())
	}
	// The host's shutdown notice ends the session; it is still ACKed.
	c.Flush(now, nil)
	notice := bytes.Clone(vectors.MustNamed(t, "transport.json", "server_shutdown_disconnect"))
	notice[5] = 6 // the vector's seq 2 is taken here: next low seq
	_ = c.Receive(now, notice)
	if c.State() != ClientClosed || ev.disconnected != 1 || len(ev.booted) != 0 {
		t.Fatalf("after shutdown: state %v disconnected %d", c.State(), ev.disconnected)
	}
	if got := c.Flush(now, nil); !bytes.Equal(got, []byte{0x02, 0x01, 0x01, 0x06, 0x00, 0x02}) {
		t.Fatalf("ACK of the shutdown notice %X", got)
	}
	c.Tick(now.Add(time.Minute))
	if got := c.Flush(now.Add(time.Minute), nil); got != nil {
		t.Fatalf("traffic after the session ended: %X", got)
	}
}

func TestClientRefused(t *testing.T) {
	ev := &clientEvents{}
	c := NewClient(Config{}, ev, ClientOptions{Name: "X"}, t0)
	_ = c.Connect()
	if c.Nonce() < 1 || c.Nonce() > 32767 {
		t.Fatalf("nonce %d", c.Nonce())
	}
	_ = c.Receive(t0, vectors.MustNamed(t, "transport.json", "server_refuses_wrong_password"))
	if c.State() != ClientClosed || len(ev.booted) != 1 || ev.booted[0] != BootRefused {
		t.Fatalf("state %v booted %v", c.State(), ev.booted)
	}
}
