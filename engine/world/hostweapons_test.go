package world

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// shot is one fire message a viewer received, with its time.
type shot struct {
	at     time.Duration
	weapon int32 // the weapon system (0x07, 0x08), cannon (0x1A) or tube (0x19)
	target int32
	op     byte
}

// run advances the battle by ticks of 100 ms for d and returns the fire
// messages viewer 0 got meanwhile. Every host shot carries firing player
// 0 (opcodes.md 3.5-3.6, Correction 24).
func (b *battle) run(t *testing.T, d time.Duration) []shot {
	t.Helper()
	var out []shot
	for end := b.now.Add(d); b.now.Before(end); {
		m := b.mark()
		b.advance(100 * time.Millisecond)
		out = append(out, shotsIn(t, b.since(m, 0), b.now.Sub(t0))...)
	}
	return out
}

func shotsIn(t *testing.T, msgs [][]byte, at time.Duration) []shot {
	t.Helper()
	var out []shot
	for _, msg := range msgs {
		switch msg[0] {
		case codec.OpPulseFire:
			f, err := codec.DecodePulseFire(msg)
			if err != nil || !f.HasTarget() || f.Flags != codec.PulseHasTarget || f.FiringPlayer != 0 {
				t.Fatalf("bolt %X: %v", msg, err)
			}
			out = append(out, shot{at, f.CannonID, f.Target, msg[0]})
		case codec.OpTorpedoFire:
			f, err := codec.DecodeTorpedoFire(msg)
			if err != nil || !f.HasTarget() || f.Flags != codec.TorpedoArg || f.FiringPlayer != 0 {
				t.Fatalf("torpedo %X: %v", msg, err)
			}
			out = append(out, shot{at, f.TubeID, f.Target, msg[0]})
		case codec.OpStartFiring:
			f, err := codec.DecodeStartFiring(msg)
			if err != nil || f.Src != 0 || f.Offset != (codec.ScaledPoint{}) {
				t.Fatalf("start firing %X: %v", msg, err)
			}
			out = append(out, shot{at, f.Dst, f.Target, msg[0]})
		case codec.OpStopFiring:
			f, err := codec.DecodeSubsystemEvent(msg)
			if err != nil {
				t.Fatalf("stop firing %X: %v", msg, err)
			}
			out = append(out, shot{at, f.Dst, 0, msg[0]})
		}
	}
	return out
}

// runs splits hits into runs of one weapon, in order.
func runs(hits []*WeaponHit) (weapons []int32, totals []float64) {
	for _, h := range hits {
		if len(weapons) == 0 || weapons[len(weapons)-1] != h.Weapon {
			weapons = append(weapons, h.Weapon)
			totals = append(totals, 0)
		}
		totals[len(totals)-1] += h.Damage
	}
	return weapons, totals
}

// The starbase's single-fire phasers at MED (simulation.md 3.6, Corrections
// 29 and 38): the target joins the list once, which goes to everyone as
// StartFiring 0x07 naming the "Phasers" system (never 0x1A); then one bank
// beams at a time, handing on in bank order when it runs dry. Each beam
// does 450 × 0.5 per second within 180 units, ≈ 225 × (charge − 0.25 s)
// for a bank started full; its damage is applied with no killer.
func TestStarbaseSingleFirePhasers(t *testing.T) {
	b := newSimBattle(t, 2)
	sb := b.hostShip(starbaseSpec())
	// 100 units away at 45° between the starbase's +Y and +X and 30 units
	// above its centre: seen from the dorsal strips' edge (77 × 77 at
	// height 22) 7° up, in the arcs of Dorsal Phaser 1 (+Y) and 2 (+X)
	// only; the ventral banks see it above their arcs.
	b.move(1, akiraB, [3]float32{10 + 70.71, 20 + 70.71, 30 + 30}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	m := b.mark()
	if err := b.w.FireAt(sb, b.w.Object(akiraB), GroupPhasers); err != nil {
		t.Fatal(err)
	}
	_ = b.w.FireAt(sb, b.w.Object(akiraB), "") // listed once
	if got := sb.Targets(""); len(got) != 1 || got[0] != akiraB {
		t.Fatalf("targets %v", got)
	}
	phasers := systemID(t, sb, "Phasers")
	if got := shotsIn(t, b.since(m, 0), 0); len(got) != 1 || got[0].op != codec.OpStartFiring || got[0].weapon != phasers || got[0].target != akiraB {
		t.Fatalf("StartFiring for the starbase: %+v", got)
	}
	if shots := b.run(t, 20*time.Second); len(shots) != 0 {
		t.Fatalf("messages per beam: %+v", shots)
	}
	weapons, totals := runs(hits)
	if len(weapons) < 4 {
		t.Fatalf("%d beams in 20 s", len(weapons))
	}
	for i, w := range weapons {
		if want := sb.ID + 6 + int32(i%2); w != want {
			t.Fatalf("beam %d from %#x, want %#x (Dorsal 1 and 2 in turn)", i, w, want)
		}
	}
	// The first beam starts from the full 4.0.
	if want := 225 * (4.0 - 0.25); !near(totals[0], want, 0.05) {
		t.Errorf("first beam dealt %.1f, want %.1f", totals[0], want)
	}
	if hits[0].ShooterID != 0 || hits[0].Shooter != sb || hits[0].Kind != KindPhaser {
		t.Fatalf("hit %+v", hits[0])
	}
	// A disabled weapon system fires nothing; StopFiring empties the list
	// and tells everyone (0x08).
	c := sb.Model.Class()
	phasersIdx, _ := c.SubsystemIndex("Phasers")
	sb.Model.SetCondition(phasersIdx, 0.5*c.Subsystems[phasersIdx].MaxCondition)
	b.run(t, 100*time.Millisecond) // the beam in progress stops, landing what it gathered
	n := len(hits)
	b.run(t, 10*time.Second)
	if len(hits) != n {
		t.Fatalf("a disabled system hit %d times", len(hits)-n)
	}
	sb.Model.SetCondition(phasersIdx, c.Subsystems[phasersIdx].MaxCondition)
	m = b.mark()
	if err := b.w.StopFiring(sb, ""); err != nil || len(sb.Targets("")) != 0 {
		t.Fatal("StopFiring kept targets")
	}
	if got := shotsIn(t, b.since(m, 0), 0); len(got) != 1 || got[0].op != codec.OpStopFiring || got[0].weapon != phasers {
		t.Fatalf("StopFiring message: %+v", got)
	}
	n = len(hits)
	b.run(t, 10*time.Second)
	if len(hits) != n {
		t.Fatalf("hit after StopFiring")
	}
	if err := b.w.FireAt(sb, sb, ""); err == nil {
		t.Fatal("the starbase targets itself")
	}
}

// Without single fire (a Kessok Heavy's beams) every bank that can hit
// beams; a dead target is dropped from the list.
func TestHostPhasersAllBanksAndPurge(t *testing.T) {
	b := newSimBattle(t, 2)
	k := b.hostShip(HostShipSpec{Species: 13, Name: "Kessok", Set: "Multi1", Team: 1})
	b.move(1, akiraB, [3]float32{0, 40, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	if err := b.w.FireAt(k, b.w.Object(akiraB), GroupPhasers); err != nil {
		t.Fatal(err)
	}
	b.run(t, 3*time.Second)
	banks := map[int32]bool{}
	for _, h := range hits {
		banks[h.Weapon] = true
	}
	if len(banks) < 2 {
		t.Fatalf("banks that hit: %v", banks)
	}
	b.w.Object(akiraB).Model.SetHull(0)
	b.w.killShip(b.w.Object(akiraB), hitInfo{cause: CauseSelfDestruct})
	b.run(t, 200*time.Millisecond)
	if len(k.Targets("")) != 0 {
		t.Fatalf("dead target kept: %v", k.Targets(""))
	}
	g := b.hostShip(galorSpec([3]float32{0, 0, 0}))
	if err := b.w.FireAt(g, b.w.Object(shipA), GroupPulse); err == nil {
		t.Fatal("a Galor fired pulse weapons")
	}
}

// Torpedo tubes fire their loaded torpedoes immediate_delay apart, then
// reload for reload_delay; each torpedo costs ammunition and lands after
// its flight time.
func TestHostTorpedoes(t *testing.T) {
	b := newSimBattle(t, 2)
	g := b.hostShip(galorSpec([3]float32{0, 0, 0}))
	b.move(1, akiraB, [3]float32{0, 100, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	if err := b.w.FireAt(g, b.w.Object(akiraB), GroupTorpedoes); err != nil {
		t.Fatal(err)
	}
	tube, _ := g.Model.Class().SubsystemIndex("Forward Torpedo")
	d := g.Model.Class().Subsystems[tube].Data
	shots := b.run(t, time.Duration(d.ReloadDelay*float32(time.Second))+5*time.Second)
	if len(shots) != d.MaxReady+1 {
		t.Fatalf("%d torpedoes (max ready %d): %+v", len(shots), d.MaxReady, shots)
	}
	for i, s := range shots {
		if s.op != codec.OpTorpedoFire || s.weapon != g.Model.SubsystemID(tube) || s.target != akiraB {
			t.Fatalf("torpedo %d %+v", i, s)
		}
	}
	if gap := shots[1].at - shots[0].at; gap < time.Duration(d.ImmediateDelay*float32(time.Second)) {
		t.Fatalf("second torpedo after %v", gap)
	}
	if gap := shots[2].at - shots[0].at; gap < time.Duration(d.ReloadDelay*float32(time.Second))-100*time.Millisecond {
		t.Fatalf("reloaded after %v", gap)
	}
	var sys *weaponSystem
	for i := range g.sim.arms {
		if g.sim.arms[i].group == GroupTorpedoes {
			sys = &g.sim.arms[i]
		}
	}
	if len(hits) == 0 || hits[0].ShooterID != 0 || sys.ammo[0] != g.Model.Class().TorpedoAmmo[0].MaxTorpedoes-len(shots) {
		t.Fatalf("hits %d ammo %v", len(hits), sys.ammo)
	}
}

// Pulse cannons fire a bolt (PulseFire 0x1A, firing player 0) whenever
// their charge covers one, paying for each and recharging without the
// phaser banks' multiplayer multiplier (Correction 44), no sooner than
// hostPulseRefire apart; each bolt lands with its projectile's damage at
// the MED scale (PulseDisruptor 220 × 0.5).
func TestHostPulseCannons(t *testing.T) {
	b := newSimBattle(t, 2)
	bop := b.hostShip(HostShipSpec{Species: 6, Name: "BoP", Set: "Multi1", Team: 1})
	b.move(1, akiraB, [3]float32{0, 50, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	if err := b.w.FireAt(bop, b.w.Object(akiraB), GroupPulse); err != nil {
		t.Fatal(err)
	}
	hits := b.hitsOn(b.w.Object(akiraB))
	shots := b.run(t, 10*time.Second)
	per := map[int32][]time.Duration{}
	for _, s := range shots {
		per[s.weapon] = append(per[s.weapon], s.at)
	}
	if len(per) != 2 {
		t.Fatalf("cannons that fired: %v", per)
	}
	for id, ts := range per {
		if len(ts) < 5 {
			t.Fatalf("cannon %#x fired %d bolts", id, len(ts))
		}
		// 3.8 charge, 1.0 a bolt, 0.4/s back: four bolts hostPulseRefire
		// apart (3.8 → 0.28 with what comes back meanwhile), then one per
		// 2.5 s; at most 3.8 + 0.4 × 10 s worth of bolts in 10 s.
		for i := 1; i < len(ts); i++ {
			if ts[i]-ts[i-1] < hostPulseRefire {
				t.Fatalf("cannon %#x: bolts %v apart", id, ts[i]-ts[i-1])
			}
		}
		if len(ts) > 7 {
			t.Fatalf("cannon %#x fired %d bolts in 10 s: more than its charge covers", id, len(ts))
		}
		if gap := ts[4] - ts[3]; gap < 1700*time.Millisecond {
			t.Fatalf("cannon %#x: fifth bolt %v after the fourth, before its charge covered it", id, gap)
		}
	}
	if len(*hits) < len(shots)-2 || (*hits)[0].Damage != 110 || (*hits)[0].Kind != KindPulse {
		t.Fatalf("%d bolts, hits %+v", len(shots), *hits)
	}
}

// Host weapons do not fire at a cloaked ship: it is dropped from the
// target list at once (simulation.md 3.6, 5.6) and the AI adds it again
// after it decloaks.
func TestHostWeaponsSkipCloaked(t *testing.T) {
	b := newSimBattle(t, 2)
	g := b.hostShip(galorSpec([3]float32{0, 0, 0}))
	b.move(1, akiraB, [3]float32{5, 25, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	cloak := func(on bool) {
		m := codec.StateUpdate{ObjectID: akiraB, Flags: codec.StateCloak, Cloak: on}
		b.w.StateUpdate(b.now, b.owners[1], &m)
	}
	cloak(true)
	if err := b.w.FireAt(g, b.w.Object(akiraB), ""); err != nil {
		t.Fatal(err)
	}
	hits := b.hitsOn(b.w.Object(akiraB))
	if shots := b.run(t, 3*time.Second); len(*hits) != 0 || !b.w.Object(akiraB).Cloaked() || len(g.Targets("")) != 0 {
		t.Fatalf("fired at a cloaked ship: %+v, hits %d", shots, len(*hits))
	}
	cloak(false)
	if err := b.w.FireAt(g, b.w.Object(akiraB), ""); err != nil {
		t.Fatal(err)
	}
	if b.run(t, 3*time.Second); len(*hits) == 0 {
		t.Fatal("no hits after decloaking")
	}
}
