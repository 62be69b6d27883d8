package engine_test

import (
	"bytes"
	"context"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/loadgen"
	"github.com/bcserver/bcserver/internal/vectors"
)

func simVec(t *testing.T, name string) []byte {
	t.Helper()
	return vectors.MustNamed(t, "simulation.json", name)
}

// collect appends a bot's messages to *out until done(*out) holds or
// within passes, and reports whether done held.
func collect(b *bot.Bot, out *[][]byte, within time.Duration, done func([][]byte) bool) bool {
	deadline := time.After(within)
	for !done(*out) {
		select {
		case m := <-b.Inbox():
			*out = append(*out, m.Payload)
		case <-deadline:
			return done(*out)
		}
	}
	return true
}

// hasAll reports whether ms holds every message of want (as many copies).
func hasAll(ms [][]byte, want ...[]byte) bool {
	for _, w := range want {
		n := 0
		for _, m := range ms {
			if bytes.Equal(m, w) {
				n++
			}
		}
		if n == 0 {
			return false
		}
	}
	return true
}

// Three stock-like clients over loopback UDP replay a session built from
// captured payloads; every relayed message reaches each other player once,
// unchanged, and never its sender; chat reaches everyone; the host's own
// StateUpdates carry the owner's movement fields.
func TestUDPThreeClientReplay(t *testing.T) {
	srv := startServer(t, nil)
	a := joinBot(t, srv, "Cady2")
	b := joinBot(t, srv, "Bob")
	c := joinBot(t, srv, "Carol")
	bots := []*bot.Bot{a, b, c}
	akira := simVec(t, "objcreateteam_akira_spawn")  // slot 0, captured
	phaserA := simVec(t, "set_phaser_level_high_p0") // slot 0's ship
	phaserB := simVec(t, "set_phaser_level_low")     // slot 1's ship 0x4003FFFF
	sovB, err := codec.DecodeObjCreate(simVec(t, "objcreateteam_sovereign_collision_test"))
	if err != nil {
		t.Fatal(err)
	}
	sovB.OwnerSlot, sovB.OwnerPlayer, sovB.ObjectID, sovB.Ship.Name = 1, b.ID(), 0x4003FFFF, []byte("Bob")
	shipB := sovB.AppendTo(nil)
	shipC, _ := bot.ShipCreate(2, c.ID(), "Carol")
	ev := func(op byte, factory, code uint32, src, dst int32, tail ...byte) []byte {
		return codec.Event{Op: op, Factory: factory, Code: code, Src: src, Dst: dst, Tail: tail}.AppendTo(nil)
	}
	// A's phaser system (Akira: id offset 20) at B's ship, as a stock client
	// sends it: source 0, the system as destination (opcodes.md 3.2).
	startFiring := ev(codec.OpStartFiring, codec.FactoryStartFiring, 0x008000D8, 0, 0x3FFFFFFF+20, 0xFF, 0xFF, 0x03, 0x40, 0, 0, 0, 0)
	// Captured targeted fire: A's Akira tube 0x4000000D at B's ship, and a
	// bank of A's block at an object of C's block.
	torp := simVec(t, "torpedo_fire_targeted_akira_tube")
	beamA := simVec(t, "beam_fire_targeted")
	beam := codec.PulseFire{CannonID: 0x4003FFFF + 20, FiringPlayer: 2, Dir: codec.Dir3{0, 127, 0}, Flags: codec.PulseArg | codec.PulseHasTarget, Target: 0x3FFFFFFF}.AppendTo(nil)
	state := vectors.MustHex(t, "1CFFFFFF3F0080E1419D0000B042000084C2000092C22137FB0B684630BB5E000001CC02CC04CC")
	type step struct {
		from    *bot.Bot
		payload []byte
		copies  int // the stock client sends some events as a duplicate pair
	}
	steps := []step{
		{a, akira, 1}, {b, shipB, 1}, {c, shipC, 1},
		{a, phaserA, 1}, {b, phaserB, 1},
		{a, startFiring, 2}, // a duplicate pair in one datagram, relayed twice
		{a, torp, 1}, {a, beamA, 1}, {b, beam, 1},
	}
	for _, s := range steps {
		for range s.copies {
			if err := s.from.Send(s.payload, true); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := a.Send(state, false); err != nil {
		t.Fatal(err)
	}
	if err := a.Chat("hello", false); err != nil {
		t.Fatal(err)
	}
	// Each bot ends with a chat line, which the host sends to everyone,
	// its sender included, after everything it relayed from that bot: once
	// a bot holds all three end lines, all relays have reached it.
	var ends [][]byte
	for _, x := range bots {
		if err := x.Chat("end", false); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, codec.Chat{Sender: int32(x.ID()), Text: []byte("end")}.AppendTo(nil))
	}
	got := map[*bot.Bot][][]byte{}
	for _, x := range bots {
		var ms [][]byte
		if !collect(x, &ms, 10*time.Second, func(ms [][]byte) bool { return hasAll(ms, ends...) }) {
			t.Fatalf("bot %d: end lines missing", x.ID())
		}
		got[x] = ms
	}
	count := func(x *bot.Bot, p []byte) int {
		n := 0
		for _, m := range got[x] {
			if bytes.Equal(m, p) {
				n++
			}
		}
		return n
	}
	for i, s := range steps {
		for _, x := range bots {
			want := s.copies
			if x == s.from {
				want = 0
			}
			if n := count(x, s.payload); n != want {
				t.Errorf("step %d (opcode 0x%02X): bot %d got %d copies, want %d", i, s.payload[0], x.ID(), n, want)
			}
		}
	}
	chat := codec.Chat{Sender: int32(a.ID()), Text: []byte("hello")}.AppendTo(nil)
	for _, x := range bots {
		if n := count(x, chat); n != 1 {
			t.Errorf("bot %d got %d chat copies", x.ID(), n)
		}
		if n := count(x, state); n != 0 {
			t.Errorf("owner's StateUpdate forwarded verbatim to bot %d", x.ID())
		}
	}
	// Host-built updates of A's ship reach B and C with A's movement fields
	// (at the next game tick, so they may follow the end lines).
	owner, _ := codec.DecodeStateUpdate(state, nil)
	for _, x := range []*bot.Bot{b, c} {
		ms := got[x]
		found := func(ms [][]byte) bool {
			for _, m := range ms {
				if m[0] != codec.OpStateUpdate {
					continue
				}
				u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
				if err != nil {
					t.Fatalf("bad host update %X: %v", m, err)
				}
				if u.ObjectID == 0x3FFFFFFF && u.Flags&codec.StatePosition != 0 && u.Position == owner.Position &&
					u.Forward == owner.Forward && u.Up == owner.Up && u.Speed == owner.Speed && !u.HasHash {
					return true
				}
			}
			return false
		}
		if !collect(x, &ms, 10*time.Second, found) {
			t.Errorf("bot %d got no host-built update with A's movement", x.ID())
		}
	}
}

// The load generator over real UDP: every message reaches every other bot.
func TestUDPLoadShort(t *testing.T) {
	srv := startServer(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err := loadgen.Run(ctx, loadgen.Config{Servers: []netip.AddrPort{srv.Addr()}, Bots: 4, Rate: 20, Duration: 500 * time.Millisecond,
		StateUpdates: true, Drain: 10 * time.Second, Warmup: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sent == 0 || r.Delivered != r.Expected || r.Duplicates != 0 || len(r.Errors) != 0 {
		t.Fatalf("load: %v", r)
	}
	t.Log(r)
}
