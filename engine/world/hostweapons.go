package world

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The host fires its own ships' weapons the way a stock weapon system does
// (simulation.md 3.6, 5.5): a target list in insertion order that
// FireAt appends to, and every tick each bank tries its current target
// first, then the list in order, firing at the first it can hit when its
// charge (beams, pulse cannons) or load (torpedo tubes) allows. A
// single-fire system — the Mission5 starbase's phasers — beams from one
// bank at a time, handing on in bank order. Each shot goes to every player
// as the stock owner's message would (BeamFire 0x1A, TorpedoFire 0x19) and
// through the weapon model like a player's shot.

// Weapon groups name a ship's weapon systems to FireAt and StopFiring.
const (
	GroupPhasers   = "phasers"
	GroupTorpedoes = "torpedoes"
	GroupPulse     = "pulse"
)

// Weapon constants. The data leaves these open; the values are chosen
// where each is used.
const (
	// systemDisabled is a weapon system container's disabled fraction:
	// containers are not in subsystems.json; the starbase's Phasers
	// system has 0.75 (simulation.md 3.6), as every stock bank does.
	systemDisabled float32 = 0.75
	// pulseCost is the charge one pulse bolt costs at the medium setting
	// (simulation.md 5.5).
	pulseCost float32 = 1
	// tubeCone is how far off a tube's direction a guided torpedo may be
	// launched (radians); dumbfireCone for a dumb-fire tube.
	tubeCone     = math.Pi / 2
	dumbfireCone = 0.35
	// shotInfo is the byte after the weapon id in 0x19/0x1A (+0x14C of the
	// fired object; 0x02 is what stock captures show, opcodes.md 6).
	shotInfo = 0x02
)

// weaponSystem is one weapon system of a host ship and its banks (phaser
// banks, pulse cannons or torpedo tubes).
type weaponSystem struct {
	entry, sub int
	kind       ships.Kind
	group      string
	singleFire bool
	firing     bool
	targets    []int32
	last       int // the bank that fired last: a pass starts there
	banks      []weaponBank
	nextLaunch time.Time
	ammo       []int // torpedoes left per ammo type
	ammoType   int
}

type weaponBank struct {
	sub     int
	charge  float32
	beaming bool    // a phaser beam is on
	target  int32   // the bank's current target
	loaded  int     // a tube's torpedoes ready
	reload  float32 // seconds until the tube's next torpedo is ready
}

func newWeaponSystems(c *ships.Class) []weaponSystem {
	var out []weaponSystem
	for e := range c.Entries {
		en := &c.Entries[e]
		s := weaponSystem{entry: e, sub: en.Subsystem, kind: en.Kind}
		switch en.Kind {
		case ships.KindPhaserSystem:
			s.group = GroupPhasers
		case ships.KindPulseSystem:
			s.group = GroupPulse
		case ships.KindTorpedoSystem:
			s.group = GroupTorpedoes
			for _, a := range c.TorpedoAmmo {
				s.ammo = append(s.ammo, a.MaxTorpedoes)
			}
		default:
			continue
		}
		for i := en.Subsystem + 1; i <= en.Subsystem+en.Children; i++ {
			d := c.Subsystems[i].Data
			if d == nil {
				continue
			}
			b := weaponBank{sub: i, charge: d.MaxCharge, loaded: d.MaxReady}
			s.banks = append(s.banks, b)
		}
		if len(s.banks) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func groupMatches(s *weaponSystem, group string) bool { return group == "" || s.group == group }

// ErrNoWeapons is FireAt's answer when the ship has no weapon system of the
// group asked for.
var ErrNoWeapons = errors.New("no weapon system of that group")

// FireAt adds target to the target list of a host ship's weapon systems of
// group ("" for all): the stock StartFiring. A system that is disabled or
// off ignores it, a target already listed is not added twice, and a ship
// never targets itself.
func (w *World) FireAt(o, target *Object, group string) error {
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	if target == nil || target == o || !target.IsShip() {
		return errors.New("fire at: not a ship to fire at")
	}
	found := false
	for i := range h.weapons {
		s := &h.weapons[i]
		if !groupMatches(s, group) {
			continue
		}
		found = true
		if w.systemDown(o, s) || containsID(s.targets, target.ID) {
			continue
		}
		if len(s.targets) >= maxTargets {
			return fmt.Errorf("fire at: %d targets already", maxTargets)
		}
		s.targets = append(s.targets, target.ID)
		s.firing = true
	}
	if !found {
		return fmt.Errorf("fire at %q: %w", group, ErrNoWeapons)
	}
	return nil
}

// maxTargets bounds a system's target list.
const maxTargets = 64

// StopFiring empties the target lists of a host ship's weapon systems of
// group ("" for all) and ends their beams: the stock StopFiring.
func (w *World) StopFiring(o *Object, group string) error {
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	for i := range h.weapons {
		if s := &h.weapons[i]; groupMatches(s, group) {
			s.stop()
		}
	}
	return nil
}

// SetSingleFire makes a host ship's weapon systems of group fire one bank
// at a time (the stock SetSingleFire; the FedStarbase hardpoint sets it on
// its phasers, which the data set does not record).
func (w *World) SetSingleFire(o *Object, group string, on bool) error {
	h, err := w.liveHost(o)
	if err != nil {
		return err
	}
	for i := range h.weapons {
		if s := &h.weapons[i]; groupMatches(s, group) {
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
	for i := range o.host.weapons {
		s := &o.host.weapons[i]
		if !groupMatches(s, group) {
			continue
		}
		for _, id := range s.targets {
			if !containsID(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

func (s *weaponSystem) stop() {
	s.targets = s.targets[:0]
	s.firing = false
	for i := range s.banks {
		s.banks[i].beaming = false
		s.banks[i].target = 0
	}
}

func containsID(ids []int32, id int32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// systemDown reports a weapon system that cannot fire: destroyed, below
// its disabled fraction, or switched off.
func (w *World) systemDown(o *Object, s *weaponSystem) bool {
	m := o.Model
	if _, on := m.Power(s.entry); !on {
		return true
	}
	return m.ConditionFraction(s.sub) < systemDisabled
}

// SubsystemDisabled reports whether subsystem i of a ship is below its
// disabled fraction (subsystems.json disabled_pct; weapon system
// containers, which the file does not list, at 0.75) or destroyed.
func SubsystemDisabled(m *ships.Ship, i int) bool {
	pct := systemDisabled
	if d := m.Class().Subsystems[i].Data; d != nil {
		pct = d.DisabledPct
	}
	return m.Condition(i) <= 0 || m.ConditionFraction(i) < pct
}

// bankDown reports a bank that cannot fire: below its disabled fraction.
func bankDown(o *Object, b *weaponBank) bool {
	m := o.Model
	d := m.Class().Subsystems[b.sub].Data
	return m.Condition(b.sub) <= 0 || m.ConditionFraction(b.sub) < d.DisabledPct
}

// weaponTick runs a host ship's weapon systems for dt seconds.
func (w *World) weaponTick(o *Object, dt float32) {
	for i := range o.host.weapons {
		s := &o.host.weapons[i]
		w.chargeBanks(o, s, dt)
		if !s.firing {
			continue
		}
		w.purgeTargets(o, s)
		if w.systemDown(o, s) {
			for k := range s.banks {
				s.banks[k].beaming = false
			}
			continue
		}
		if len(s.targets) == 0 {
			continue
		}
		switch s.kind {
		case ships.KindPhaserSystem:
			w.firePhasers(o, s)
		case ships.KindPulseSystem:
			for k := range s.banks {
				if b := &s.banks[k]; b.charge >= w.data(o, b).MinFiringCharge && !bankDown(o, b) {
					w.tryBank(o, s, k)
				}
			}
		case ships.KindTorpedoSystem:
			w.fireTubes(o, s)
		}
	}
}

func (w *World) data(o *Object, b *weaponBank) *ships.SubsystemData {
	return o.Model.Class().Subsystems[b.sub].Data
}

// chargeBanks drains the beaming phasers, recharges the others (scaled by
// the bank's condition, simulation.md 5.5) and reloads the tubes.
func (w *World) chargeBanks(o *Object, s *weaponSystem, dt float32) {
	m := o.Model
	for k := range s.banks {
		b := &s.banks[k]
		d := w.data(o, b)
		switch {
		case s.kind == ships.KindTorpedoSystem:
			if b.loaded >= d.MaxReady || s.ammoLeft() <= s.loadedTubes() {
				b.reload = d.ReloadDelay
				continue
			}
			b.reload -= dt * m.ConditionFraction(b.sub)
			if b.reload <= 0 {
				b.loaded++
				b.reload = d.ReloadDelay
			}
		case b.beaming:
			b.charge -= d.DischargeRate * dt
			if b.charge <= 0 {
				b.charge, b.beaming, b.target = 0, false, 0
			}
		default:
			b.charge = min(d.MaxCharge, b.charge+d.RechargeRate*m.ConditionFraction(b.sub)*dt)
		}
	}
}

// ammoLeft is the selected ammo type's torpedoes not yet fired (the
// loaded ones included).
func (s *weaponSystem) ammoLeft() int {
	if s.ammoType < 0 || s.ammoType >= len(s.ammo) {
		return 0
	}
	return s.ammo[s.ammoType]
}

// loadedTubes counts the torpedoes loaded in the system's tubes.
func (s *weaponSystem) loadedTubes() int {
	n := 0
	for i := range s.banks {
		n += s.banks[i].loaded
	}
	return n
}

// purgeTargets drops targets that are gone or dead (simulation.md 3.6:
// FUN_00584cc0) and ends beams at them.
func (w *World) purgeTargets(o *Object, s *weaponSystem) {
	keep := s.targets[:0]
	for _, id := range s.targets {
		if t := w.objects[id]; t != nil && t.Alive() {
			keep = append(keep, id)
		}
	}
	s.targets = keep
	for k := range s.banks {
		if b := &s.banks[k]; b.target != 0 && !containsID(s.targets, b.target) {
			b.target, b.beaming = 0, false
		}
	}
}

// firePhasers runs one pass over the phaser banks: in a single-fire system
// nothing starts while a beam is on, and the pass starts at the bank that
// fired last and stops at the first that fires.
func (w *World) firePhasers(o *Object, s *weaponSystem) {
	if s.singleFire {
		for k := range s.banks {
			if s.banks[k].beaming {
				return
			}
		}
	}
	n := len(s.banks)
	start := s.last
	for j := range n {
		k := (start + j) % n
		b := &s.banks[k]
		if b.beaming || bankDown(o, b) || b.charge < w.data(o, b).MinFiringCharge {
			continue
		}
		if w.tryBank(o, s, k) && s.singleFire {
			return
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
		if w.tryBank(o, s, k) {
			d := w.data(o, b)
			s.nextLaunch = w.now.Add(time.Duration(float64(d.ImmediateDelay) * float64(time.Second)))
			return
		}
	}
}

// tryBank fires bank k at its current target or, failing that, the first
// listed target it can hit; it reports whether it fired.
func (w *World) tryBank(o *Object, s *weaponSystem, k int) bool {
	b := &s.banks[k]
	var target *Object
	if b.target != 0 {
		if t := w.objects[b.target]; t != nil && w.canHit(o, s, b, t) {
			target = t
		}
	}
	for _, id := range s.targets {
		if target != nil {
			break
		}
		if t := w.objects[id]; t != nil && w.canHit(o, s, b, t) {
			target = t
		}
	}
	if target == nil {
		return false
	}
	b.target = target.ID
	s.last = k
	w.shoot(o, s, b, target)
	return true
}

// canHit checks range and firing arc (or a tube's cone) from the ship's
// centre. A cloaked ship cannot be hit: stock AI refuses to target a fully
// cloaked ship (simulation.md 5.6).
func (w *World) canHit(o *Object, s *weaponSystem, b *weaponBank, t *Object) bool {
	if !t.Alive() || !t.state.hasPos || t.Cloaked() {
		return false
	}
	d := w.data(o, b)
	delta := sub3(t.pos(), o.pos())
	dist := norm(delta)
	if s.kind == ships.KindTorpedoSystem {
		proj, ok := w.ships.Projectile(torpedoFor(o.Model.Class(), s.ammoType))
		if !ok || dist > torpedoReach(proj) {
			return false
		}
		cone := tubeCone
		if d.Dumbfire {
			cone = dumbfireCone
		}
		v := unit3(toLocal(o, delta), d.Direction)
		return math.Acos(float64(max(-1, min(1, dot3(v, unit3(d.Direction, [3]float32{0, 1, 0})))))) <= cone
	}
	return dist <= beamReach*d.MaxDamageDistance && inArc(o, d, delta, 0)
}

// shoot sends the bank's fire message and runs the weapon model on it.
func (w *World) shoot(o *Object, s *weaponSystem, b *weaponBank, t *Object) {
	m := o.Model
	dir := unit3(sub3(t.pos(), o.pos()), [3]float32{0, 1, 0})
	op := byte(codec.OpBeamFire)
	var aim *[3]float32
	switch s.kind {
	case ships.KindPhaserSystem:
		b.beaming = true
		w.buf = codec.BeamFire{BeamID: m.SubsystemID(b.sub), Info: shotInfo, Dir: codec.NewDir3(dir[0], dir[1], dir[2]),
			Flags: codec.BeamArg | codec.BeamHasTarget, Target: t.ID}.AppendTo(w.buf[:0])
	case ships.KindPulseSystem, ships.KindTorpedoSystem:
		op = codec.OpTorpedoFire
		pt := pointToward(t, o.pos())
		sp := codec.NewScaledPoint(pt, t.sim.radius)
		w.aim = sp.Vector(t.sim.radius)
		aim = &w.aim
		if s.kind == ships.KindPulseSystem {
			b.charge -= pulseCost
		} else {
			b.loaded--
			s.ammo[s.ammoType]--
		}
		w.buf = codec.TorpedoFire{TubeID: m.SubsystemID(b.sub), Projectile: shotInfo, Flags: codec.TorpedoArg,
			Dir: codec.NewDir3(dir[0], dir[1], dir[2]), Target: t.ID, Point: sp}.AppendTo(w.buf[:0])
	}
	w.broadcast()
	if w.weapons == nil {
		return
	}
	hit, ok := w.weapons.Fire(w, Shot{Ship: o, Opcode: op, Weapon: b.sub, Target: t, Aim: aim, Ammo: s.ammoType})
	if !ok {
		w.stats.WeaponRejected.Add(1)
		return
	}
	w.deliver(0, o, t, hit)
}
