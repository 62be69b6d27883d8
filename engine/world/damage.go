package world

import (
	"math"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The damage pipeline in the stock order (simulation.md 5.1-5.4,
// Corrections 30-33 and 37), top to bottom: a weapon hit (a beam's
// quantum, beams.go, or a projectile's impact, projectiles.go) takes the
// shooter's modifiers and the mission's damage rule (weaponHit), then
// passes the shield facing it enters through, which absorbs its share;
// what passes is taken once — never doubled — by the hull and,
// independently, by every subsystem in the hit's footprint, each loss
// queued for repair. Collisions (collision.go) skip the shields and go
// straight to the footprint. A critical subsystem at 0 destroys the ship
// (death.go).

// hit is one application of damage to a ship.
type hit struct {
	damage float32    // the amount before shields
	point  [3]float32 // the footprint's centre, model frame
	radius float32    // R of the footprint (simulation.md 5.3)
	// facing is the shield facing the shot passes through, noShields for
	// a path with no shield step (collisions).
	facing int
	// hull says how the hull takes the hit (simulation.md 5.3 "Hull").
	hull hullRule
	// keepPowerPlant appends the power plant to the footprint whatever
	// its distance (simulation.md 5.3 step 3).
	keepPowerPlant bool
}

// noShields is hit.facing for a path with no shield step.
const noShields = -1

// hullRule is how a hit reaches the hull.
type hullRule uint8

const (
	// hullInSet: the hull is a member of the hit set like any subsystem.
	hullInSet hullRule = iota
	// hullFull: the hull takes the whole post-shield amount wherever the
	// hit lands (every weapon hit [measured §6.1] and every collision
	// contact [measured §7.4]), and is left out of the set so it is not
	// hit twice.
	hullFull
	// hullSpared: the hull takes nothing (LOW beams [measured §6.2]).
	hullSpared
)

// hitResult is what one application of damage did.
type hitResult struct {
	absorbed float32 // taken by the shield facing
	passed   float32 // got past the shields
	hull     bool    // the hull lost condition
	// overflow is the sum of what the footprint's members could not take
	// (simulation.md 5.3 step 5): collisions pass it to the next contact.
	overflow float32
	// lethal: a critical subsystem is at 0. The caller runs the death
	// (killShip) after raising whatever the hit itself raises, because the
	// stock scripts see the weapon hit before the object exploding
	// (missions.md 3.4-3.5).
	lethal bool
}

// hitInfo says who and what caused damage, for kill credit.
type hitInfo struct {
	cause      DeathCause
	attacker   *Object // the other ship (collision) or the shooter's ship
	attackerID int     // the firing player's id, 0 for none
	weapon     weaponRef
	weaponName string
}

// weaponRef names the weapon behind a hit: its object id, its subsystem
// index on the firing ship (-1 for none) and its kind.
type weaponRef struct {
	id   int32
	sub  int
	kind WeaponKind
}

// weaponHit applies one weapon hit of a shooter (nil when it is gone) to
// x, raises weapon_hit and ship_damaged, and then, if the hit was lethal,
// destroys x: the stock scripts book the killing hit's damage before they
// see the object exploding (missions.md 3.4-3.5).
func (w *World) weaponHit(shooter *Object, firing int, x *Object, h *hit, ref weaponRef) {
	if w.noWeaponDamage || !x.Alive() {
		return
	}
	h.damage *= w.mod(shooter, dealt)
	if w.damageHook != nil && !w.hookHit(shooter, firing, x, h, ref) {
		return // the mission's damage rule cancelled it (hookHit)
	}
	res := w.applyHit(x, h)
	w.stats.WeaponHits.Add(1)
	name := weaponName(shooter, ref)
	w.env.Emit(&WeaponHit{ShooterID: firing, Shooter: shooter, Target: x, Damage: float64(h.damage), HullHit: res.hull,
		Absorbed: float64(res.absorbed), Weapon: ref.id, WeaponName: name, Kind: ref.kind})
	w.env.Emit(&ShipDamaged{Ship: x, Attacker: shooter, AttackerID: firing, Cause: CauseWeapon, Damage: float64(h.damage), HullHit: res.hull, Kind: ref.kind})
	if res.lethal {
		w.killShip(x, hitInfo{cause: CauseWeapon, attacker: shooter, attackerID: firing, weapon: ref, weaponName: name})
	}
}

// weaponName is the subsystem name of the weapon behind a hit.
func weaponName(o *Object, ref weaponRef) string {
	if o == nil || o.Model == nil || ref.sub < 0 || ref.sub >= len(o.Model.Class().Subsystems) {
		return ""
	}
	return o.Model.Class().Subsystems[ref.sub].Name
}

// hookHit runs the damage hook on a weapon hit about to be applied; it
// reports false when the hook cancelled it (or the target did not
// survive the hook: it may deal damage itself).
func (w *World) hookHit(shooter *Object, firing int, x *Object, h *hit, ref weaponRef) bool {
	dh := &w.hookScratch
	*dh = DamageHit{Shooter: shooter, ShooterID: firing, Target: x, Kind: ref.kind, Weapon: ref.id,
		WeaponName: weaponName(shooter, ref), Subsystem: nearestSubsystem(x, h.point), Damage: h.damage}
	d := w.damageHook(dh)
	*dh = DamageHit{} // keeps no object alive
	if !(d > 0) || math.IsInf(float64(d), 0) || !x.Alive() {
		return false
	}
	h.damage = d
	return true
}

// nearestSubsystem is the live subsystem of x whose centre is nearest p
// (model frame), -1 for none.
func nearestSubsystem(x *Object, p [3]float32) int {
	if x.Model == nil {
		return -1
	}
	c := x.Model.Class()
	best, bestD := -1, float32(math.MaxFloat32)
	for i := range c.Subsystems {
		d := c.Subsystems[i].Data
		if d == nil || !d.IsTargetable || x.Model.Condition(i) <= 0 {
			continue
		}
		v := sub3(c.Subsystems[i].Position, p)
		if dd := dot3(v, v); dd < bestD {
			best, bestD = i, dd
		}
	}
	return best
}

// applyHit runs one hit on a ship.
func (w *World) applyHit(o *Object, h *hit) hitResult {
	if w.hitCheck != nil && o.Model != nil {
		dead, before := o.sim.dead, hp(o.Model, o.Model.Class().Hull)
		res := w.applyHitOnce(o, h)
		w.hitCheck(o, h, res, dead, before)
		return res
	}
	return w.applyHitOnce(o, h)
}

func (w *World) applyHitOnce(o *Object, h *hit) hitResult {
	var res hitResult
	if o.Model == nil || o.sim.dead || !(h.damage > 0) {
		return res
	}
	rest := h.damage
	if h.facing != noShields {
		rest = w.shieldHit(o, h.facing, rest)
		res.absorbed = h.damage - rest
	}
	res.passed = rest
	if rest > 0 {
		m := o.Model
		hull := m.Class().Hull
		if h.hull == hullFull {
			setHP(m, hull, hp(m, hull)-rest*w.mod(o, hullDmg))
			res.hull = true
			w.subsystemHit(o, hull)
		}
		var hullInSet bool
		res.overflow, hullInSet = w.distribute(o, h, rest)
		res.hull = res.hull || hullInSet
	}
	res.lethal = critical(o)
	return res
}

// shieldHit runs a weapon hit of damage through facing f of the target's
// shields and returns what passes. The facing absorbs the share it stops,
// as far as its points go; one below 10 % no longer stops the shot at all
// and is left as it is.
func (w *World) shieldHit(o *Object, f int, damage float32) float32 {
	c := o.Model.Class()
	if f < 0 || f >= len(c.ShieldHP) || !shieldsUp(o) {
		return damage
	}
	s := o.sim.shields[f]
	if s <= 0 || c.ShieldHP[f] <= 0 {
		return damage
	}
	pass := shieldPass(s / c.ShieldHP[f])
	if pass >= 1 {
		return damage
	}
	// The facing stops its share of the hit as far as its points go; a
	// ShieldDamage modifier changes what stopping it costs the facing.
	k := w.mod(o, shieldDmg)
	absorbed := damage * (1 - pass)
	if k > 0 {
		absorbed = min(absorbed, s/k)
	}
	o.sim.shields[f] = max(0, s-absorbed*k)
	return damage - absorbed
}

// shieldsUp reports whether a ship's shields absorb anything: not while
// the generator is disabled or switched off, or the ship is cloaked, which
// switches it off (simulation.md 5.5-5.6, Correction 37) [code:
// FUN_0056a620].
func shieldsUp(o *Object) bool {
	if o.Cloaked() {
		return false
	}
	m := o.Model
	g := m.Class().ShieldGenerator
	if g < 0 {
		return true
	}
	if _, on := m.Power(m.Class().Subsystems[g].Entry); !on {
		return false
	}
	return !SubsystemDisabled(m, g)
}

// shieldPass is the share of a weapon hit that passes a shield facing
// standing at fraction f of its maximum before the hit (simulation.md 5.5:
// nothing at 60 % and above, a growing share down to 10 %, everything
// below). The ramp between is the stock executable's as measured over 350
// hits (stbc-oracle's behaviour bible, 5.2): 0.6 × (1 − 2 (f − 0.1)), so
// 30 % passes a facing at 35 %, 60 % one just above 10 %.
func shieldPass(f float32) float32 {
	switch {
	case f >= 0.6:
		return 0
	case f < 0.1:
		return 1
	}
	return 0.6 * (1 - 2*(f-0.1))
}

// distribute gives damage to every member of the hit set of h (simulation.md
// 5.3): each targetable subsystem with condition above 0 within its radius
// plus R of the point, children tested on their own; the hull only when h
// puts it in the set. The stock walk skips the power plant and
// appends it to every set the caller keeps it in; for a set that does not
// keep it (weapon hits, and collisions unless Options.CollisionPowerPlant,
// both open in simulation.md 15) the host tests it by distance like any
// other subsystem, so a shot that lands on it still reaches it.
// Each member takes the full amount; it returns the summed overflow of the
// members it destroyed and whether the hull was among them.
func (w *World) distribute(o *Object, h *hit, damage float32) (overflow float32, hullHit bool) {
	m := o.Model
	c := m.Class()
	var members [128]int
	n := 0
	for i := range c.Subsystems {
		d := c.Subsystems[i].Data
		if d == nil || (h.keepPowerPlant && i == c.Reactor) || (h.hull != hullInSet && i == c.Hull) || !d.IsTargetable || m.Condition(i) <= 0 {
			continue
		}
		reach := d.Radius + h.radius
		if v := sub3(c.Subsystems[i].Position, h.point); dot3(v, v) < reach*reach && n < len(members) {
			members[n] = i
			n++
		}
	}
	if h.keepPowerPlant && c.Reactor >= 0 && n < len(members) {
		members[n] = c.Reactor
		n++
	}
	for _, i := range members[:n] {
		taken := damage * w.mod(o, subDmg)
		if i == c.Hull {
			taken = damage * w.mod(o, hullDmg)
		}
		left := hp(m, i) - taken
		if left < 0 {
			overflow -= left
		}
		setHP(m, i, left)
		if i == c.Hull {
			hullHit = true
		}
		w.subsystemHit(o, i)
	}
	return overflow, hullHit
}

// hp returns subsystem i's condition in the damage scale: subsystems.json's
// max_condition, which data/README.md says to use for damage and repair,
// while the model keeps serialization.json's for the wire byte.
func hp(m *ships.Ship, i int) float32 { return m.Condition(i) / hpScale(m, i) }

func setHP(m *ships.Ship, i int, hp float32) { m.SetCondition(i, hp*hpScale(m, i)) }

func hpScale(m *ships.Ship, i int) float32 {
	sub := &m.Class().Subsystems[i]
	if sub.Data != nil && sub.Data.MaxCondition > 0 {
		return sub.MaxCondition / sub.Data.MaxCondition
	}
	return 1
}

// subsystemHit queues a damaged subsystem for repair (SUBSYSTEM_HIT,
// simulation.md 5.3 step 6, 8): at the tail, no duplicates, never at 0.
func (w *World) subsystemHit(o *Object, i int) {
	st := &o.sim
	if o.Model.Condition(i) <= 0 {
		return
	}
	for _, q := range st.repair {
		if q == i {
			return
		}
	}
	st.repair = append(st.repair, i)
	w.repairEvent(o, codec.EventAddToRepairList, i)
}

// repairEvent sends a repair notification (PythonEvent 0x06, factory 0x101)
// naming the subsystem and the ship's repair subsystem by object id.
func (w *World) repairEvent(o *Object, code uint32, i int) {
	m := o.Model
	var repairID int32
	if r := m.Class().Repair; r >= 0 {
		repairID = m.SubsystemID(r)
	}
	w.buf = codec.SubsystemEvent{Op: codec.OpPythonEvent, Code: code, Src: m.SubsystemID(i), Dst: repairID}.AppendTo(w.buf[:0])
	w.broadcast()
}

// critical reports whether a subsystem whose loss destroys the ship is at
// 0 (simulation.md 5.4: the hull, and the power plant on the self-destruct
// path; the data marks both, and the bridge, is_critical).
func critical(o *Object) bool {
	m := o.Model
	c := m.Class()
	if m.Condition(c.Hull) <= 0 {
		return true
	}
	for i := range c.Subsystems {
		if d := c.Subsystems[i].Data; d != nil && d.IsCritical && m.Condition(i) <= 0 {
			return true
		}
	}
	return false
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
