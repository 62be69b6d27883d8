package engine

import (
	"bytes"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// The world's model has its own tests (engine/world). These run it through
// the engine over the fake wire: the routing table hands it the right
// messages from the right sender, its messages reach the players, its
// events reach the bus, and its timers run on the game clock.

// simLAN is a lan whose first player flies the captured Sovereign (slot 0,
// 0x3FFFFFFF) and the others Akiras.
func simLAN(t *testing.T, names ...string) *lan {
	l := newLAN(t, DefaultConfig(), names...)
	l.send(l.cs[0], vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), true)
	for i := 1; i < len(l.cs); i++ {
		l.send(l.cs[i], retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), i, 1, 7), true)
	}
	return l
}

const akiraB = int32(0x4003FFFF) // slot 1's first object

func collisionMsg(src, target int32, force float32, contacts ...codec.CollisionContact) []byte {
	var cs []byte
	for _, c := range contacts {
		cs = codec.AppendContact(cs, c)
	}
	return codec.CollisionEffect{Code: codec.EventObjectCollision, Src: src, Target: target, Contacts: cs, Force: force}.AppendTo(nil)
}

func moveMsg(id int32, pos [3]float32, fwd, up codec.Dir3) []byte {
	return codec.StateUpdate{ObjectID: id, Flags: codec.StatePosition | codec.StateForward | codec.StateUp, Position: pos, Forward: fwd, Up: up}.AppendTo(nil)
}

func filterOp(ms [][]byte, op byte) [][]byte {
	var out [][]byte
	for _, m := range ms {
		if m[0] == op {
			out = append(out, m)
		}
	}
	return out
}

// A collision report is consumed, applied by the world (counted in the
// game's stats) and its repair event reaches every player; a report about
// ships that are not the sender's counts as spoofing.
func TestCollisionOverTheWire(t *testing.T) {
	l := simLAN(t, "A", "B")
	ship := l.g.Object(shipA)
	shields := ship.Shields()
	// The environment strikes A's Sovereign astern: 1.0 × 900 + 500 =
	// 1,400 to every subsystem near the contact (the aft tractor), none to
	// the shields.
	ram := collisionMsg(0, shipA, 100, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 200})
	got := l.send(l.cs[0], ram, true)
	if n := len(filterOp(got[1], codec.OpCollisionEffect)); n != 0 {
		t.Fatal("collision report relayed")
	}
	if l.g.Stats.Collisions.Load() != 1 || ship.Shields() != shields {
		t.Fatalf("collision not applied (dropped %d) or shields hit", l.g.Stats.CollisionsDropped.Load())
	}
	for i := range l.cs {
		rep := filterOp(got[i], codec.OpPythonEvent)
		if len(rep) == 0 {
			t.Fatalf("client %d: no repair events", i)
		}
		for _, r := range rep {
			ev, _ := codec.DecodeSubsystemEvent(r)
			if k, ok := ship.Model.SubsystemIndex(ev.Src); ev.Code != codec.EventAddToRepairList || !ok || ship.Model.Condition(k) >= ship.Model.Class().Subsystems[k].MaxCondition {
				t.Fatalf("repair event %+v", ev)
			}
		}
	}
	got = l.send(l.cs[1], collisionMsg(shipA, shipA+1, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}), true)
	if l.g.Stats.Spoofed.Load() != 1 || len(got[0]) != 0 {
		t.Fatal("foreign collision report not refused")
	}
}

// Self-destruct over the wire: zero-health StateUpdates first, then the
// captured ObjectExploding bytes, no Explosion, ship_destroyed on the bus;
// the later repair events come from a game timer.
func TestSelfDestructOverTheWire(t *testing.T) {
	l := simLAN(t, "A", "B")
	var deaths []*ShipDestroyed
	l.g.On(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	got := l.send(l.cs[0], []byte{codec.OpHostMsg}, true)
	ms := got[1]
	var firstState, exploding int = -1, -1
	repairs := 0
	for i, m := range ms {
		switch {
		case m[0] == codec.OpStateUpdate && firstState < 0:
			if u, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd); err == nil && u.ObjectID == shipA {
				firstState = i
			}
		case m[0] == codec.OpPythonEvent && bytes.Equal(m, vec(t, "simulation.json", "object_exploding_self_destruct")):
			exploding = i
		case m[0] == codec.OpPythonEvent:
			repairs++
		}
	}
	if firstState < 0 || exploding < 0 || firstState > exploding {
		t.Fatalf("order: state %d exploding %d in %X", firstState, exploding, ms)
	}
	if repairs == 0 || repairs > 4 || len(filterOp(ms, codec.OpExplosion)) != 0 {
		t.Fatalf("%d repair events, explosions %d", repairs, len(filterOp(ms, codec.OpExplosion)))
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseSelfDestruct || deaths[0].KillerID != 0 || deaths[0].Lifetime != 9.5 {
		t.Fatalf("deaths %+v", deaths)
	}
	mark := len(l.cs[1].ev.msgs)
	l.now = l.now.Add(9600 * time.Millisecond)
	l.g.Advance(l.now)
	l.pump(nil)
	later := len(filterOp(l.cs[1].ev.msgs[mark:], codec.OpPythonEvent))
	if later < 1 || repairs+later > 6 {
		t.Fatalf("later repair events %d", later)
	}
	if got := l.send(l.cs[0], []byte{codec.OpHostMsg}, true); len(filterOp(got[1], codec.OpPythonEvent)) != 0 || len(deaths) != 1 {
		t.Fatal("wreck self-destructed twice")
	}
}

// The captured targeted TorpedoFire is relayed unchanged to the others
// (never echoed) and its torpedo flies in the host's world, landing after
// its flight time with the photon's 500 points. A stock client's phaser
// fire — StartFiring 0x07 with source 0 and the weapon system as
// destination — is relayed too (it used to be dropped as spoofed), and
// the host's copy of the system beams until the target dies: weapon_hit
// before ship_destroyed, ObjectExploding then Explosion, credit to the
// shooter (simulation.md 5.5, Corrections 28, 39).
func TestWeaponsOverTheWire(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	l.send(l.cs[0], akiraA, true)
	l.send(l.cs[1], retarget(akiraA, 1, 1, 7), true)
	torp := vec(t, "simulation.json", "torpedo_fire_targeted_akira_tube")
	m, err := codec.DecodeTorpedoFire(torp)
	if err != nil {
		t.Fatal(err)
	}
	// B sits 40 units away along the captured launch direction.
	x, y, z := m.Dir.Vector()
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, m.Dir, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{40 * x, 40 * y, 40 * z}, m.Dir, codec.Dir3{0, 0, 127}), false)
	var order []string
	var hits []*WeaponHit
	var fired []*WeaponFired
	var deaths []*ShipDestroyed
	l.g.On(EvWeaponFired, func(e Event) { fired = append(fired, e.(*WeaponFired)) })
	l.g.On(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)); order = append(order, "hit") })
	l.g.On(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)); order = append(order, "destroyed") })
	got := l.send(l.cs[0], torp, true)
	if n := len(filterOp(got[1], codec.OpTorpedoFire)); n != 1 || !bytes.Equal(filterOp(got[1], codec.OpTorpedoFire)[0], torp) {
		t.Fatalf("torpedo relayed %d times to B", n)
	}
	if n := len(filterOp(got[0], codec.OpTorpedoFire)); n != 0 {
		t.Fatal("torpedo echoed to its sender")
	}
	if len(fired) != 1 || fired[0].Shooter != l.g.Player(2) || fired[0].Target != akiraB || fired[0].Kind != world.KindTorpedo || len(hits) != 0 {
		t.Fatalf("weapon_fired %+v, %d hits at once", fired, len(hits))
	}
	for range 30 { // 40 units at 19 units/s
		l.now = l.now.Add(100 * time.Millisecond)
		l.g.Advance(l.now)
	}
	if len(hits) != 1 || hits[0].ShooterID != 2 || hits[0].Target.ID != akiraB || hits[0].Damage != 500 || hits[0].Kind != world.KindTorpedo {
		t.Fatalf("weapon_hit %+v (rejected %d)", hits, l.g.Stats.WeaponRejected.Load())
	}
	// Phasers: the stock StartFiring, relayed byte for byte. B's ship is
	// worn down first (hull at 600, shield generator destroyed), so the
	// beams kill it within a few seconds.
	b := l.g.Object(akiraB)
	b.Model.SetHull(600)
	b.Model.SetCondition(b.Model.Class().ShieldGenerator, 0)
	sf := codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet,
		Dst: l.g.Object(shipA).Model.SubsystemID(mustSub(t, l.g.Object(shipA), "Phasers")), Target: akiraB}.AppendTo(nil)
	order = nil
	got = l.send(l.cs[0], sf, true)
	if n := filterOp(got[1], codec.OpStartFiring); len(n) != 1 || !bytes.Equal(n[0], sf) {
		t.Fatalf("StartFiring relayed %X", n)
	}
	if l.g.Stats.Spoofed.Load() != 0 {
		t.Fatal("StartFiring with source 0 counted as spoofed")
	}
	var after [][]byte
	for i := 0; i < 300 && len(deaths) == 0; i++ {
		mark := len(l.cs[1].ev.msgs)
		l.now = l.now.Add(100 * time.Millisecond)
		l.g.Advance(l.now)
		l.pump(nil)
		after = append(after, l.cs[1].ev.msgs[mark:]...)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseWeapon || deaths[0].KillerID != 2 || deaths[0].Kind != world.KindPhaser ||
		order[len(order)-1] != "destroyed" || order[len(order)-2] != "hit" {
		t.Fatalf("deaths %+v, last events %v", deaths, order[max(0, len(order)-3):])
	}
	iExp, iBoom := -1, -1
	for i, m := range after {
		if m[0] == codec.OpPythonEvent {
			if ev, err := codec.DecodeObjectExploding(m); err == nil && ev.Dst == akiraB {
				iExp = i
				if ev.Src != 0 || ev.FiringPlayer != 2 || ev.Lifetime != 9.5 {
					t.Fatalf("ObjectExploding %+v", ev)
				}
			}
		}
		if m[0] == codec.OpExplosion {
			iBoom = i
		}
	}
	if iExp < 0 || iBoom < iExp {
		t.Fatalf("death messages out of order: exploding %d explosion %d", iExp, iBoom)
	}
}

// mustSub returns the index of o's subsystem called name.
func mustSub(t *testing.T, o *Object, name string) int {
	t.Helper()
	i, ok := o.Model.Class().SubsystemIndex(name)
	if !ok {
		t.Fatalf("no %q", name)
	}
	return i
}

// The integrity policy: log counts the mismatch, boot also boots the
// sender with reason 4.
func TestIntegrityHash(t *testing.T) {
	for _, policy := range []IntegrityPolicy{IntegrityLog, IntegrityBoot} {
		cfg := DefaultConfig()
		cfg.Integrity = policy
		l := newLAN(t, cfg, "A", "B")
		l.send(l.cs[0], vec(t, "simulation.json", "objcreateteam_akira_spawn"), true)
		l.send(l.cs[0], vec(t, "session.json", "stateupdate_client_0x9d"), false) // the stock Akira hash
		if l.g.Stats.IntegrityMismatches.Load() != 0 {
			t.Fatal("stock hash refused")
		}
		l.send(l.cs[1], retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 1, 1, 7), true)
		bad := retarget(vec(t, "session.json", "stateupdate_client_0x9d"), 1, -1, 1)
		bad[23] ^= 0x55 // the hash
		l.send(l.cs[1], bad, false)
		if l.g.Stats.IntegrityMismatches.Load() != 1 {
			t.Fatalf("%s: mismatch not counted", policy)
		}
		if booted := l.g.Player(3) == nil; booted != (policy == IntegrityBoot) {
			t.Fatalf("%s: booted %v", policy, booted)
		}
		if policy == IntegrityBoot && l.cs[1].ev.boot != bcnet.BootKicked {
			t.Fatal("wrong boot reason")
		}
	}
}

// The host builds its own StateUpdates on the game tick: the owner's
// movement fields go to the others, the subsystem block goes to everyone;
// the owner's packet is never forwarded, and a client's subsystem-only
// update is refused (the resend rules are the world's: engine/world).
func TestHostBuiltStateUpdates(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	l.send(l.cs[0], vec(t, "simulation.json", "objcreateteam_akira_spawn"), true)
	up := vec(t, "session.json", "stateupdate_client_0x9d")
	got := l.send(l.cs[0], up, false)
	for _, ms := range got {
		for _, m := range ms {
			if bytes.Equal(m, up) {
				t.Fatal("owner update forwarded verbatim")
			}
		}
	}
	l.now = l.now.Add(150 * time.Millisecond)
	l.g.Advance(l.now)
	l.pump(nil)
	last := func(c *fakeClient) codec.StateUpdate {
		t.Helper()
		for i := len(c.ev.msgs) - 1; i >= 0; i-- {
			if m := c.ev.msgs[i]; m[0] == codec.OpStateUpdate {
				s, err := codec.DecodeStateUpdate(m, codec.SubsystemsToEnd)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}
		t.Fatal("no state update")
		return codec.StateUpdate{}
	}
	owner, _ := codec.DecodeStateUpdate(up, nil)
	b := last(l.cs[1])
	want := codec.StatePosition | codec.StateForward | codec.StateUp | codec.StateSpeed | codec.StateSubsystems
	if b.ObjectID != shipA || b.Flags != uint8(want) || b.Position != owner.Position || b.Forward != owner.Forward ||
		b.Up != owner.Up || b.Speed != owner.Speed || b.HasHash || len(b.Weapons) != 0 {
		t.Fatalf("B's update %+v, owner's %+v", b, owner)
	}
	a := last(l.cs[0])
	if a.ObjectID != shipA || a.Flags != codec.StateSubsystems {
		t.Fatalf("owner's update %+v", a)
	}
	// A subsystem-only update from a client is refused.
	drops := l.g.Stats.RelayDropped.Load()
	l.send(l.cs[0], vec(t, "session.json", "stateupdate_server_0x20"), false)
	if l.g.Stats.RelayDropped.Load() != drops+1 {
		t.Fatal("client 0x20-only update accepted")
	}
}

// PlayerOf finds the player behind an object: the owner of a player ship,
// nobody for a host object or after the owner left.
func TestPlayerOf(t *testing.T) {
	l := simLAN(t, "A", "B")
	a, ship := l.g.Player(2), l.g.Object(shipA)
	if l.g.PlayerOf(ship) != a || l.g.ShipOf(a) != ship || l.g.PlayerOf(nil) != nil {
		t.Fatalf("PlayerOf(A's ship) = %v", l.g.PlayerOf(ship))
	}
	if l.g.PlayerOf(&Object{ID: 0x1000}) != nil {
		t.Fatal("a host object has a player")
	}
	_ = l.cs[0].c.Disconnect()
	l.pump(nil)
	if l.g.PlayerOf(ship) != nil || l.g.Object(shipA) != nil {
		t.Fatal("a departed owner still owns the ship")
	}
}

// A weapon message nobody subscribed to weapon_fired for allocates
// nothing on its way to the world's model: a repeated StartFiring (stock
// clients send it in pairs), and a targeted torpedo the model refuses
// (the tube is still reloading).
func TestWeaponEventNoAlloc(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	l.send(l.cs[0], akiraA, true)
	l.send(l.cs[1], retarget(akiraA, 1, 1, 7), true)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 40, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	p := l.g.Player(2)
	ship := l.g.Object(shipA).Model
	start := codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet,
		Dst: ship.SubsystemID(mustSub(t, l.g.Object(shipA), "Phasers")), Target: akiraB}.AppendTo(nil)
	torp := vec(t, "simulation.json", "torpedo_fire_targeted_akira_tube")
	for _, m := range [][]byte{start, torp} {
		if n := testing.AllocsPerRun(50, func() { checkAndApply(l.g, p, m) }); n != 0 {
			t.Errorf("opcode %#02x: %v allocations per message", m[0], n)
		}
	}
	if l.g.Stats.WeaponRejected.Load() == 0 {
		t.Fatal("the repeated torpedo was not refused: the test did not reach the model")
	}
}

// checkAndApply runs a message's routing-table row without the relay: its
// check (which decodes it) and its apply.
func checkAndApply(g *Game, p *Player, m []byte) {
	in := &g.in
	in.payload, in.reliable = m, true
	if r := routes[m[0]]; r.check(g, p, in) {
		r.apply(g, p, in)
	}
}
