package engine

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// messagesTo returns the non-ACK messages on the wire to port, in order,
// and removes those datagrams from the wire.
func messagesTo(t *testing.T, w *testutil.Wire, port uint16) []bcnet.Message {
	t.Helper()
	var out []bcnet.Message
	var keep []testutil.Datagram
	for _, s := range w.Sent {
		if s.To.Port() != port {
			keep = append(keep, s)
			continue
		}
		_, ms, err := bcnet.ParseDatagram(s.Data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.Type != bcnet.TypeAck && m.Type != bcnet.TypeKeepalive {
				out = append(out, m)
			}
		}
	}
	w.Sent = keep
	return out
}

func twoInGame(t *testing.T, cfg Config, opts Options) (*Game, *testutil.Wire, *fakeClient, *fakeClient) {
	w := &testutil.Wire{Open: alby.Decrypt}
	opts.Config, opts.Out, opts.Now = cfg, w, t0
	g, err := NewGame(opts)
	if err != nil {
		t.Fatal(err)
	}
	a := newFakeClient(t, g, w, 5001, "Alice")
	a.pump(vanillaAnswer(t))
	b := newFakeClient(t, g, w, 5002, "Bob")
	b.pump(vanillaAnswer(t))
	a.pump(nil)
	if g.NumPlayers(true) != 2 {
		t.Fatal("not both in game")
	}
	return g, w, a, b
}

// The transport notice of a departure (a relayed 0x05, or a reason-1 boot
// on a timeout) reaches the others before the game-layer leave messages
// (transport.md 10.4, handshake.md 5).
func TestLeaveNoticeBeforeLeaveMessages(t *testing.T) {
	for _, tc := range []struct {
		name   string
		leave  func(g *Game, b *fakeClient)
		notice bcnet.Message
	}{
		{"graceful", func(g *Game, b *fakeClient) { _ = b.c.Disconnect(); b.pump(nil) },
			bcnet.Message{Type: bcnet.TypeDisconnect, Payload: []byte{3, 127, 0, 0, 1}}},
		{"timeout", func(g *Game, b *fakeClient) { g.Advance(t0.Add(45 * time.Second)) },
			bcnet.Message{Type: bcnet.TypeBoot, Payload: []byte{byte(bcnet.BootTimedOut), 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Transport.Keepalive = time.Hour
			g, w, a, b := twoInGame(t, cfg, Options{})
			messagesTo(t, w, 5001)
			if tc.name == "timeout" {
				// Alice stays alive; Bob goes silent.
				a.now = t0.Add(44 * time.Second)
				_ = a.c.Send([]byte{codec.OpChat, 2, 0, 0, 0, 1, 0, 'x'}, true)
				a.pump(nil)
				messagesTo(t, w, 5001)
			}
			tc.leave(g, b)
			got := messagesTo(t, w, 5001)
			if len(got) != 3 || got[0].Type != tc.notice.Type || !bytes.Equal(got[0].Payload, tc.notice.Payload) ||
				got[1].Payload[0] != codec.OpPlayerListEvent || got[2].Payload[0] != codec.OpDeletePlayerAnim {
				t.Fatalf("to alice: %+v", got)
			}
			if g.NumPlayers(false) != 1 {
				t.Fatal("bob still there")
			}
		})
	}
}

// At shutdown each client gets `05 0A C0 <seq> 01 <host ipv4>` and nothing
// about the others; the notices are retransmitted until ACKed, at most
// 15 s (transport.md 10.4).
func TestShutdownNotices(t *testing.T) {
	ip := func(netip.AddrPort) [4]byte { return [4]byte{10, 10, 10, 1} }
	g, w, a, b := twoInGame(t, DefaultConfig(), Options{LocalIP: ip})
	a.pump(nil)
	b.pump(nil)
	w.Sent = nil
	var left []LeaveReason
	g.On(EvPlayerLeft, func(e Event) { left = append(left, e.(*PlayerLeft).Reason) })
	now := t0.Add(time.Second)
	g.Shutdown(now)
	sent := append([]testutil.Datagram(nil), w.Sent...)
	for _, port := range []uint16{5001, 5002} {
		got := messagesTo(t, w, port)
		if len(got) != 1 || got[0].Type != bcnet.TypeDisconnect || !bytes.Equal(got[0].Payload, []byte{1, 10, 10, 10, 1}) {
			t.Fatalf("to %d: %+v", port, got)
		}
	}
	if len(left) != 2 || left[0] != LeaveShutdown || g.NumPlayers(false) != 0 || g.ShutdownDone() || g.host.Lingering() != 2 {
		t.Fatalf("left %v players %d", left, g.NumPlayers(false))
	}
	// Alice's client ends its session and ACKs; Bob's never answers.
	w.Sent = sent[:0]
	for _, s := range sent {
		if s.To == a.addr {
			w.Sent = append(w.Sent, s)
		}
	}
	a.now = now
	a.pump(nil)
	if !a.ev.disconnected || a.c.State() != bcnet.ClientClosed || g.host.Lingering() != 1 {
		t.Fatalf("alice: disconnected %v lingering %d", a.ev.disconnected, g.host.Lingering())
	}
	for ms := 0; ms < 15000; ms += 250 {
		g.ShutdownStep(now.Add(time.Duration(ms) * time.Millisecond))
		if g.ShutdownDone() {
			t.Fatalf("done at %d ms", ms)
		}
	}
	g.ShutdownStep(now.Add(15 * time.Second))
	if !g.ShutdownDone() {
		t.Fatal("not done after 15 s")
	}
	for _, m := range messagesTo(t, w, 5002) {
		if m.Type != bcnet.TypeDisconnect {
			t.Fatalf("bob got %+v during the shutdown", m)
		}
	}
}
