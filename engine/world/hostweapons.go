package world

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// A host ship's weapons are the same systems every ship has (arms.go); the
// host only gives the orders a stock AI gives (simulation.md 3.6): FireAt
// appends a target to a system's list — on a phaser system that is the
// stock PhaserSystem::StartFiring, which every peer hears as StartFiring
// 0x07 — and StopFiring empties it (StopFiring 0x08). The phaser banks
// then beam on every peer, the host's copy included; the host's own
// cannons and tubes fire bolts (PulseFire 0x1A) and torpedoes
// (TorpedoFire 0x19) one by one, as a stock owner's would, with firing
// player 0 (opcodes.md 3.5-3.6, Correction 24).

// ErrNoWeapons is FireAt's answer when the ship has no weapon system of the
// group asked for.
var ErrNoWeapons = errors.New("no weapon system of that group")

// Launcher constants the data leaves open.
const (
	// tubeCone is how far off a tube's direction a guided torpedo may be
	// launched (radians); dumbfireCone for a dumb-fire tube.
	tubeCone     = math.Pi / 2
	dumbfireCone = 0.35
)

func groupMatches(s *weaponSystem, group string) bool {
	// "All" means the weapons: a tractor is engaged only when asked for.
	return group == "" && s.group != GroupTractors || s.group == group
}

// FireAt adds target to the target list of a host ship's weapon systems of
// group ("" for all): the stock StartFiring. A system that is disabled or
// off ignores it, a target already listed is not added twice, and a ship
// never targets itself. A phaser or tractor system tells every player with
// StartFiring 0x07 naming the system and the target, aimed at its power
// plant (no offset). Tractors (GroupTractors) are engaged only by name,
// never by "".
func (w *World) FireAt(o, target *Object, group string) error {
	w.sync()
	if _, err := w.liveHost(o); err != nil {
		return err
	}
	if target == nil || target == o || !target.IsShip() {
		return errors.New("fire at: not a ship to fire at")
	}
	found := false
	for i := range o.sim.arms {
		s := &o.sim.arms[i]
		if !groupMatches(s, group) {
			continue
		}
		found = true
		if systemDown(o, s) || s.find(target.ID) >= 0 {
			continue
		}
		if len(s.targets) >= maxTargets {
			return fmt.Errorf("fire at: %d targets already", maxTargets)
		}
		s.addTarget(o.ID, aimTarget{id: target.ID})
		if s.weapon == ships.WeaponPhaser || s.weapon == ships.WeaponTractor {
			w.buf = codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet,
				Dst: o.Model.SubsystemID(s.sub), Target: target.ID}.AppendTo(w.buf[:0])
			w.broadcast()
		}
	}
	if !found {
		return fmt.Errorf("fire at %q: %w", group, ErrNoWeapons)
	}
	return nil
}

// StopFiring empties the target lists of a host ship's weapon systems of
// group ("" for all) and ends their beams: the stock StopFiring, which a
// phaser system that was firing sends as StopFiring 0x08.
func (w *World) StopFiring(o *Object, group string) error {
	w.sync()
	if _, err := w.liveHost(o); err != nil {
		return err
	}
	for i := range o.sim.arms {
		s := &o.sim.arms[i]
		if !groupMatches(s, group) {
			continue
		}
		if s.firing && s.weapon == ships.WeaponPhaser {
			w.buf = codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet,
				Dst: o.Model.SubsystemID(s.sub)}.AppendTo(w.buf[:0])
			w.broadcast()
		}
		w.stopSystem(o, s)
	}
	return nil
}

// SetSingleFire makes a host ship's weapon systems of group fire one weapon
// at a time (the hardpoint's SetSingleFire, which the data now records;
// this overrides it).
func (w *World) SetSingleFire(o *Object, group string, on bool) error {
	w.sync()
	if _, err := w.liveHost(o); err != nil {
		return err
	}
	for i := range o.sim.arms {
		if s := &o.sim.arms[i]; groupMatches(s, group) {
			s.singleFire = on
		}
	}
	return nil
}

// Targets returns the target ids of a host ship's systems of group, in
// list order, without repeats.
func (o *Object) Targets(group string) []int32 {
	if o.host == nil {
		return nil
	}
	var out []int32
	for i := range o.sim.arms {
		s := &o.sim.arms[i]
		if !groupMatches(s, group) {
			continue
		}
		for _, t := range s.targets {
			if !containsID(out, t.id) {
				out = append(out, t.id)
			}
		}
	}
	return out
}

func containsID(ids []int32, id int32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// hostLauncherTick fires a host ship's pulse cannons or torpedo tubes at
// the targets of their system.
func (w *World) hostLauncherTick(o *Object, s *weaponSystem) {
	w.purgeTargets(o, s)
	if systemDown(o, s) || len(s.targets) == 0 {
		return
	}
	if s.weapon == ships.WeaponTorpedo {
		w.fireTubes(o, s)
		return
	}
	for k := range s.banks {
		b := &s.banks[k]
		d := bankData(o, b)
		// The same charge gate as a player's bolts (pulseCharged); a host
		// cannon refires no sooner than a stock one was seen to.
		if !pulseCharged(b, d) || bankDown(o, b) || !b.lastShot.IsZero() && w.now.Sub(b.lastShot) < hostPulseRefire {
			continue
		}
		if t := w.pickTarget(o, s, b); t != nil {
			w.fireBolt(o, s, b, t)
			if s.singleFire {
				return
			}
		}
	}
}

// fireTubes launches at most one torpedo per immediate delay, from the
// next loaded tube that has a target in reach.
func (w *World) fireTubes(o *Object, s *weaponSystem) {
	if w.now.Before(s.nextLaunch) || s.ammoLeft() <= 0 {
		return
	}
	n := len(s.banks)
	for j := range n {
		k := (s.last + 1 + j) % n
		b := &s.banks[k]
		if b.loaded <= 0 || bankDown(o, b) {
			continue
		}
		if t := w.pickTarget(o, s, b); t != nil {
			s.last = k
			d := bankData(o, b)
			s.nextLaunch = w.now.Add(time.Duration(float64(d.ImmediateDelay) * float64(time.Second)))
			w.fireTorpedo(o, s, b, t)
			return
		}
	}
}

// pickTarget returns the weapon's current target if it can still hit it,
// else the first listed target it can hit, or nil.
func (w *World) pickTarget(o *Object, s *weaponSystem, b *weaponBank) *Object {
	if x := w.objects[b.target]; x != nil && s.find(b.target) >= 0 && w.launcherCanHit(o, s, b, x) {
		return x
	}
	for _, t := range s.targets {
		if x := w.objects[t.id]; x != nil && w.launcherCanHit(o, s, b, x) {
			b.target = x.ID
			return x
		}
	}
	return nil
}

// launcherCanHit checks a cannon's or tube's reach and arc (a tube's cone
// about its direction). A cannon reaches what its bolt can fly to within
// its lifetime [code: FUN_00575610]; a torpedo what it can fly to while it
// homes. A cloaked ship cannot be targeted (simulation.md 5.6).
func (w *World) launcherCanHit(o *Object, s *weaponSystem, b *weaponBank, x *Object) bool {
	if !x.Alive() || x.Model == nil || x.Cloaked() || !x.state.hasPos && x.host == nil {
		return false
	}
	d := bankData(o, b)
	delta := sub3(x.pos(), weaponPos(o, b))
	dist := norm(delta)
	if s.weapon == ships.WeaponTorpedo {
		proj, ok := w.ships.Projectile(torpedoFor(o.Model.Class(), s.ammoType))
		if !ok || dist > proj.LaunchSpeed*max(proj.GuidanceLifetime, proj.Lifetime, 6) {
			return false
		}
		cone := tubeCone
		if d.Dumbfire {
			cone = dumbfireCone
		}
		v := unit3(toLocal(o, delta), d.Direction)
		return math.Acos(float64(max(-1, min(1, dot3(v, unit3(d.Direction, [3]float32{0, 1, 0})))))) <= cone
	}
	proj, ok := w.ships.ProjectileByStem(d.Projectile)
	if !ok {
		return false
	}
	life := proj.Lifetime
	if life <= 0 {
		life = defaultBoltLifetime
	}
	return dist <= proj.LaunchSpeed*life && inArc(o, d, delta, 0)
}

// fireBolt fires one bolt of a host cannon at x: PulseFire 0x1A to every
// player, and the bolt into the host's own flight.
func (w *World) fireBolt(o *Object, s *weaponSystem, b *weaponBank, x *Object) {
	d := bankData(o, b)
	proj, ok := w.ships.ProjectileByStem(d.Projectile)
	if !ok {
		return
	}
	from := weaponPos(o, b)
	dir := lead(from, x, proj.LaunchSpeed)
	b.charge -= pulseCost(d)
	b.lastShot = w.now
	id := o.Model.SubsystemID(b.sub)
	w.buf = codec.PulseFire{CannonID: id, Dir: codec.NewDir3(dir[0], dir[1], dir[2]),
		Flags: codec.PulseHasTarget, Target: x.ID}.AppendTo(w.buf[:0])
	w.broadcast()
	w.launch(o, b, weaponRef{id: id, sub: b.sub, kind: KindOf(s.weapon)}, 0, proj, proj.Damage*pulseDamageScale[LevelMed], dir, x.ID, nil)
}

// fireTorpedo launches one torpedo of a host tube at x, aimed at the point
// of x facing the tube: TorpedoFire 0x19 to every player, and the torpedo
// into the host's own flight.
func (w *World) fireTorpedo(o *Object, s *weaponSystem, b *weaponBank, x *Object) {
	proj, ok := w.ships.Projectile(torpedoFor(o.Model.Class(), s.ammoType))
	if !ok {
		return
	}
	b.loaded--
	s.ammo[s.ammoType]--
	b.lastShot = w.now
	from := weaponPos(o, b)
	dir := unit3(sub3(x.pos(), from), [3]float32{0, 1, 0})
	pt := pointToward(x, from)
	sp := codec.NewScaledPoint(pt, x.sim.shape.radius)
	aim := sp.Vector(x.sim.shape.radius)
	id := o.Model.SubsystemID(b.sub)
	w.buf = codec.TorpedoFire{TubeID: id, Flags: codec.TorpedoArg, Dir: codec.NewDir3(dir[0], dir[1], dir[2]),
		Target: x.ID, Point: sp}.AppendTo(w.buf[:0])
	w.broadcast()
	w.launch(o, b, weaponRef{id: id, sub: b.sub, kind: KindTorpedo}, 0, proj, proj.Damage, dir, x.ID, &aim)
}

// lead returns the direction a straight bolt at speed must take from from
// to meet x if x keeps its velocity; toward x's position when it cannot.
func lead(from [3]float32, x *Object, speed float32) [3]float32 {
	rel := sub3(x.pos(), from)
	v := x.Velocity()
	// |rel + v t| = speed t
	a := dot3(v, v) - speed*speed
	bq := 2 * dot3(rel, v)
	c := dot3(rel, rel)
	t := float32(-1)
	if math.Abs(float64(a)) < 1e-6 {
		if bq != 0 {
			t = -c / bq
		}
	} else if disc := bq*bq - 4*a*c; disc >= 0 {
		sq := float32(math.Sqrt(float64(disc)))
		t1, t2 := (-bq-sq)/(2*a), (-bq+sq)/(2*a)
		t = min(t1, t2)
		if t < 0 {
			t = max(t1, t2)
		}
	}
	if t > 0 {
		rel = add3(rel, scale3(v, t))
	}
	return unit3(rel, [3]float32{0, 1, 0})
}
