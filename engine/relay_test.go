package engine

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// Every game opcode 0x00..0x2A from an in-game player, with the host's
// behaviour: relayed unchanged to each other player exactly once, consumed,
// left unanswered, or dropped (opcodes.md 2 and 4).
func TestRoutingTable(t *testing.T) {
	akira := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	torp := append([]byte{codec.OpTorpedoFire}, codec.TorpedoFire{TubeID: shipA + 8, FiringPlayer: 2, Flags: 0x05, Dir: codec.Dir3{-33, -121, 17}}.AppendTo(nil)[1:]...)
	beam := codec.PulseFire{CannonID: shipA + 20, FiringPlayer: 2, Dir: codec.Dir3{1, 2, 3}, Flags: codec.PulseArg | codec.PulseHasTarget, Target: 0x4003FFFF}.AppendTo(nil)
	type want int
	const (
		relayed want = iota
		consumed
		dropped
		unanswered
	)
	tests := []struct {
		op      byte
		payload []byte
		want    want
	}{
		{0x00, vec(t, "session.json", "settings"), dropped},
		{0x01, []byte{0x01}, dropped},
		{0x02, append([]byte{0x02, 0x00}, akira[3:]...), relayed},
		{0x03, akira, relayed},
		{0x04, []byte{0x04}, dropped},
		{0x05, []byte{0x05}, dropped},
		{0x06, vec(t, "session.json", "pythonevent_add_to_repair_list"), consumed},
		// The stock StartFiring: source 0, the weapon system as destination,
		// target and aim offset in the tail (opcodes.md 3.2).
		{0x07, eventMsg(0x07, 0x8128, 0x008000D8, 0, shipA+20, 0xFF, 0xFF, 0x03, 0x40, 5, 6, 7, 8), relayed},
		{0x08, eventMsg(0x08, 0x0101, 0x008000DA, 0, shipA+20), relayed},
		{0x09, eventMsg(0x09, 0x010C, 0x008000DC, 0, shipA+20, 0xFF, 0xFF, 0x03, 0x40), relayed},
		{0x0A, eventMsg(0x0A, 0x0104, 0x0080006C, shipA+3, 0, 1), relayed},
		{0x0B, eventMsg(0x0B, 0x0101, 0x008000DF, shipA+3, shipA+14), relayed},
		{0x0C, eventMsg(0x0C, 0x0101, 0x00800001, shipA, 0), relayed},
		{0x0D, eventMsg(0x0D, 0x010C, 0x00800058, shipA, 0, 0xFF, 0xFF, 0x03, 0x40), consumed},
		{0x0E, eventMsg(0x0E, 0x0101, 0x008000E3, shipA, 0), relayed},
		{0x0F, eventMsg(0x0F, 0x0101, 0x008000E5, shipA, 0), relayed},
		{0x10, eventMsg(0x10, 0x812A, 0x008000ED, shipA, 0, append([]byte{6}, []byte("Multi2\x00\x00\x80\x3f\x00\x00\x80\x3f\x00\x00\x80\x3f\x00\x00\x80\x3f")...)...), relayed},
		{0x11, eventMsg(0x11, 0x010C, 0x00800076, shipA+14, 0, 0x02, 0x00, 0x00, 0x40), relayed},
		{0x12, vec(t, "simulation.json", "set_phaser_level_high_p0"), relayed},
		{0x13, []byte{0x13}, consumed},
		{0x14, []byte{0x14, 0xFF, 0xFF, 0xFF, 0x3F}, dropped},
		{0x15, vec(t, "simulation.json", "collision_effect_P1_single_contact"), consumed},
		{0x16, []byte{0x16, 0x21}, dropped},
		{0x17, vec(t, "session.json", "player_joined_event_0x17"), dropped},
		{0x18, []byte{0x18, 0x01, 0x00, 'x'}, dropped},
		{0x19, torp, relayed},
		{0x1A, beam, relayed},
		{0x1B, eventMsg(0x1B, 0x0105, 0x008000FD, shipA+8, 0, 2), relayed},
		{0x1C, vec(t, "session.json", "stateupdate_client_0x9d"), consumed},
		{0x1D, []byte{0x1D, 1, 0, 0, 0}, dropped},
		{0x1E, []byte{0x1E, 0x05, 0x00, 0x00, 0x00}, unanswered},
		{0x1F, []byte{0x1F, 0xFF, 0xFF, 0xFF, 0x3F, 0, 0, 0, 0}, dropped},
		{0x20, vec(t, "session.json", "checksum_req_round0"), dropped},
		{0x21, vec(t, "session.json", "checksum_resp_round0"), consumed},
		{0x22, []byte{0x22, 0x01, 0x00, 'x'}, dropped},
		{0x23, []byte{0x23, 0x01, 0x00, 'x'}, dropped},
		{0x24, []byte{0x24}, dropped},
		{0x25, []byte{0x25, 0x01, 0x00, 'x'}, dropped},
		{0x26, []byte{0x26}, dropped},
		{0x27, []byte{0x27}, consumed},
		{0x28, []byte{0x28}, dropped},
		{0x29, []byte{0x29, 0xFF, 0xFF, 0xFF, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0, 0}, dropped},
		{0x2A, []byte{0x2A, 0x20}, consumed},
	}
	seen := map[byte]bool{}
	for _, tt := range tests {
		seen[tt.op] = true
		t.Run(fmt.Sprintf("0x%02X_%s", tt.op, codec.OpcodeName(tt.op)), func(t *testing.T) {
			l := newLAN(t, DefaultConfig(), "A", "B", "C")
			a := l.cs[0]
			if tt.op != 0x02 && tt.op != 0x03 {
				l.send(a, akira, true) // A's ship exists, so state updates have an object
			}
			dropsBefore := l.g.Stats.RelayDropped.Load()
			got := l.send(a, tt.payload, true)
			only := func(ms [][]byte, op byte) [][]byte {
				var out [][]byte
				for _, m := range ms {
					if m[0] == op {
						out = append(out, m)
					}
				}
				return out
			}
			switch tt.want {
			case relayed:
				if len(only(got[0], tt.op)) != 0 {
					t.Errorf("echoed to the sender")
				}
				for i := 1; i < 3; i++ {
					r := only(got[i], tt.op)
					if len(r) != 1 || !bytes.Equal(r[0], tt.payload) {
						t.Errorf("client %d got %X, want exactly one unchanged copy", i, r)
					}
				}
			case consumed, dropped:
				for i := range got {
					if r := only(got[i], tt.op); len(r) != 0 {
						t.Errorf("client %d got %X", i, r)
					}
				}
				if tt.want == dropped && l.g.Stats.RelayDropped.Load() != dropsBefore+1 {
					t.Errorf("drop not counted")
				}
			case unanswered:
				// An unknown id gets nothing back, least of all a 0x1D
				// (opcodes.md 3.10).
				for i := range got {
					if len(got[i]) != 0 {
						t.Errorf("client %d got %X", i, got[i])
					}
				}
			}
			if !l.g.Player(2).InGame() {
				t.Fatal("sender lost")
			}
		})
	}
	for op := 0; op < codec.MaxMessageTypes; op++ {
		if !seen[byte(op)] {
			t.Errorf("opcode 0x%02X has no routing test", op)
		}
	}
}

// The object a requester asks for comes back as its creation bytes, to the
// requester only; a dying object gets no answer.
func TestRequestObjectAnswer(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	akira := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	l.send(l.cs[0], akira, true)
	req := []byte{0x1E, 0xFF, 0xFF, 0xFF, 0x3F}
	got := l.send(l.cs[1], req, true)
	if len(got[1]) != 1 || !bytes.Equal(got[1][0], akira) || len(got[0]) != 0 {
		t.Fatalf("answer %X / %X", got[1], got[0])
	}
	l.send(l.cs[0], []byte{codec.OpHostMsg}, true) // A self-destructs
	if l.g.Object(shipA).Alive() {
		t.Fatal("self-destruct did not kill")
	}
	got = l.send(l.cs[1], req, true)
	for _, m := range got[1] {
		if bytes.Equal(m, akira) {
			t.Fatal("a dying ship was sent")
		}
	}
}

// Messages acting on another player's objects are dropped and counted;
// repeated violations boot the sender.
func TestSpoofedObjectsDropped(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SpoofLimit = 5
	l := newLAN(t, cfg, "A", "B", "C")
	a, b := l.cs[0], l.cs[1]
	l.send(a, vec(t, "simulation.json", "objcreateteam_akira_spawn"), true)
	spoofs := [][]byte{
		eventMsg(0x07, 0x8128, 0x008000D7, shipA+20, 0, 1, 2, 3, 4, 5, 6, 7, 8), // A's weapon, sent by B
		vec(t, "simulation.json", "set_phaser_level_high_p0"),                   // A's ship
		vec(t, "simulation.json", "objcreateteam_akira_spawn"),                  // claims slot 0
		retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 1, -1), // B's slot byte, A's id
	}
	for i, p := range spoofs {
		got := l.send(b, p, true)
		if len(got[0])+len(got[2]) != 0 {
			t.Fatalf("spoof %d relayed: %X %X", i, got[0], got[2])
		}
	}
	if n := l.g.Stats.Spoofed.Load(); n != 4 {
		t.Fatalf("spoofed %d", n)
	}
	// Spoofed state updates are dropped too, and the fifth violation boots B.
	l.send(b, vec(t, "session.json", "stateupdate_client_0x9d"), false)
	if p := l.g.Player(3); p != nil {
		t.Fatalf("B not booted after %d violations", l.g.Stats.Spoofed.Load())
	}
	if !b.ev.booted || b.ev.boot != bcnet.BootKicked {
		t.Fatalf("boot %v %d", b.ev.booted, b.ev.boot)
	}
	// B's own objects pass.
	l2 := newLAN(t, DefaultConfig(), "A", "B")
	mine := retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 1, 1, 7)
	if got := l2.send(l2.cs[1], mine, true); len(got[0]) != 1 || !bytes.Equal(got[0][0], mine) {
		t.Fatalf("B's own ship not relayed: %X", got[0])
	}
	if l2.g.Object(0x4003FFFF) == nil || l2.g.Player(3).ShipID != 0x4003FFFF {
		t.Fatal("B's ship not recorded")
	}
}

// A late joiner receives the existing ships (their creation bytes), after
// the join sync and before the player-list events; a leaver's ship is
// removed for the others with DestroyObject, 0x17 and 0x18 in that order.
func TestLateJoinerAndLeaver(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	sovB := retarget(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), 1, 1, 7)
	var created []*Object
	l.g.On(EvShipCreated, func(e Event) { created = append(created, e.(*ShipCreated).Ship) })
	l.send(l.cs[0], akiraA, true)
	l.send(l.cs[1], sovB, true)
	if len(created) != 2 || created[0].Species != 1 || created[1].Species != 5 || created[0].NetPlayerID != 2 || created[1].Owner.ID != 3 || created[0].Name != "Cady2" {
		t.Fatalf("ship_created %+v", created)
	}
	var order []string
	l.g.On(EvPlayerJoined, func(Event) { order = append(order, "joined") })
	c := l.join("C")
	var ops []byte
	for _, m := range c.ev.msgs {
		ops = append(ops, m[0])
	}
	i17 := bytes.IndexByte(ops, codec.OpPlayerListEvent)
	i3 := bytes.IndexByte(ops, codec.OpObjCreateTeam)
	if i3 < 0 || i17 < 0 || i3 > i17 {
		t.Fatalf("late joiner message order %X", ops)
	}
	var ships [][]byte
	for _, m := range c.ev.msgs {
		if m[0] == codec.OpObjCreateTeam {
			ships = append(ships, m)
		}
	}
	if len(ships) != 2 || !bytes.Equal(ships[0], akiraA) || !bytes.Equal(ships[1], sovB) {
		t.Fatalf("replicated %X", ships)
	}

	// A leaves.
	var destroyed []int32
	l.g.On(EvObjectDestroyed, func(e Event) { destroyed = append(destroyed, e.(*ObjectDestroyed).Object.ID) })
	marks := []int{len(l.cs[1].ev.msgs), len(l.cs[2].ev.msgs)}
	_ = l.cs[0].c.Disconnect()
	l.pump(nil)
	for i, cl := range []*fakeClient{l.cs[1], l.cs[2]} {
		var seq []byte
		for _, m := range cl.ev.msgs[marks[i]:] {
			if m[0] != codec.OpStateUpdate {
				seq = append(seq, m[0])
			}
		}
		if !bytes.Equal(seq, []byte{0x14, 0x17, 0x18}) {
			t.Fatalf("client %d leave messages %X", i+1, seq)
		}
		d, _ := codec.DecodeDestroyObject(cl.ev.msgs[marks[i]])
		if d.ObjectID != shipA {
			t.Fatalf("destroyed %#x", d.ObjectID)
		}
	}
	if l.g.Object(shipA) != nil || len(destroyed) != 1 || destroyed[0] != shipA {
		t.Fatalf("A's ship still known (%v)", destroyed)
	}
}

func TestFlowLimit(t *testing.T) {
	cfg := DefaultConfig()
	cfg.FlowRate, cfg.FlowBurst, cfg.FlowBoot = 50, 100, 2*time.Second
	l := newLAN(t, cfg, "A", "B")
	a := l.cs[0]
	msg := eventMsg(0x08, 0x0101, 0x008000D9, shipA+20, 0)
	got := 0
	for i := 0; i < 300; i++ {
		_ = a.c.Send(msg, true)
	}
	mark := len(l.cs[1].ev.msgs)
	l.pump(nil)
	for _, m := range l.cs[1].ev.msgs[mark:] {
		if m[0] == 0x08 {
			got++
		}
	}
	if got != 100 || l.g.Stats.Throttled.Load() != 200 {
		t.Fatalf("relayed %d, throttled %d", got, l.g.Stats.Throttled.Load())
	}
	// Keep flooding: booted after FlowBoot.
	for s := 0; s < 30 && l.g.Player(2) != nil; s++ {
		l.now = l.now.Add(100 * time.Millisecond)
		for i := 0; i < 50; i++ {
			_ = a.c.Send(msg, true)
		}
		l.pump(nil)
	}
	if l.g.Player(2) != nil || l.g.Player(3) == nil {
		t.Fatal("flooder not booted, or the wrong player")
	}
}
