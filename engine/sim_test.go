package engine

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

func TestCollisionDamageFormula(t *testing.T) {
	tests := []struct {
		name     string
		force    float32
		mass     float32
		contacts int
		want     float32
		ok       bool
	}{
		{"spec example: Sovereign, one contact", 1281.02, 100, 1, 12029.18, true},
		{"two contacts share the force", 1281.02, 100, 2, 6264.59, true},
		{"dead zone", 1.0, 100, 1, 0, false},
		{"just above the dead zone", 1.1, 100, 1, 509.9, true},
		{"no contacts", 1000, 100, 0, 0, false},
		{"negative force", -5, 100, 1, 0, false},
		{"NaN force", float32(math.NaN()), 100, 1, 0, false},
		{"no cap", 100000, 1, 1, 90000500, true},
	}
	for _, tt := range tests {
		got, ok := CollisionDamage(tt.force, tt.mass, tt.contacts)
		if ok != tt.ok || math.Abs(float64(got-tt.want)) > float64(tt.want)*1e-4+0.01 {
			t.Errorf("%s: got %v %v, want %v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestFacing(t *testing.T) {
	tests := []struct {
		v    [3]float32
		want int
	}{
		{[3]float32{0.1, 0.99, 0}, facingFront},
		{[3]float32{0, -1, 0.2}, facingRear},
		{[3]float32{0.1, 0.2, 0.9}, facingTop},
		{[3]float32{0, 0, -1}, facingBottom},
		{[3]float32{-1, 0, 0}, facingLeft},
		{[3]float32{0.9, 0.1, 0}, facingRight},
	}
	for _, tt := range tests {
		if got := facing(tt.v); got != tt.want {
			t.Errorf("facing(%v) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

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

// The captured single-contact collision on the captured Sovereign: the
// front shield absorbs 11,000 of the 12,029 points and the rest reaches the
// hull; the report is consumed.
func TestCollisionOnCapturedSovereign(t *testing.T) {
	l := simLAN(t, "A", "B")
	ship := l.g.Object(shipA)
	if ship == nil || ship.Model == nil || ship.Model.Class().Name != "Sovereign" {
		t.Fatalf("ship %+v", ship)
	}
	got := l.send(l.cs[0], vec(t, "simulation.json", "collision_effect_P1_single_contact"), true)
	if n := len(filterOp(got[1], codec.OpCollisionEffect)); n != 0 {
		t.Fatal("collision report relayed")
	}
	if l.g.Stats.Collisions.Load() != 1 {
		t.Fatalf("collision not applied: dropped %d", l.g.Stats.CollisionsDropped.Load())
	}
	sh := ship.Shields()
	if sh[facingFront] != 0 || sh[facingRear] != 5500 {
		t.Fatalf("shields %v", sh)
	}
	hull := l.g.hp(ship.Model, ship.Model.Class().Hull)
	want := float32(12000 - (12029.18 - 11000))
	if math.Abs(float64(hull-want)) > 1 {
		t.Fatalf("hull %v, want %v", hull, want)
	}
	// The hull was hit: its repair is announced to everyone with the
	// subsystem ids of the owner's block.
	for i := range l.cs {
		rep := filterOp(got[i], codec.OpPythonEvent)
		if len(rep) != 1 {
			t.Fatalf("client %d repair events %X", i, rep)
		}
		ev, _ := codec.DecodeSubsystemEvent(rep[0])
		if ev.Code != codec.EventAddToRepairList || ev.Src != ship.Model.SubsystemID(ship.Model.Class().Hull) || ev.Dst != ship.Model.SubsystemID(ship.Model.Class().Repair) {
			t.Fatalf("repair event %+v", ev)
		}
	}
	// A second report inside the cooldown does nothing.
	l.send(l.cs[0], vec(t, "simulation.json", "collision_effect_P1_single_contact"), true)
	if l.g.Stats.Collisions.Load() != 1 || l.g.Stats.CollisionsDropped.Load() != 1 {
		t.Fatal("cooldown not enforced")
	}
}

// Ramming the environment until death produces the captured stock
// ObjectExploding bytes (source 0, firing player 0, lifetime 12.9), no
// Explosion, and ship_destroyed with cause environment.
func TestEnvironmentCollisionDeath(t *testing.T) {
	l := simLAN(t, "A", "B")
	var deaths []*ShipDestroyed
	l.g.On(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	report := vec(t, "simulation.json", "collision_effect_P1_single_contact")
	var all [][]byte
	for i := 0; i < 20 && len(deaths) == 0; i++ {
		l.now = l.now.Add(1100 * time.Millisecond)
		got := l.send(l.cs[0], report, true)
		all = append(all, got[1]...)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseEnvironment || deaths[0].KillerID != 0 || deaths[0].Victim.ID != shipA {
		t.Fatalf("deaths %+v", deaths)
	}
	exploding := filterOp(all, codec.OpPythonEvent)
	last := exploding[len(exploding)-1]
	if !bytes.Equal(last, vec(t, "simulation.json", "object_exploding_collision_kill")) {
		t.Fatalf("ObjectExploding %X", last)
	}
	if len(filterOp(all, codec.OpExplosion)) != 0 {
		t.Fatal("Explosion sent for a collision kill")
	}
	// Further reports about the wreck are dropped; after the explosion's
	// lifetime the wreck is gone; a new ship replaces it.
	before := l.g.Stats.Collisions.Load()
	l.now = l.now.Add(2 * time.Second)
	l.send(l.cs[0], report, true)
	if l.g.Stats.Collisions.Load() != before {
		t.Fatal("wreck took damage")
	}
	l.now = l.now.Add(13 * time.Second)
	l.g.Advance(l.now)
	if l.g.Object(shipA) != nil {
		t.Fatal("wreck not removed after its lifetime")
	}
	respawn := bytes.Clone(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"))
	copy(respawn[7:], []byte{0x21, 0x00, 0x00, 0x40}) // id 0x40000021, as in the stock respawn
	l.send(l.cs[0], respawn, true)
	if o := l.g.Object(0x40000021); o == nil || !o.Alive() || l.g.Player(2).ShipID != 0x40000021 || o.Model.Hull() != o.Model.Class().Subsystems[o.Model.Class().Hull].MaxCondition {
		t.Fatalf("respawn %+v", o)
	}
}

// Ship against ship: the reporter's ship and the other ship both take
// damage from one report; the other side's report of the same collision
// hits the cooldown; a death credits the other ship's owner.
func TestShipCollisionKillCredit(t *testing.T) {
	l := simLAN(t, "A", "B")
	akiraB := int32(0x4003FFFF)
	near := [3]float32{0, 0, 0}
	l.send(l.cs[0], moveMsg(shipA, near, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 6, 0}, codec.Dir3{0, -127, 0}, codec.Dir3{0, 0, 127}), false)
	var deaths []*ShipDestroyed
	l.g.On(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	a, b := l.g.Object(shipA), l.g.Object(akiraB)
	hullA0, hullB0 := a.Model.Hull(), b.Model.Hull()
	// B reports A ramming it (target = B's ship, source = A's).
	l.send(l.cs[1], collisionMsg(shipA, akiraB, 200, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}), true)
	// A reports the same collision: cooldown.
	l.send(l.cs[0], collisionMsg(akiraB, shipA, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}), true)
	if l.g.Stats.Collisions.Load() != 1 {
		t.Fatalf("collisions %d", l.g.Stats.Collisions.Load())
	}
	if a.Model.Hull() >= hullA0 && a.Shields()[facingFront] >= a.Model.Class().ShieldHP[facingFront] {
		t.Fatal("A took no damage")
	}
	if b.Shields()[facingRear] >= b.Model.Class().ShieldHP[facingRear] && b.Model.Hull() >= hullB0 {
		t.Fatal("B took no damage")
	}
	// A report from A claiming to be the source against B's ship is the
	// duplicate the other party sends: dropped.
	drops := l.g.Stats.CollisionsDropped.Load()
	l.send(l.cs[0], collisionMsg(shipA, akiraB, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}), true)
	if l.g.Stats.CollisionsDropped.Load() != drops+1 {
		t.Fatal("source-side duplicate not dropped")
	}
	// B reports a collision between two ships that are not its own.
	l.send(l.cs[1], collisionMsg(shipA, shipA+1, 200, codec.CollisionContact{Dir: codec.Dir3{0, 127, 0}, Dist: 216}), true)
	if l.g.Stats.Spoofed.Load() != 1 {
		t.Fatal("foreign collision report not refused")
	}
	for i := 0; i < 40 && len(deaths) == 0; i++ {
		l.now = l.now.Add(1100 * time.Millisecond)
		l.send(l.cs[1], collisionMsg(shipA, akiraB, 20000, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}), true)
	}
	if len(deaths) == 0 {
		t.Fatal("nobody died")
	}
	d := deaths[0]
	killer := 2
	if d.Victim.ID == shipA {
		killer = 3
	}
	if d.Cause != CauseCollision || d.KillerID != killer {
		t.Fatalf("death %+v", d)
	}
	// Far apart ships cannot collide.
	l2 := simLAN(t, "A", "B")
	l2.send(l2.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l2.send(l2.cs[1], moveMsg(akiraB, [3]float32{500, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l2.send(l2.cs[1], collisionMsg(shipA, akiraB, 5000, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 216}), true)
	if l2.g.Stats.Collisions.Load() != 0 {
		t.Fatal("collision across 500 units accepted")
	}
}

// Self-destruct (simulation.md 7): zero-health StateUpdates first, then the
// captured ObjectExploding bytes (lifetime 9.5), no Explosion, at most four
// repair events now and the rest later; no killer.
func TestSelfDestruct(t *testing.T) {
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
	// A second 0x13 for the wreck does nothing.
	if got := l.send(l.cs[0], []byte{codec.OpHostMsg}, true); len(filterOp(got[1], codec.OpPythonEvent)) != 0 || len(deaths) != 1 {
		t.Fatal("wreck self-destructed twice")
	}
}

// Beam fire with a target hits through the data-file weapon model, raises
// weapon_hit, and a weapon kill sends ObjectExploding then Explosion and
// credits the shooter.
func TestWeaponDamageAndKill(t *testing.T) {
	l := simLAN(t, "A", "B")
	akiraB := int32(0x4003FFFF)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 30, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	sov := l.g.Object(shipA).Model
	phaser := -1 // a bank whose arc faces forward
	for i, sub := range sov.Class().Subsystems {
		if sub.Type() == "phaser" && sub.Data.Forward == [3]float32{0, 1, 0} {
			phaser = i
			break
		}
	}
	if phaser < 0 {
		t.Fatal("no forward phaser")
	}
	var hits []*WeaponHit
	var deaths []*ShipDestroyed
	l.g.On(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	l.g.On(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	beam := codec.BeamFire{BeamID: sov.SubsystemID(phaser), Info: 2, Dir: codec.Dir3{0, 127, 0}, Flags: codec.BeamArg | codec.BeamHasTarget, Target: akiraB}.AppendTo(nil)
	var all [][]byte
	for i := 0; i < 400 && len(deaths) == 0; i++ {
		l.now = l.now.Add(600 * time.Millisecond)
		got := l.send(l.cs[0], beam, true)
		if n := len(filterOp(got[1], codec.OpBeamFire)); n != 1 {
			t.Fatalf("beam relayed %d times", n)
		}
		all = append(all, got[1]...)
	}
	if len(hits) == 0 || hits[0].ShooterID != 2 || hits[0].Target.ID != akiraB || hits[0].Damage <= 0 {
		t.Fatalf("hits %+v", hits)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseWeapon || deaths[0].KillerID != 2 {
		t.Fatalf("deaths %+v", deaths)
	}
	iExp, iBoom := -1, -1
	for i, m := range all {
		if m[0] == codec.OpPythonEvent {
			if ev, err := codec.DecodeObjectExploding(m); err == nil && ev.Dst == akiraB {
				iExp = i
				if ev.Src != shipA || ev.FiringPlayer != 2 || ev.Lifetime != 9.5 {
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
	// Implausible shots are refused: out of range.
	l2 := simLAN(t, "A", "B")
	l2.send(l2.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l2.send(l2.cs[1], moveMsg(akiraB, [3]float32{0, 5000, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l2.send(l2.cs[0], beam, true)
	if l2.g.Stats.WeaponHits.Load() != 0 || l2.g.Stats.WeaponRejected.Load() != 1 {
		t.Fatal("shot across 5000 units hit")
	}
}

// Torpedoes land after their flight time.
func TestTorpedoFlightTime(t *testing.T) {
	l := simLAN(t, "A", "B")
	akiraB := int32(0x4003FFFF)
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 38, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	sov := l.g.Object(shipA).Model
	tube, _ := sov.Class().SubsystemIndex("Forward Torpedo 1")
	torp := codec.TorpedoFire{TubeID: sov.SubsystemID(tube), Projectile: 2, Flags: 0x03, Dir: codec.Dir3{0, 127, 0}, Target: akiraB, Point: codec.ScaledPoint{Dir: codec.Dir3{0, -127, 0}, Dist: 255}}.AppendTo(nil)
	l.send(l.cs[0], torp, true)
	if l.g.Stats.WeaponHits.Load() != 0 {
		t.Fatal("torpedo landed at once")
	}
	l.now = l.now.Add(2100 * time.Millisecond) // 38 units at 19 units/s
	l.g.Advance(l.now)
	if l.g.Stats.WeaponHits.Load() != 1 {
		t.Fatalf("torpedo did not land (rejected %d)", l.g.Stats.WeaponRejected.Load())
	}
}

// Damaged subsystems are repaired over time and the completion announced.
func TestRepairCompletes(t *testing.T) {
	l := simLAN(t, "A", "B")
	o := l.g.Object(shipA)
	m := o.Model
	sensors, _ := m.Class().SubsystemIndex("Sensor Array")
	l.g.setHP(m, sensors, l.g.hp(m, sensors)-100)
	l.g.subsystemHit(o, sensors)
	l.pump(nil)
	mark := len(l.cs[1].ev.msgs)
	for i := 0; i < 600; i++ {
		l.now = l.now.Add(100 * time.Millisecond)
		l.g.Advance(l.now)
	}
	l.pump(nil)
	done := false
	for _, msg := range filterOp(l.cs[1].ev.msgs[mark:], codec.OpPythonEvent) {
		if ev, err := codec.DecodeSubsystemEvent(msg); err == nil && ev.Code == codec.EventRepairCompleted && ev.Src == m.SubsystemID(sensors) {
			done = true
		}
	}
	if !done || m.Condition(sensors) != m.Class().Subsystems[sensors].MaxCondition {
		t.Fatalf("repair not completed: %v / %v", m.Condition(sensors), m.Class().Subsystems[sensors].MaxCondition)
	}
}

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

// BenchmarkSimTick16 measures one game tick with 16 ships: the simulation
// step plus the host-built StateUpdates for 16 ships × 16 receivers.
func BenchmarkSimTick16(b *testing.B) {
	names := make([]string, 16)
	for i := range names {
		names[i] = string(rune('A' + i))
	}
	t := &testing.T{}
	l := newLAN(t, DefaultConfig(), names...)
	for i, c := range l.cs {
		l.send(c, retarget(vec(t, "simulation.json", "objcreateteam_sovereign_collision_test"), i, 1, 7), true)
		l.send(c, moveMsg(codec.FirstObjectID(i), [3]float32{float32(i * 20), 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	}
	g := l.g
	g.host.SetWriter(&countWriter{})
	now := l.now
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(100 * time.Millisecond)
		g.now = now
		g.simTick()
		g.sendStateUpdates()
		g.host.Flush(now)
		for _, p := range g.bySlot {
			if p != nil {
				p.peer.SetLastReceived(now) // no client answers in a benchmark
			}
		}
	}
}

// The power system: a healthy reactor meets the demand; a destroyed one
// drains the batteries and the supplied share falls.
func TestPowerTick(t *testing.T) {
	l := simLAN(t, "A")
	m := l.g.Object(shipA).Model
	if eff := powerTick(m); eff != 1 {
		t.Fatalf("healthy efficiency %v", eff)
	}
	m.SetCondition(m.Class().Reactor, 0)
	var eff float32
	main0, backup0 := m.Batteries()
	for i := 0; i < 3; i++ {
		eff = powerTick(m)
	}
	main1, backup1 := m.Batteries()
	if eff >= 1 || backup1 >= backup0 || main1 > main0 {
		t.Fatalf("dead reactor: efficiency %v, batteries %v/%v -> %v/%v", eff, main0, backup0, main1, backup1)
	}
}
