package world

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// A damage hook scales one hit and cancels another: it sees the shooter,
// the target, the weapon and where the hit lands, and what it returns is
// what the target's shields, hull and subsystems take (weapon_hit says
// so); a cancelled hit lands nowhere.
func TestDamageHookScalesAndCancels(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	a := b.spawn(0, 1, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
	g.sim.shields = [6]float32{}
	g.Model.SetCondition(g.Model.Class().Repair, 0)
	hits := b.hitsOn(g)
	var seen []DamageHit
	scale := float32(1.5)
	b.w.SetDamageHook(func(h *DamageHit) float32 {
		seen = append(seen, *h)
		return h.Damage * scale
	})
	tube := systemID(t, a, "Forward Torp 1")
	fire := func() {
		b.fire(0, codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: codec.TorpedoArg, Dir: codec.Dir3{0, 127, 0}, Target: g.ID}.AppendTo(nil))
		b.tick(3 * time.Second)
	}
	hull0 := g.Model.Hull()
	fire()
	if len(seen) != 1 || len(*hits) != 1 {
		t.Fatalf("hook saw %d, weapon_hit %d", len(seen), len(*hits))
	}
	s := seen[0]
	if s.Shooter != a || s.ShooterID != 2 || s.Target != g || s.Kind != KindTorpedo || s.WeaponName != "Forward Torp 1" || s.Weapon != tube || s.Damage != 500 || s.Subsystem < 0 {
		t.Fatalf("the hook saw %+v", s)
	}
	if h := (*hits)[0]; h.Damage != 750 || g.Model.Hull() != hull0-750 {
		t.Fatalf("hit %+v, hull lost %v", h, hull0-g.Model.Hull())
	}
	scale = 0
	hull1 := g.Model.Hull()
	fire()
	if len(seen) != 2 || len(*hits) != 1 || g.Model.Hull() != hull1 {
		t.Fatalf("a cancelled hit: hook %d, weapon_hit %d, hull lost %v", len(seen), len(*hits), hull1-g.Model.Hull())
	}
	b.w.SetDamageHook(nil)
	fire()
	if len(*hits) != 2 || (*hits)[1].Damage != 500 {
		t.Fatalf("without the hook: %+v", *hits)
	}
}

// Damage a mission deals goes the weapons' way: the condition falls (the
// health updates carry it), weapon_hit and ship_damaged name the player
// credited, and a lethal amount kills with him as the killer.
func TestMissionDamageCreditsTheKiller(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	b.spawn(0, 1, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	var hits []*WeaponHit
	var damaged []*ShipDamaged
	var died *ShipDestroyed
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	b.on(EvShipDamaged, func(e Event) { damaged = append(damaged, e.(*ShipDamaged)) })
	b.on(EvShipDestroyed, func(e Event) { died = e.(*ShipDestroyed) })
	c := g.Model.Class()
	sensor, _ := c.SubsystemIndex("Sensor Array")
	before := g.Model.Condition(sensor)
	if err := b.w.DealDamage(b.now, g, MissionDamage{Amount: 100, Subsystem: sensor, By: 2}); err != nil {
		t.Fatal(err)
	}
	if g.Model.Condition(sensor) >= before || len(hits) != 1 || hits[0].ShooterID != 2 || hits[0].Kind != KindMission || hits[0].Damage != 100 || hits[0].HullHit {
		t.Fatalf("sensor %v -> %v, hits %+v", before, g.Model.Condition(sensor), hits)
	}
	// set_condition: down is damage, up a repair.
	if err := b.w.SetCondition(b.now, g, sensor, 0.5, 0); err != nil || g.Model.Condition(sensor) != 0.5*c.Subsystems[sensor].MaxCondition || len(hits) != 2 {
		t.Fatalf("set to half: %v, condition %v, hits %d", err, g.Model.Condition(sensor), len(hits))
	}
	if err := b.w.SetCondition(b.now, g, sensor, 1, 0); err != nil || g.Model.Condition(sensor) != c.Subsystems[sensor].MaxCondition || len(hits) != 2 {
		t.Fatalf("repaired: %v, condition %v, hits %d", err, g.Model.Condition(sensor), len(hits))
	}
	if err := b.w.DealDamage(b.now, g, MissionDamage{Amount: 1e9, Subsystem: -1, By: 2}); err != nil {
		t.Fatal(err)
	}
	if died == nil || died.Victim != g || died.KillerID != 2 || died.Killer == nil || died.Kind != KindMission || died.Cause != CauseWeapon {
		t.Fatalf("death %+v", died)
	}
	if d := damaged[len(damaged)-1]; !d.HullHit || d.AttackerID != 2 {
		t.Fatalf("ship_damaged %+v", d)
	}
	if err := b.w.DealDamage(b.now, g, MissionDamage{Amount: 1, Subsystem: -1}); err != ErrNotModelled {
		t.Fatalf("damage to a dead ship: %v", err)
	}
	if err := b.w.DealDamage(b.now, b.spawn(1, 3, [3]float32{0, 90, 0}, [3]float32{0, 1, 0}), MissionDamage{Amount: 1, Subsystem: 9999}); err != ErrSubsystem {
		t.Fatalf("a subsystem out of range: %v", err)
	}
}
