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

// forwardPhaser returns the index of a Sovereign phaser bank whose arc
// faces forward.
func forwardPhaser(t *testing.T, o *Object) int {
	for i, sub := range o.Model.Class().Subsystems {
		if sub.Type() == "phaser" && sub.Data.Forward == [3]float32{0, 1, 0} {
			return i
		}
	}
	t.Fatal("no forward phaser")
	return -1
}

// Beam fire with a target hits through the data-file weapon model, raises
// weapon_hit, and a weapon kill sends ObjectExploding then Explosion and
// credits the shooter.
func TestWeaponDamageAndKill(t *testing.T) {
	b := newSimBattle(t, 2)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 30, 0})
	sov := b.w.Object(shipA).Model
	phaser := forwardPhaser(t, b.w.Object(shipA))
	var hits []*WeaponHit
	var deaths []*ShipDestroyed
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	b.on(EvShipDestroyed, func(e Event) { deaths = append(deaths, e.(*ShipDestroyed)) })
	beam := codec.BeamFire{BeamID: sov.SubsystemID(phaser), Info: 2, Dir: codec.Dir3{0, 127, 0}, Flags: codec.BeamArg | codec.BeamHasTarget, Target: akiraB}.AppendTo(nil)
	m := b.mark()
	for i := 0; i < 400 && len(deaths) == 0; i++ {
		b.now = b.now.Add(600 * time.Millisecond)
		b.fire(0, beam)
	}
	if len(hits) == 0 || hits[0].ShooterID != 2 || hits[0].Target.ID != akiraB || hits[0].Damage <= 0 {
		t.Fatalf("hits %+v", hits)
	}
	if len(deaths) != 1 || deaths[0].Cause != CauseWeapon || deaths[0].KillerID != 2 {
		t.Fatalf("deaths %+v", deaths)
	}
	all := b.since(m, 1)
	iExp, iBoom := -1, -1
	for i, msg := range all {
		if msg[0] == codec.OpPythonEvent {
			if ev, err := codec.DecodeObjectExploding(msg); err == nil && ev.Dst == akiraB {
				iExp = i
				if ev.Src != shipA || ev.FiringPlayer != 2 || ev.Lifetime != 9.5 {
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
	// Implausible shots are refused: out of range.
	b2 := newSimBattle(t, 2)
	fwdUp(b2, [3]float32{0, 0, 0}, [3]float32{0, 5000, 0})
	b2.fire(0, beam)
	if b2.w.Stats().WeaponHits.Load() != 0 || b2.w.Stats().WeaponRejected.Load() != 1 {
		t.Fatal("shot across 5000 units hit")
	}
}

// Torpedoes land after their flight time.
func TestTorpedoFlightTime(t *testing.T) {
	b := newSimBattle(t, 2)
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 38, 0})
	sov := b.w.Object(shipA).Model
	tube, _ := sov.Class().SubsystemIndex("Forward Torpedo 1")
	torp := codec.TorpedoFire{TubeID: sov.SubsystemID(tube), Projectile: 2, Flags: 0x03, Dir: codec.Dir3{0, 127, 0}, Target: akiraB, Point: codec.ScaledPoint{Dir: codec.Dir3{0, -127, 0}, Dist: 255}}.AppendTo(nil)
	b.fire(0, torp)
	if b.w.Stats().WeaponHits.Load() != 0 {
		t.Fatal("torpedo landed at once")
	}
	b.advance(2100 * time.Millisecond) // 38 units at 19 units/s
	if b.w.Stats().WeaponHits.Load() != 1 {
		t.Fatalf("torpedo did not land (rejected %d)", b.w.Stats().WeaponRejected.Load())
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
	// A sits 40 units behind B; both face +Y.
	fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 40, 0})
	torp := vec(t, "simulation.json", "torpedo_fire_targeted_akira_tube")
	m, err := codec.DecodeTorpedoFire(torp)
	if err != nil || !m.HasTarget() || m.Target != akiraB {
		t.Fatalf("captured torpedo %+v %v", m, err)
	}
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
	// The aim point is behind B: the rear facing (5000 points, recharging
	// between shots) took the whole of each torpedo down to 60 % (3000);
	// the first to reach the hull found it between 60 % and 10 %. The
	// front facing was never touched.
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
	ev := codec.Event{Op: codec.OpTorpedoTypeChange, Src: shipA + 8, Tail: []byte{1}}
	b.w.TorpedoType(b.owners[0], &ev)
	if got := torpedoFor(akira, b.owners[0].torpedoType); got != 3 {
		t.Errorf("after TorpedoTypeChange 1: net type %d, want 3", got)
	}
}

// A lethal weapon hit raises weapon_hit before ship_destroyed, so the
// mission books the killing damage before it scores the death
// (missions.md 3.4-3.5): for a kill in one shot and for the last of two.
func TestLethalHitOrder(t *testing.T) {
	for _, shots := range [][]float32{{40000}, {4000, 40000}} {
		b := newSimBattle(t, 2)
		fwdUp(b, [3]float32{0, 0, 0}, [3]float32{0, 40, 0})
		b.w.SetWeaponModel(&fixedWeapons{damage: shots})
		var order []string
		var booked float64
		b.on(EvWeaponHit, func(e Event) {
			order = append(order, "hit")
			booked += e.(*WeaponHit).Damage
		})
		b.on(EvShipDestroyed, func(e Event) {
			order = append(order, "destroyed")
			if booked != sum(shots) {
				t.Errorf("%v: %v booked when the death was raised", shots, booked)
			}
		})
		sov := b.w.Object(shipA).Model
		beam := codec.BeamFire{BeamID: sov.SubsystemID(sov.Class().Hull + 1), Info: 2, Flags: codec.BeamHasTarget, Target: akiraB}.AppendTo(nil)
		for range shots {
			b.fire(0, beam)
		}
		want := []string{}
		for range shots {
			want = append(want, "hit")
		}
		want = append(want, "destroyed")
		if len(order) != len(want) || order[len(order)-1] != "destroyed" || order[len(order)-2] != "hit" {
			t.Errorf("%v: events %v, want %v", shots, order, want)
		}
	}
}

// fixedWeapons hits with the given damages in turn, at once.
type fixedWeapons struct {
	damage []float32
	n      int
}

func (w *fixedWeapons) Fire(_ *World, _ Shot) (Hit, bool) {
	if w.n >= len(w.damage) {
		return Hit{}, false
	}
	w.n++
	return Hit{Damage: w.damage[w.n-1]}, true
}

func sum(fs []float32) float64 {
	s := 0.0
	for _, f := range fs {
		s += float64(f)
	}
	return s
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
		pass := shieldWeaponHit(o, facingRear, tt.damage)
		if math.Abs(float64(pass-tt.wantPass)) > 0.01 || math.Abs(float64(o.sim.shields[facingRear]-tt.wantNow)) > 0.01 {
			t.Errorf("%s: %v of %v passed, facing %v -> %v; want %v passed, facing %v", tt.name, pass, tt.damage, tt.before, o.sim.shields[facingRear], tt.wantPass, tt.wantNow)
		}
	}
}
