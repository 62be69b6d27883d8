package world

import (
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The combat-fidelity table: each test reproduces a number the spec gives
// for the stock executable (simulation.md 5, its Corrections 28-39 and the
// single-player measurements it cites), through the same calls the engine
// makes for a stock client's messages.

// spawn flies player i's first ship: a ship of species at pos, nose along
// fwd (up +Z), with the full-health tail of its class.
func (b *battle) spawn(i, species int, pos, fwd [3]float32) *Object {
	b.t.Helper()
	m, err := codec.DecodeObjCreate(vec(b.t, "simulation.json", "objcreateteam_akira_spawn"))
	if err != nil {
		b.t.Fatal(err)
	}
	c, ok := b.w.Ships().Class(species)
	if !ok {
		b.t.Fatalf("no species %d", species)
	}
	m.OwnerSlot, m.OwnerPlayer = uint8(i), b.owners[i].ID
	m.ObjectID = codec.FirstObjectID(i)
	m.Ship.Species, m.Ship.Position = uint8(species), pos
	var w codec.Writer
	ships.AppendTail(&w, ships.NewShip(c, m.ObjectID), ships.DefaultTail())
	m.Ship.Tail = w.Bytes()
	o := b.create(i, m.AppendTo(nil))
	f := unit3(fwd, [3]float32{0, 1, 0})
	b.move(i, o.ID, pos, codec.NewDir3(f[0], f[1], f[2]), codec.Dir3{0, 0, 127})
	return o
}

// hitsOn collects the weapon hits on a ship.
func (b *battle) hitsOn(o *Object) *[]*WeaponHit {
	var hits []*WeaponHit
	b.on(EvWeaponHit, func(e Event) {
		if h := e.(*WeaponHit); h.Target == o {
			hits = append(hits, h)
		}
	})
	return &hits
}

// tick advances the battle in 100 ms game ticks for d.
func (b *battle) tick(d time.Duration) {
	for end := b.now.Add(d); b.now.Before(end); {
		b.advance(100 * time.Millisecond)
	}
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// A 500-point photon through down shields takes 500 off the hull — not
// 1,000, and not only what the subsystems could not absorb — and 500 off
// each subsystem in its footprint (simulation.md 5.3, Corrections 30 and
// 33; measured §6.1: four photons on a bare hull took 2,000 off the hull
// and up to 2,000 off each subsystem in the footprint).
func TestPhotonThroughDownShields(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	a := b.spawn(0, 1, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})  // Akira: Photon is ammo type 0
	g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0}) // Galaxy
	g.sim.shields = [6]float32{}
	g.Model.SetCondition(g.Model.Class().Repair, 0) // no repairs between the hits
	hits := b.hitsOn(g)
	hull0 := g.Model.Hull()
	before := make([]float32, len(g.Model.Class().Subsystems))
	for i := range before {
		before[i] = g.Model.Condition(i)
	}
	tube := systemID(t, a, "Forward Torp 1")
	for range 4 {
		b.fire(0, codec.TorpedoFire{TubeID: tube, FiringPlayer: 2, Flags: codec.TorpedoArg, Dir: codec.Dir3{0, 127, 0},
			Target: g.ID}.AppendTo(nil))
		b.tick(3 * time.Second) // 30 units at 19 units/s, and the tube ready again
	}
	if len(*hits) != 4 {
		t.Fatalf("%d hits (rejected %d)", len(*hits), b.w.Stats().WeaponRejected.Load())
	}
	for _, h := range *hits {
		if h.Damage != 500 || h.Absorbed != 0 || !h.HullHit || h.Kind != KindTorpedo || h.WeaponName != "Forward Torp 1" || h.ShooterID != 2 {
			t.Fatalf("hit %+v", h)
		}
	}
	if lost := hull0 - g.Model.Hull(); lost != 2000 {
		t.Errorf("hull lost %v, want 2000", lost)
	}
	c := g.Model.Class()
	for i := range before {
		lost := before[i] - g.Model.Condition(i)
		if i == c.Hull || lost == 0 {
			continue
		}
		if k := lost / 500; k != float32(int(k)) || k > 4 {
			t.Errorf("%s lost %v: not a whole number of 500-point hits", c.Subsystems[i].Name, lost)
		}
	}
}

// A Sovereign's phasers at MED (simulation.md 5.5, Correction 34): one
// bank beams at a time (single fire), its first damage 1.156 s after it
// starts [measured §2.2], then MaxDamage 300 × 0.5 × min(1, 70 / d) per
// second of hitting in 0.53125-s quanta of 80 (Correction 45) until its
// 5.0 charge is drained at 1.0/s: 150/s inside 70 units and ≈ 17.5/s at
// 600, never cut off by range once started [measured §2.1: still MDD/d at
// 600 GU].
func TestSovereignBeamAtMED(t *testing.T) {
	for _, tt := range []struct {
		dist float32
		rate float64 // damage per second of hitting
	}{{50, 300 * 0.5}, {600, 300 * 0.5 * 70 / 600}} {
		b := newBattle(t, 2, stockOptions())
		a := b.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
		g := b.spawn(1, 3, [3]float32{0, tt.dist, 0}, [3]float32{0, 1, 0})
		hits := b.hitsOn(g)
		start := b.now
		b.fire(0, startFiring(systemID(t, a, "Phasers"), g.ID))
		var firstAt time.Duration
		for range 200 {
			b.advance(100 * time.Millisecond)
			if len(*hits) > 0 && firstAt == 0 {
				firstAt = b.now.Sub(start)
			}
			if len(*hits) > 0 && (*hits)[len(*hits)-1].Weapon != (*hits)[0].Weapon {
				break // the next bank took over
			}
		}
		if firstAt < 1156*time.Millisecond || firstAt > 1300*time.Millisecond {
			t.Errorf("%v units: first damage %v after the start, want 1.156 s (to the next tick)", tt.dist, firstAt)
		}
		bank := (*hits)[0].Weapon
		var total float64
		n := 0
		for _, h := range *hits {
			if h.Weapon != bank {
				break
			}
			if h.Kind != KindPhaser || h.ShooterID != 2 || h.Shooter != a {
				t.Fatalf("hit %+v", h)
			}
			total += h.Damage
			n++
		}
		// 5.0 charge at 1.0/s, 0.16 s of it spent extending the ray.
		want := tt.rate * (5.0 - 0.16)
		if !near(total, want, 0.05) {
			t.Errorf("%v units: one bank's beam dealt %.1f in %d quanta, want %.1f (%.1f/s)", tt.dist, total, n, want, tt.rate)
		}
		// Every quantum but the last is 0.53125 s of hitting, although
		// the ticks are 0.1 s.
		for i, h := range (*hits)[:n-1] {
			if !near(h.Damage, tt.rate*0.53125, 0.02) {
				t.Errorf("%v units: quantum %d is %.2f, want %.2f", tt.dist, i, h.Damage, tt.rate*0.53125)
			}
		}
	}
}

// LOW never damages the hull, only subsystems, at a quarter of MaxDamage
// (simulation.md 5.5 [measured §6.2]; level set by SetPhaserLevel 0x12,
// Correction 25).
func TestLowBeamSparesTheHull(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	a := b.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 40, 0}, [3]float32{0, 1, 0})
	g.sim.shields = [6]float32{}
	hits := b.hitsOn(g)
	phasers := systemID(t, a, "Phasers")
	b.fire(0, phaserLevel(phasers, LevelLow))
	b.fire(0, startFiring(phasers, g.ID))
	b.tick(6 * time.Second)
	if len(*hits) == 0 {
		t.Fatal("no hits")
	}
	var total float64
	for _, h := range *hits {
		if h.HullHit {
			t.Fatalf("a LOW beam hit the hull: %+v", h)
		}
		total += h.Damage
	}
	if g.Model.Hull() != g.Model.Class().Subsystems[g.Model.Class().Hull].MaxCondition {
		t.Errorf("hull %v after LOW beams", g.Model.Hull())
	}
	// 300 × 0.25 per second within 70 units; LOW drains 0.35/s, so the
	// bank beams the whole 6 s (less its windup and extend).
	if secs := total / (300 * 0.25); secs < 4.5 || secs > 5.5 {
		t.Errorf("LOW beam dealt %.1f: %.2f s at 75/s", total, secs)
	}
}

// A pulse bolt is a projectile of its cannon's script with that script's
// damage × the cannon's MED scale 0.5 (simulation.md 5.5, Correction 35):
// a Warbird bolt (RomulanCannon 400) deals 200 [measured §3, P1], not the
// cannon's MaxDamage 300, and arrives after its flight time. The Bird of
// Prey's PulseDisruptor (220) deals 110 by the same rule [measured:
// dscale_bop, Correction 44: its two cannons fire in the same frame].
func TestPulseBolts(t *testing.T) {
	for _, tt := range []struct {
		species int
		cannon  string
		damage  float64
	}{{8, "Port Cannon 1", 200}, {6, "Port Cannon", 110}} {
		b := newBattle(t, 2, stockOptions())
		a := b.spawn(0, tt.species, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
		g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
		hits := b.hitsOn(g)
		// The cannon aims from where it sits on the hull (the Warbird's
		// are 4.7 units to port) at the target, as a stock client's does.
		cannon := systemID(t, a, tt.cannon)
		i, _ := a.Model.SubsystemIndex(cannon)
		_, bank := a.bankOf(i)
		d := sub3(g.pos(), weaponPos(a, bank))
		b.fire(0, codec.PulseFire{CannonID: cannon, FiringPlayer: 2, Dir: codec.NewDir3(d[0], d[1], d[2]),
			Flags: codec.PulseArg | codec.PulseHasTarget, Target: g.ID}.AppendTo(nil))
		if len(*hits) != 0 {
			t.Fatal("the bolt hit at once")
		}
		b.tick(2 * time.Second)
		if len(*hits) != 1 || (*hits)[0].Damage != tt.damage || (*hits)[0].Kind != KindPulse || (*hits)[0].WeaponName != tt.cannon {
			t.Fatalf("species %d: hits %+v (rejected %d)", tt.species, *hits, b.w.Stats().WeaponRejected.Load())
		}
	}
}

// A cannon fires while its charge covers a bolt (Correction 44): a
// Warbird's four cannons (charge 2.0, a bolt 1.0 at MED) fire 8 bolts per
// full charge [measured P1, P4]; the host refuses the 9th to 12th a client
// sends in the same burst, and takes one again once a cannon has
// recharged, at its hardpoint rate (0.09/s) and no faster.
func TestPulseChargeGate(t *testing.T) {
	b := newBattle(t, 2, stockOptions())
	a := b.spawn(0, 8, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
	var cannons []int32
	for _, n := range []string{"Port Cannon 1", "Port Cannon 2", "Star Cannon 1", "Star Cannon 2"} {
		cannons = append(cannons, systemID(t, a, n))
	}
	burst := func(n int) {
		for k := range n {
			b.fire(0, codec.PulseFire{CannonID: cannons[k%4], FiringPlayer: 2, Dir: codec.Dir3{0, 127, 0},
				Flags: codec.PulseArg | codec.PulseHasTarget, Target: g.ID}.AppendTo(nil))
		}
	}
	burst(12)
	if got := b.w.Stats().WeaponRejected.Load(); got != 4 {
		t.Fatalf("%d of 12 bolts refused, want 4 (8 per full charge)", got)
	}
	// 0.97 of charge back takes 10.8 s at 0.09/s (no multiplier): at
	// 10 s a cannon still cannot pay, at 11.5 s it can.
	b.tick(10 * time.Second)
	burst(1)
	if got := b.w.Stats().WeaponRejected.Load(); got != 5 {
		t.Fatalf("a bolt after 10 s: %d refused, want 5", got)
	}
	b.tick(1500 * time.Millisecond)
	burst(1)
	if got := b.w.Stats().WeaponRejected.Load(); got != 5 {
		t.Fatalf("a bolt after 11.5 s: %d refused, want still 5", got)
	}
}

// A ram takes nothing off the shields (simulation.md 5.2, Correction 31;
// measured §7.4 C2 "shields untouched"): the captured Sovereign collision
// (force 1281.02, mass 100, one contact) puts 12.81 × 900 + 500 = 12,029
// on every subsystem in the contact's footprint, with the full shields
// still up.
func TestRamThroughFullShields(t *testing.T) {
	b := newSimBattle(t, 1)
	o := b.w.Object(shipA)
	shields := o.Shields()
	ce, err := codec.DecodeCollisionEffect(vec(t, "simulation.json", "collision_effect_P1_single_contact"))
	if err != nil {
		t.Fatal(err)
	}
	want := CollisionDamage(ce.Force, 100, 1)
	if math.Abs(float64(want)-12029) > 1 {
		t.Fatalf("collision damage %v, want 12,029", want)
	}
	before := make([]float32, len(o.Model.Class().Subsystems))
	for i := range before {
		before[i] = o.Model.Condition(i)
	}
	if err := b.w.Collision(b.now, b.owners[0], &ce); err != nil {
		t.Fatal(err)
	}
	if o.Shields() != shields {
		t.Errorf("shields %v -> %v", shields, o.Shields())
	}
	if c := o.Model.Class(); o.Model.Condition(c.Hull) != max(0, before[c.Hull]-want) {
		t.Errorf("hull %v -> %v: the ram's whole amount is %v", before[c.Hull], o.Model.Condition(c.Hull), want)
	}
	hit := 0
	for i := range before {
		if lost := before[i] - o.Model.Condition(i); lost > 0 {
			hit++
			if lost != min(before[i], want) {
				t.Errorf("%s lost %v, want %v", o.Model.Class().Subsystems[i].Name, lost, min(before[i], want))
			}
		}
	}
	if hit == 0 {
		t.Error("the ram hit nothing")
	}
}

// A Galaxy facing regains 6.15 every 0.656 s of game time, ≈ 9.4/s where
// its hardpoint says 11/s, at any power setting (simulation.md 5.5
// [measured §5.3 S4, S5]).
func TestGalaxyShieldRegen(t *testing.T) {
	b := newBattle(t, 1, stockOptions())
	g := b.spawn(0, 3, [3]float32{}, [3]float32{0, 1, 0})
	g.sim.shields[facingFront] = 1000
	b.tick(600 * time.Millisecond)
	if got := g.Shields()[facingFront]; got != 1000 {
		t.Errorf("regained %v before the first step", got-1000)
	}
	b.tick(100 * time.Millisecond) // 0.7 s: one step
	if got := g.Shields()[facingFront]; math.Abs(float64(got)-1006.15) > 0.01 {
		t.Errorf("one step: %v, want 1006.15", got)
	}
	b.tick(9300 * time.Millisecond) // 10 s in all: 15 steps
	if got := float64(g.Shields()[facingFront]) - 1000; math.Abs(got-15*6.15) > 0.05 {
		t.Errorf("10 s regained %.2f, want %.2f (%.2f/s)", got, 15*6.15, 6.15/0.656)
	}
}
