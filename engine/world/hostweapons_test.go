package world

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// shot is one fire message a viewer received, with its time.
type shot struct {
	at     time.Duration
	weapon int32
	target int32
	op     byte
}

// run advances the battle by ticks of 100 ms for d and returns the fire
// messages viewer 0 got meanwhile.
func (b *battle) run(t *testing.T, d time.Duration) []shot {
	t.Helper()
	var out []shot
	for end := b.now.Add(d); b.now.Before(end); {
		m := b.mark()
		b.advance(100 * time.Millisecond)
		for _, msg := range b.since(m, 0) {
			switch msg[0] {
			case codec.OpBeamFire:
				f, err := codec.DecodeBeamFire(msg)
				if err != nil || !f.HasTarget() || f.Flags != codec.BeamArg|codec.BeamHasTarget || f.Info != shotInfo {
					t.Fatalf("beam %X: %v", msg, err)
				}
				out = append(out, shot{b.now.Sub(t0), f.BeamID, f.Target, msg[0]})
			case codec.OpTorpedoFire:
				f, err := codec.DecodeTorpedoFire(msg)
				if err != nil || !f.HasTarget() || f.Flags != codec.TorpedoArg {
					t.Fatalf("torpedo %X: %v", msg, err)
				}
				out = append(out, shot{b.now.Sub(t0), f.TubeID, f.Target, msg[0]})
			}
		}
	}
	return out
}

// The starbase's single-fire phasers (simulation.md 3.6): one bank beams
// at a time; a bank starts at 3.0 charge, beams until its 4.0 are drained
// at 1/s, then needs 6 s at 0.5/s; the beam passes to the next bank in
// order that can hit. Each beam goes to everyone as BeamFire 0x1A with the
// target, and its damage is applied as a player's would be, with no killer.
func TestStarbaseSingleFirePhasers(t *testing.T) {
	b := newSimBattle(t, 2)
	sb := b.hostShip(starbaseSpec())
	// 100 units away at 45° between the starbase's +Y and +X: in the arcs
	// of Dorsal Phaser 1 (+Y) and 2 (+X) only.
	b.move(1, akiraB, [3]float32{10 + 70.71, 20 + 70.71, 30}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) { hits = append(hits, e.(*WeaponHit)) })
	if err := b.w.SetSingleFire(sb, GroupPhasers, true); err != nil {
		t.Fatal(err)
	}
	if err := b.w.FireAt(sb, b.w.Object(akiraB), GroupPhasers); err != nil {
		t.Fatal(err)
	}
	_ = b.w.FireAt(sb, b.w.Object(akiraB), "") // listed once
	if got := sb.Targets(""); len(got) != 1 || got[0] != akiraB {
		t.Fatalf("targets %v", got)
	}
	shots := b.run(t, 25*time.Second)
	wantBanks := []int32{6, 7, 6, 7, 6, 7}
	if len(shots) != len(wantBanks) {
		t.Fatalf("%d beams: %+v", len(shots), shots)
	}
	for i, s := range shots {
		if s.weapon != sb.ID+wantBanks[i] || s.target != akiraB || s.op != codec.OpBeamFire {
			t.Fatalf("beam %d: %+v", i, s)
		}
		if i > 0 && s.at-shots[i-1].at < 3900*time.Millisecond {
			t.Fatalf("beam %d started %v after the previous one", i, s.at-shots[i-1].at)
		}
	}
	// Dorsal 1 needs 6 s after its beam to reach 3.0 again.
	if gap := shots[2].at - shots[0].at; gap < 9900*time.Millisecond {
		t.Fatalf("Dorsal Phaser 1 beamed again after %v", gap)
	}
	if len(hits) != len(shots) || hits[0].ShooterID != 0 || hits[0].Shooter != sb || hits[0].Damage != 450 {
		t.Fatalf("hits %+v", hits)
	}
	// A disabled weapon system fires nothing; StopFiring empties the list.
	c := sb.Model.Class()
	phasers, _ := c.SubsystemIndex("Phasers")
	sb.Model.SetCondition(phasers, 0.5*c.Subsystems[phasers].MaxCondition)
	if got := b.run(t, 15*time.Second); len(got) != 0 {
		t.Fatalf("a disabled system fired %+v", got)
	}
	sb.Model.SetCondition(phasers, c.Subsystems[phasers].MaxCondition)
	if err := b.w.StopFiring(sb, ""); err != nil || len(sb.Targets("")) != 0 {
		t.Fatal("StopFiring kept targets")
	}
	if got := b.run(t, 10*time.Second); len(got) != 0 {
		t.Fatalf("fired after StopFiring: %+v", got)
	}
	if err := b.w.FireAt(sb, sb, ""); err == nil {
		t.Fatal("the starbase targets itself")
	}
}

// Without single fire every bank that can hit fires; a dead target is
// dropped from the list.
func TestHostPhasersAllBanksAndPurge(t *testing.T) {
	b := newSimBattle(t, 2)
	g := b.hostShip(galorSpec([3]float32{0, 0, 0}))
	b.move(1, akiraB, [3]float32{5, 25, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	if err := b.w.FireAt(g, b.w.Object(akiraB), GroupPhasers); err != nil {
		t.Fatal(err)
	}
	shots := b.run(t, 100*time.Millisecond)
	// Ahead and a little to starboard: the Forward Beam, and the Star
	// Beam whose wide arc reaches the bow.
	if len(shots) < 2 {
		t.Fatalf("beams %+v", shots)
	}
	b.w.Object(akiraB).Model.SetHull(0)
	b.w.killShip(b.w.Object(akiraB), hitInfo{cause: CauseSelfDestruct})
	b.run(t, 200*time.Millisecond)
	if len(g.Targets("")) != 0 {
		t.Fatalf("dead target kept: %v", g.Targets(""))
	}
	if err := b.w.FireAt(g, b.w.Object(akiraB), GroupPulse); err == nil {
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
	for i := range g.host.weapons {
		if g.host.weapons[i].group == GroupTorpedoes {
			sys = &g.host.weapons[i]
		}
	}
	if len(hits) == 0 || hits[0].ShooterID != 0 || sys.ammo[0] != g.Model.Class().TorpedoAmmo[0].MaxTorpedoes-len(shots) {
		t.Fatalf("hits %d ammo %v", len(hits), sys.ammo)
	}
}

// Pulse cannons fire a bolt (TorpedoFire from the cannon) whenever their
// charge allows, paying for each.
func TestHostPulseCannons(t *testing.T) {
	b := newSimBattle(t, 2)
	bop := b.hostShip(HostShipSpec{Species: 6, Name: "BoP", Set: "Multi1", Team: 1})
	b.move(1, akiraB, [3]float32{0, 50, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	if err := b.w.FireAt(bop, b.w.Object(akiraB), GroupPulse); err != nil {
		t.Fatal(err)
	}
	shots := b.run(t, 10*time.Second)
	per := map[int32][]time.Duration{}
	for _, s := range shots {
		per[s.weapon] = append(per[s.weapon], s.at)
	}
	if len(per) != 2 {
		t.Fatalf("cannons that fired: %v", per)
	}
	for id, ts := range per {
		if len(ts) < 3 {
			t.Fatalf("cannon %#x fired %d bolts", id, len(ts))
		}
		for i := 1; i < len(ts); i++ {
			if ts[i]-ts[i-1] < 1900*time.Millisecond {
				t.Fatalf("cannon %#x: bolts %v apart", id, ts[i]-ts[i-1])
			}
		}
	}
}

// Host weapons do not fire at a cloaked ship (simulation.md 5.6), and
// fire again once it decloaks.
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
	if shots := b.run(t, 3*time.Second); len(shots) != 0 || !b.w.Object(akiraB).Cloaked() {
		t.Fatalf("fired at a cloaked ship: %+v", shots)
	}
	cloak(false)
	if shots := b.run(t, 200*time.Millisecond); len(shots) == 0 {
		t.Fatal("no fire after decloaking")
	}
}
