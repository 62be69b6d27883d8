package engine

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// The captured targeted TorpedoFire (vectors torpedo_fire_targeted_akira_tube:
// the Akira 0x3FFFFFFF's "Forward Torp 1", tube 0x4000000D, at slot 1's ship
// 0x4003FFFF) is relayed unchanged and the host's weapon model applies it:
// each torpedo lands after its flight time with the photon's 500 points on
// the facing the aim point names, raises weapon_hit, and once that shield is
// gone the target's hull drops.
func TestCapturedTorpedoHits(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A", "B")
	akiraA := vec(t, "simulation.json", "objcreateteam_akira_spawn")
	akiraB := int32(0x4003FFFF)
	l.send(l.cs[0], akiraA, true)
	l.send(l.cs[1], retarget(akiraA, 1, 1, 7), true)
	// A sits 40 units behind B; both face +Y.
	l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 40, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
	torp := vec(t, "simulation.json", "torpedo_fire_targeted_akira_tube")
	m, err := codec.DecodeTorpedoFire(torp)
	if err != nil || !m.HasTarget() || m.Target != akiraB {
		t.Fatalf("captured torpedo %+v %v", m, err)
	}
	target := l.g.Object(akiraB)
	tube, ok := l.g.Object(shipA).Model.SubsystemIndex(m.TubeID)
	if !ok || l.g.Object(shipA).Model.Class().Subsystems[tube].Name != "Forward Torp 1" {
		t.Fatalf("tube %#x is not the Akira's Forward Torp 1", m.TubeID)
	}
	var hits []*WeaponHit
	l.g.On(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	rear0 := target.Shields()[facingRear]
	hull0 := target.Model.Hull()
	for i := 0; i < 40 && target.Model.Hull() == hull0; i++ {
		got := l.send(l.cs[0], torp, true)
		if n := len(filterOp(got[1], codec.OpTorpedoFire)); n != 1 {
			t.Fatalf("shot %d relayed %d times to B", i, n)
		}
		if n := len(filterOp(got[0], codec.OpTorpedoFire)); n != 0 {
			t.Fatalf("shot %d echoed to its sender", i)
		}
		// 40 units at 19 units/s, and the tube is ready again.
		l.now = l.now.Add(2500 * time.Millisecond)
		l.g.Advance(l.now)
		if len(hits) != i+1 {
			t.Fatalf("shot %d: %d hits (rejected %d)", i, len(hits), l.g.Stats.WeaponRejected.Load())
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
	// between shots) took the torpedoes before anything reached the hull;
	// the front facing was never touched.
	if rear0 != 5000 || target.Shields()[facingRear] > 500 || target.Shields()[facingFront] != 10000 || len(hits) < 11 || len(hits) > 14 {
		t.Fatalf("rear %v -> %v, front %v, %d hits", rear0, target.Shields()[facingRear], target.Shields()[facingFront], len(hits))
	}
	if !hits[len(hits)-1].HullHit || hits[0].HullHit {
		t.Error("hull flags")
	}
}

// The torpedo a ship fires is the one its selected ammo type names in the
// class's loadout (TorpedoTypeChange indexes torpedo_ammo).
func TestTorpedoAmmoLoadout(t *testing.T) {
	l := newLAN(t, DefaultConfig(), "A")
	akira, ok := l.g.Ships().Class(1)
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
}

// A lethal weapon hit raises weapon_hit before ship_destroyed, so the
// mission books the killing damage before it scores the death
// (missions.md 3.4-3.5): for a kill in one shot and for the last of two.
func TestLethalHitOrder(t *testing.T) {
	for _, shots := range [][]float32{{40000}, {4000, 40000}} {
		l := simLAN(t, "A", "B")
		akiraB := int32(0x4003FFFF)
		l.send(l.cs[0], moveMsg(shipA, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
		l.send(l.cs[1], moveMsg(akiraB, [3]float32{0, 40, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127}), false)
		model := &fixedWeapons{damage: shots}
		l.g.SetWeaponModel(model)
		var order []string
		var booked float64
		l.g.On(EvWeaponHit, func(e Event) {
			order = append(order, "hit")
			booked += e.(*WeaponHit).Damage
		})
		l.g.On(EvShipDestroyed, func(e Event) {
			order = append(order, "destroyed")
			if booked != sum(shots) {
				t.Errorf("%v: %v booked when the death was raised", shots, booked)
			}
		})
		sov := l.g.Object(shipA).Model
		beam := codec.BeamFire{BeamID: sov.SubsystemID(sov.Class().Hull + 1), Info: 2, Flags: codec.BeamHasTarget, Target: akiraB}.AppendTo(nil)
		for range shots {
			l.send(l.cs[0], beam, true)
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

func (w *fixedWeapons) Fire(_ *Game, _ Shot) (Hit, bool) {
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
