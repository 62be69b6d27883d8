package world

import (
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

func fwdUp(b *battle, posA, posB [3]float32) {
	b.move(0, shipA, posA, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	b.move(1, akiraB, posB, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
}

// Phaser fire from a stock client's StartFiring 0x07 kills: the banks beam
// until the target dies, the kill credits the shooter, and a weapon kill
// sends ObjectExploding (no source, the killer's player id, 9.5 s) then
// Explosion (simulation.md 9.2-9.3, Corrections 28 and 39).
func TestPhaserKill(t *testing.T) {
	b := newSimBattle(t, 2)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 30, 0})
	var deaths []*ShipDestroyed
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	hits := b.hitsOn(b.w.Object(akiraB))
	m := b.mark()
	b.fire(0, startFiring(systemID(t, b.w.Object(shipA), "Phasers"), akiraB))
	for i := 0; i < 3000 && len(deaths) == 0; i++ {
		b.advance(100 * time.Millisecond)
	}
	if len(*hits) == 0 || (*hits)[0].ShooterID != 2 || (*hits)[0].Kind != KindPhaser || (*hits)[0].Damage <= 0 {
		t.Fatalf("hits %+v", *hits)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseWeapon || deaths[0].KillerID != 2 || deaths[0].Kind != KindPhaser ||
		deaths[0].Killer != b.w.Object(shipA) || deaths[0].WeaponName == "" {
		t.Fatalf("deaths %+v", deaths)
	}
	all := b.since(m, 1)
	iExp, iBoom := -1, -1
	for i, msg := range all {
		if msg[0] == codec.OpPythonEvent {
			if ev, err := codec.DecodeObjectExploding(msg); err == nil && ev.Dst == akiraB {
				iExp = i
				if ev.Src != 0 || ev.FiringPlayer != 2 || ev.Lifetime != 9.5 {
					t.Fatalf("ObjectExploding %+v", ev)
				}
			}
		}
		if msg[0] == codec.OpExplosion {
			iBoom = i
		}
	}
	if iExp < 0 || iBoom < iExp {
		t.Fatalf("death messages out of order: exploding %d explosion %d", iExp, iBoom)
	}
}

// A beam starts only at a target within range R (simulation.md 5.5), and
// a system stops on StopFiring 0x08 or StopFiringAtTarget 0x09; a
// StartFiring naming another player's system, or a tractor system, starts
// nothing.
func TestPhaserRangeAndStop(t *testing.T) {
	b := newSimBattle(t, 3)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, beamRange + 20, 0})
	hits := b.hitsOn(b.w.Object(akiraB))
	phasers := systemID(t, b.w.Object(shipA), "Phasers")
	b.fire(0, startFiring(phasers, akiraB))
	b.tick(5 * time.Second)
	if len(*hits) != 0 {
		t.Fatalf("a beam reached %v units: %+v", beamRange+20, *hits)
	}
	b.move(1, akiraB, [3]float32{0, 50, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	b.tick(3 * time.Second)
	if len(*hits) == 0 {
		t.Fatal("no hits once in range")
	}
	// A stop lands what the beam gathered, then nothing more.
	b.fire(0, codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet, Dst: phasers}.AppendTo(nil))
	n := len(*hits)
	b.tick(3 * time.Second)
	if len(*hits) != n {
		t.Fatalf("%d hits after StopFiring", len(*hits)-n)
	}
	b.fire(0, startFiring(phasers, akiraB))
	b.tick(3 * time.Second)
	b.fire(0, codec.ObjPtrEvent{Op: codec.OpStopFiringAtTarget, Code: codec.EventStopFiringAtTargetNet, Dst: phasers, Obj: akiraB}.AppendTo(nil))
	n = len(*hits)
	b.tick(3 * time.Second)
	if len(*hits) != n {
		t.Fatalf("%d hits after StopFiringAtTarget", len(*hits)-n)
	}
	// Player 1 names player 0's system: it is not player 1's ship's.
	b.fire(1, startFiring(phasers, akiraB))
	b.tick(3 * time.Second)
	if len(*hits) != n {
		t.Fatal("another player's StartFiring fired player 0's phasers")
	}
}

// A beam hits the nearest damageable object on its ray, which need not be
// its target [code: FUN_00572440].
func TestBeamHitsWhatIsInTheWay(t *testing.T) {
	b := newSimBattle(t, 3)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 60, 0})
	c := b.create(2, retarget(vec(t, "simulation.json", "objcreateteam_akira_spawn"), 2, 1, 7))
	b.move(2, c.ID, [3]float32{0, 25, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	onB, onC := b.hitsOn(b.w.Object(akiraB)), b.hitsOn(c)
	b.fire(0, startFiring(systemID(t, b.w.Object(shipA), "Phasers"), akiraB))
	b.tick(4 * time.Second)
	if len(*onC) == 0 || len(*onB) != 0 {
		t.Fatalf("hits on the target %d, on the ship in the way %d", len(*onB), len(*onC))
	}
}

// Torpedoes fly: a hit lands after the flight time, and a torpedo fired
// away from its target, past its guidance, misses (Correction 36).
func TestTorpedoFlightTime(t *testing.T) {
	b := newSimBattle(t, 2)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 38, 0})
	tube := systemID(t, b.w.Object(shipA), "Forward Torpedo 1")
	torp := codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: 0x03, Dir: codec.Dir3{0, 127, 0}, Target: akiraB,
		Point: codec.ScaledPoint{Dir: codec.Dir3{0, -127, 0}, Dist: 255}}.AppendTo(nil)
	b.fire(0, torp)
	b.advance(100 * time.Millisecond)
	if b.w.Stats().WeaponHits.Load() != 0 {
		t.Fatal("torpedo landed at once")
	}
	b.tick(2200 * time.Millisecond) // 38 units at 19 units/s (Quantum: 22)
	if b.w.Stats().WeaponHits.Load() != 1 {
		t.Fatalf("torpedo did not land (rejected %d)", b.w.Stats().WeaponRejected.Load())
	}
	// Unguided and fired astern: it never comes back.
	away := codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: codec.TorpedoNoTarget, Dir: codec.Dir3{0, -127, 0}}.AppendTo(nil)
	b.fire(0, away)
	b.tick(70 * time.Second)
	if b.w.Stats().WeaponHits.Load() != 1 || len(b.w.projectiles) != 0 {
		t.Fatalf("hits %d, %d in flight", b.w.Stats().WeaponHits.Load(), len(b.w.projectiles))
	}
}

// The captured targeted TorpedoFire (vectors torpedo_fire_targeted_akira_tube:
// the Akira 0x3FFFFFFF's "Forward Torp 1", tube 0x4000000D, at slot 1's ship
// 0x4003FFFF): each torpedo lands after its flight time with the photon's
// 500 points on the facing the aim point names, raises weapon_hit, and once
// that facing is below 60 % of its points a share of each reaches the hull.
func TestCapturedTorpedoHits(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	b.create(0, akiraA)
	b.create(1, retarget(akiraA, 1, 1, 7))
	torp := vec(t, "simulation.json", "torpedo_fire_targeted_akira_tube")
	m, err := codec.DecodeTorpedoFire(torp)
	if err != nil || !m.HasTarget() || m.Target != akiraB {
		t.Fatalf("captured torpedo %+v %v", m, err)
	}
	// B sits 40 units from A along the captured launch direction, with its
	// stern toward A; both have their nose along it.
	x, y, z := m.Dir.Vector()
	dir := [3]float32{x, y, z}
	fwd := codec.NewDir3(x, y, z)
	up := codec.NewDir3(orthonormalUp(dir, [3]float32{0, 0, 1})[0], orthonormalUp(dir, [3]float32{0, 0, 1})[1], orthonormalUp(dir, [3]float32{0, 0, 1})[2])
	b.move(0, shipA, [3]float32{}, fwd, up)
	b.move(1, akiraB, scale3(dir, 40), fwd, up)
	target := b.w.Object(akiraB)
	tube, ok := b.w.Object(shipA).Model.SubsystemIndex(m.TubeID)
	if !ok || b.w.Object(shipA).Model.Class().Subsystems[tube].Name != "Forward Torp 1" {
		t.Fatalf("tube %#x is not the Akira's Forward Torp 1", m.TubeID)
	}
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	rear0 := target.Shields()[facingRear]
	hull0 := target.Model.Hull()
	for i := 0; i < 40 && target.Model.Hull() == hull0; i++ {
		b.fire(0, torp)
		// 40 units at 19 units/s, and the tube is ready again.
		b.advance(2500 * time.Millisecond)
		if len(hits) != i+1 {
			t.Fatalf("shot %d: %d hits (rejected %d)", i, len(hits), b.w.Stats().WeaponRejected.Load())
		}
	}
	if target.Model.Hull() >= hull0 {
		t.Fatalf("hull never dropped after %d hits", len(hits))
	}
	for _, h := range hits {
		if h.ShooterID != 2 || h.Target != target || h.Damage != 500 {
			t.Fatalf("weapon_hit %+v", h)
		}
	}
	// The torpedoes come from astern: the rear facing (5000 points,
	// recharging between shots) took the whole of each torpedo down to
	// 60 % (3000); the first to reach the hull found it between 60 % and
	// 10 %. The front facing was never touched.
	if rear := target.Shields()[facingRear]; rear0 != 5000 || rear >= 3000 || rear < 500 || target.Shields()[facingFront] != 10000 || len(hits) < 5 || len(hits) > 8 {
		t.Fatalf("rear %v -> %v, front %v, %d hits", rear0, target.Shields()[facingRear], target.Shields()[facingFront], len(hits))
	}
	if !hits[len(hits)-1].HullHit || hits[0].HullHit {
		t.Error("hull flags")
	}
}

// The torpedo a ship fires is the one its selected ammo type names in the
// class's loadout (TorpedoTypeChange indexes torpedo_ammo).
func TestTorpedoAmmoLoadout(t *testing.T) {
	b := newBattle(t, 1, stockOptions())
	akira, ok := b.w.Ships().Class(1)
	if !ok {
		t.Fatal("no Akira")
	}
	tests := []struct {
		ammo, want int
	}{{0, 2}, {1, 3}, {7, 2}, {-1, 2}} // Photon, Quantum; out of range: the first type
	for _, tt := range tests {
		if got := torpedoFor(akira, tt.ammo); got != tt.want {
			t.Errorf("ammo %d: net type %d, want %d", tt.ammo, got, tt.want)
		}
	}
	// The selection comes from the owner's TorpedoTypeChange (char value).
	o := b.spawn(0, 1, [3]float32{}, [3]float32{0, 1, 0})
	ev := codec.Event{Op: codec.OpTorpedoTypeChange, Src: shipA + 8, Tail: []byte{1}}
	b.w.TorpedoType(b.owners[0], &ev)
	for _, s := range o.sim.arms {
		if s.group == GroupTorpedoes && torpedoFor(akira, s.ammoType) != 3 {
			t.Errorf("after TorpedoTypeChange 1: net type %d, want 3", torpedoFor(akira, s.ammoType))
		}
	}
}

// A lethal weapon hit raises weapon_hit before ship_destroyed, so the
// mission books the killing damage before it scores the death
// (missions.md 3.4-3.5): for a kill in one shot and for the last of two.
func TestLethalHitOrder(t *testing.T) {
	for _, shots := range []int{1, 2} {
		b := newBattle(t, 2, stockOptions())
		a := b.spawn(0, 1, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
		x := b.spawn(1, 1, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
		x.sim.shields = [6]float32{}
		x.Model.SetHull(float32(shots)*500 - 100) // the last photon kills
		var order []string
		var booked float64
		b.on(EvWeaponHit, func(e Event) {
			order = append(order, "hit")
			booked += e.(*WeaponHit).Damage
		})
		b.on(EvShipDestroyed, func(e Event) {
			order = append(order, "destroyed")
			if booked != float64(500*shots) {
				t.Errorf("%d shots: %v booked when the death was raised", shots, booked)
			}
		})
		for range shots {
			b.fire(0, codec.TorpedoFire{TubeID: systemID(t, a, "Forward Torp 1"), FiringPlayer: 2, Flags: codec.TorpedoArg,
				Dir: codec.Dir3{0, 127, 0}, Target: x.ID}.AppendTo(nil))
			b.tick(3 * time.Second)
		}
		if len(order) != shots+1 || order[shots] != "destroyed" || order[shots-1] != "hit" {
			t.Errorf("%d shots: events %v", shots, order)
		}
	}
}

// A weapon hit passes a shield facing by the measured ramp: nothing at
// 60 % of the facing's points and above, 0.6 × (1 − 2 (f − 0.1)) between,
// everything below 10 % (which leaves the facing as it is); the facing
// absorbs the rest as far as its points go.
func TestShieldPassRamp(t *testing.T) {
	for _, tt := range []struct{ f, want float32 }{
		{1, 0}, {0.6, 0}, {0.5, 0.12}, {0.35, 0.3}, {0.2, 0.48}, {0.1, 0.6}, {0.0999, 1}, {0, 1},
	} {
		if got := shieldPass(tt.f); math.Abs(float64(got-tt.want)) > 1e-4 {
			t.Errorf("shieldPass(%v) = %v, want %v", tt.f, got, tt.want)
		}
	}
	b := newSimBattle(t, 1)
	o := b.w.Object(shipA)
	max := o.Model.Class().ShieldHP[facingRear]
	for _, tt := range []struct {
		name              string
		before, damage    float32
		wantPass, wantNow float32
	}{
		{"full facing", max, 1000, 0, max - 1000},
		{"at 50 %", max / 2, 1000, 120, max/2 - 880},
		{"at 35 %, short of points", 0.35 * max, 4 * max, 4*max - 0.35*max, 0},
		{"below 10 %", 0.05 * max, 1000, 1000, 0.05 * max},
		{"down", 0, 1000, 1000, 0},
	} {
		o.sim.shields[facingRear] = tt.before
		pass := b.w.shieldHit(o, facingRear, tt.damage)
		if math.Abs(float64(pass-tt.wantPass)) > 0.01 || math.Abs(float64(o.sim.shields[facingRear]-tt.wantNow)) > 0.01 {
			t.Errorf("%s: %v of %v passed, facing %v -> %v; want %v passed, facing %v", tt.name, pass, tt.damage, tt.before, o.sim.shields[facingRear], tt.wantPass, tt.wantNow)
		}
	}
}

// A cloaked ship's weapons are disabled (simulation.md 5.6): its beams stop
// and its bolts and torpedoes are refused until it decloaks.
func TestCloakedShipHoldsFire(t *testing.T) {
	b := newSimBattle(t, 2)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 40, 0})
	cloak := func(on bool) {
		m := codec.StateUpdate{ObjectID: shipA, Flags: codec.StateCloak, Cloak: on}
		b.w.StateUpdate(b.now, b.owners[0], &m)
	}
	hits := b.hitsOn(b.w.Object(akiraB))
	b.fire(0, startFiring(systemID(t, b.w.Object(shipA), "Phasers"), akiraB))
	b.tick(2 * time.Second)
	if len(*hits) == 0 {
		t.Fatal("no hits before cloaking")
	}
	cloak(true)
	b.tick(100 * time.Millisecond) // the beam in progress stops
	n := len(*hits)
	b.tick(5 * time.Second)
	tube := systemID(t, b.w.Object(shipA), "Forward Torpedo 1")
	rejected := b.w.Stats().WeaponRejected.Load()
	b.fire(0, codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: codec.TorpedoArg, Dir: codec.Dir3{0, 127, 0}, Target: akiraB}.AppendTo(nil))
	if len(*hits) != n || b.w.Stats().WeaponRejected.Load() != rejected+1 {
		t.Fatalf("a cloaked ship fired: %d hits, %d refused", len(*hits)-n, b.w.Stats().WeaponRejected.Load()-rejected)
	}
	cloak(false)
	b.tick(3 * time.Second)
	if len(*hits) == n {
		t.Fatal("no hits after decloaking")
	}
}
