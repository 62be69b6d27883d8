package engine

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/net/alby"
)

// connectFrom sends one connect request from addr, as a client that
// never answers would.
func connectFrom(g *Game, now time.Time, addr netip.AddrPort, nonce uint32) {
	m := bcnet.Message{Type: bcnet.TypeConnect, Reliable: true, Priority: true, HasSeq: true,
		Payload: bcnet.AppendConnect(nil, [4]byte{10, 0, 0, 1}, nonce, "")}
	d := bcnet.AppendMessage([]byte{bcnet.PeerUnassigned, 1}, &m)
	alby.Encrypt(d)
	g.HandleDatagram(now, addr, d)
}

// A flood of connects that never answer the reply, from one address and
// from 100 spoofed ones, takes no player slot: missions never hear of
// them, the browser count stays at the real players, and real joiners get
// in until the game is really full.
func TestConnectFloodTakesNoSlot(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.MaxPlayers = 3
	g := newTestGame(t, cfg, w)
	connected := 0
	g.On(EvPlayerConnected, func(Event) { connected++ })
	now := t0
	flood := func(round int) {
		for i := 0; i < 100; i++ {
			connectFrom(g, now, netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i / 200), byte(1 + i%200)}), 5000), uint32(round*1000+i+1))
		}
		for i := 0; i < 30; i++ {
			connectFrom(g, now, netip.AddrPortFrom(netip.AddrFrom4([4]byte{203, 0, 113, 9}), uint16(10000+round*30+i)), uint32(i+1))
		}
		g.Flush(now)
	}
	for round := 0; round < 3; round++ {
		flood(round)
		if g.NumPlayers(false) != round {
			t.Fatalf("round %d: %d players hold slots", round, g.NumPlayers(false))
		}
		c := newFakeClient(t, g, w, uint16(7000+round), fmt.Sprint("Real", round))
		c.now = now
		c.pump(vanillaAnswer(t))
		if p := g.Player(c.ev.accepted); p == nil || !p.InGame() || c.ev.booted {
			t.Fatalf("round %d: the real joiner did not get in (booted %v)", round, c.ev.booted)
		}
		now = now.Add(time.Second)
		g.Advance(now)
	}
	if connected != 3 {
		t.Fatalf("missions heard of %d connects, want the 3 real ones", connected)
	}
	// Now the game is really full: the next real joiner hears so.
	flood(9)
	c := newFakeClient(t, g, w, 7100, "Late")
	c.now = now
	c.pump(nil)
	if !c.ev.booted || c.ev.boot != bcnet.BootFull {
		t.Fatalf("joiner past the limit: booted %v reason %d", c.ev.booted, c.ev.boot)
	}
	// Left alone, the flood's leftovers are forgotten.
	now = now.Add(11 * time.Second)
	g.Advance(now)
	if n := g.host.NumPeers(); n != 3 {
		t.Fatalf("%d transport peers after the flood, want the 3 players", n)
	}
}

// With JoinsPerAddress set, one address cannot hold more slots with
// unfinished joins than that.
func TestJoinsPerAddress(t *testing.T) {
	w := &testutil.Wire{Open: alby.Decrypt}
	cfg := DefaultConfig()
	cfg.JoinsPerAddress = 2
	g := newTestGame(t, cfg, w)
	var cs []*fakeClient
	for i := 0; i < 3; i++ {
		c := newFakeClient(t, g, w, uint16(7000+i), fmt.Sprint("P", i))
		c.now = t0
		c.pump(nil) // answer nothing: the joins stay unfinished
		cs = append(cs, c)
	}
	if cs[0].ev.booted || cs[1].ev.booted || !cs[2].ev.booted || cs[2].ev.boot != bcnet.BootFull {
		t.Fatalf("boots: %v %v %v", cs[0].ev.booted, cs[1].ev.booted, cs[2].ev.booted)
	}
	if g.NumPlayers(false) != 2 {
		t.Fatalf("%d players", g.NumPlayers(false))
	}
}
