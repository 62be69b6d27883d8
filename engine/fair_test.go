package engine

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
)

// fairLAN is simLAN with cfg: player A flies the captured Sovereign, B an
// Akira, and A has reported a first position.
func fairLAN(t *testing.T, mutate func(*Config)) (*lan, *[]*Violation) {
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	l := newLAN(t, cfg, "A", "B")
	l.send(l.cs[0], vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), true)
	l.send(l.cs[1], retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 1, 1, 7), true)
	var got []*Violation
	l.g.On(EvViolation, func(e Event) { got = append(got, e.(*Violation)) })
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	return l, &got
}

// later moves the lan's clock on.
func (l *lan) later(d time.Duration) { l.now = l.now.Add(d) }

// A ship that jumps is judged a teleport: the update is dropped (the host
// keeps the old position, so nobody sees the jump), counted by rule, and
// the violation event says what happened.
func TestFairTeleportDropped(t *testing.T) {
	l, got := fairLAN(t, nil)
	l.later(100 * time.Millisecond)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0.8, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.later(100 * time.Millisecond)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 900, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	if pos, _ := l.g.Object(shipA).Position(); pos != [3]float32{0, 0.8, 0} {
		t.Fatalf("the jump was taken: %v", pos)
	}
	if n := l.g.Stats.Violations[fairplay.Teleport].Load(); n != 1 || len(*got) != 1 {
		t.Fatalf("%d teleports counted, %d events", n, len(*got))
	}
	v := (*got)[0]
	if v.Rule != fairplay.Teleport || v.Action != fairplay.ActDrop || v.Player.ID != l.cs[0].ev.accepted || v.Object != shipA || v.Count != 1 || v.Score != 1 {
		t.Fatalf("event %+v", v)
	}
	if l.g.Player(l.cs[0].ev.accepted).Violations() != 1 {
		t.Fatal("not booked on the player")
	}
}

// A handler may decide itself: a mission that sets the action to log
// lets the update through.
func TestFairHandlerDecides(t *testing.T) {
	l, _ := fairLAN(t, nil)
	l.g.On(EvViolation, func(e Event) { e.(*Violation).Action = fairplay.ActLog })
	l.later(100 * time.Millisecond)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 900, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	if pos, _ := l.g.Object(shipA).Position(); pos != [3]float32{0, 900, 0} {
		t.Fatalf("logged only, yet dropped: %v", pos)
	}
}

// Each message type has its rate: a burst of subsystem toggles beyond the
// class's depth (100) is refused, and the rest relayed.
func TestFairRate(t *testing.T) {
	l, got := fairLAN(t, nil)
	relayed := l.g.Stats.Relayed.Load()
	msg := eventMsg(codec.OpSubsystemStatus, 0x0105, 0x0080006C, shipA+3, 0, 1)
	for range 120 {
		if err := l.cs[0].c.Send(msg, true); err != nil {
			t.Fatal(err)
		}
	}
	l.pump(nil)
	if n := l.g.Stats.Violations[fairplay.Rate].Load(); n != 20 || l.g.Stats.Relayed.Load()-relayed != 100 {
		t.Fatalf("%d rate violations (want 20), %d relayed (want 100)", n, l.g.Stats.Relayed.Load()-relayed)
	}
	if v := (*got)[0]; v.Opcode != codec.OpSubsystemStatus || v.Detail() != "control messages beyond 20 a second (burst 100)" {
		t.Fatalf("event %+v: %s", v, v.Detail())
	}
}

// Escalation: with kick at a score of 2.9, the third teleport in a row boots the
// player; with ban at 1, the first keeps the address out for ban_for.
func TestFairKickAndBan(t *testing.T) {
	jump := func(l *lan, n int) {
		for k := range n {
			l.later(100 * time.Millisecond)
			l.send(l.cs[0], moveMsg(shipA, [3]float32{0, float32(1000 * (k + 1)), 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
		}
	}
	l, _ := fairLAN(t, func(c *Config) { c.FairPlay.Policy.Rules[fairplay.Teleport].Kick = 2.9 }) // three in a row: the score decays a little between them
	jump(l, 2)
	if l.cs[0].ev.booted {
		t.Fatal("kicked at a score of 2")
	}
	jump(l, 1)
	if !l.cs[0].ev.booted || l.cs[0].ev.boot != bcnet.BootKicked {
		t.Fatalf("not kicked at 3: booted %v reason %d", l.cs[0].ev.booted, l.cs[0].ev.boot)
	}

	l, _ = fairLAN(t, func(c *Config) {
		c.FairPlay.Policy.Rules[fairplay.Teleport].Ban = 1
		c.FairPlay.Policy.Rules[fairplay.Teleport].BanFor = time.Minute
	})
	jump(l, 1)
	if !l.cs[0].ev.booted || l.cs[0].ev.boot != bcnet.BootBanned {
		t.Fatalf("not banned: booted %v reason %d", l.cs[0].ev.booted, l.cs[0].ev.boot)
	}
	again := func() *fakeClient {
		c := newFakeClient(t, l.g, l.w, 7000, "A2")
		c.now = l.now
		l.cs = append(l.cs, c)
		l.pump(vanillaAnswer(t))
		return c
	}
	if c := again(); !c.ev.booted || c.ev.boot != bcnet.BootBanned {
		t.Fatalf("back within the ban: booted %v reason %d", c.ev.booted, c.ev.boot)
	}
	l.later(61 * time.Second)
	l.g.Advance(l.now)
	if c := again(); c.ev.booted || l.g.Player(c.ev.accepted) == nil {
		t.Fatalf("still banned after ban_for: reason %d", c.ev.boot)
	}
}

// With the rules off nothing is judged.
func TestFairOff(t *testing.T) {
	l, got := fairLAN(t, func(c *Config) { c.FairPlay.Off = true })
	l.later(100 * time.Millisecond)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 900, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	if pos, _ := l.g.Object(shipA).Position(); pos != [3]float32{0, 900, 0} || len(*got) != 0 {
		t.Fatalf("judged with the rules off: %v, %d events", pos, len(*got))
	}
}

// BenchmarkRouteStateUpdate is one owner StateUpdate through the game
// (flow and rate limits, decode, judgement, the world's use of it), with
// the fair-play rules on and off: the difference is the movement check's
// cost per update. Positions move 0.5 units every 100 ms, as a ship at 5
// GU/s reports them.
func BenchmarkRouteStateUpdate(b *testing.B) {
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "fairplay=on", true: "fairplay=off"}[off], func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.FairPlay.Off = off
			l := newLAN(&testing.T{}, cfg, "A", "B")
			l.send(l.cs[0], vec(b, "simulation.json", "objcreateteam_sovereign_collision_test"), true)
			p := l.g.Player(l.cs[0].ev.accepted)
			msg := moveMsg(shipA, [3]float32{}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
			now := l.now
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				now = now.Add(100 * time.Millisecond)
				l.g.now = now
				// Out and back along +Y at 5 GU/s, never a jump.
				y := float32(i % 2000)
				if y > 1000 {
					y = 2000 - y
				}
				y *= 0.5
				binary.LittleEndian.PutUint32(msg[14:], math.Float32bits(y))
				l.g.gameMessage(p, msg, false)
			}
		})
	}
}

// BenchmarkRoutePulseFire is one PulseFire through the game, judged (the
// cannon's charge and arc) and launched, with the rules on and off. The
// cannon recharges between bolts as a ship's does between ticks, so the
// bolt is always plausible.
func BenchmarkRoutePulseFire(b *testing.B) {
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "fairplay=on", true: "fairplay=off"}[off], func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.FairPlay.Off = off
			cfg.FlowRate, cfg.FlowBytes = 0, 0
			cfg.FairPlay.RateScale = 1e9
			l := newLAN(&testing.T{}, cfg, "A", "B")
			raw, err := bot.SpawnFrom(l.g.Ships(), 0, l.cs[0].ev.accepted, "A", 8, shipA)
			if err != nil {
				b.Fatal(err)
			}
			l.send(l.cs[0], raw, true)
			l.send(l.cs[0], moveMsg(shipA, [3]float32{}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
			o := l.g.Object(shipA)
			i, _ := o.Model.Class().SubsystemIndex("Port Cannon 1")
			cannon := o.Model.SubsystemID(i)
			msg := codec.PulseFire{CannonID: cannon, FiringPlayer: 2, Dir: codec.Dir3{0, 127, 0}, Flags: codec.PulseArg}.AppendTo(nil)
			p := l.g.Player(l.cs[0].ev.accepted)
			now := l.now
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				// 12 s: the cannon has a bolt's charge again.
				now = now.Add(12 * time.Second)
				l.g.now = now
				l.g.world.Tick(now)
				l.g.route(p, msg, true)
			}
			b.StopTimer()
			if n := l.g.Stats.WeaponRejected.Load(); n != 0 {
				b.Fatalf("%d bolts refused", n)
			}
		})
	}
}
