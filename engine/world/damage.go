package world

// The damage pipeline in the stock order (simulation.md 5.1-5.4,
// Corrections 30-33 and 37): a weapon hit passes the shield facing it
// enters through, which absorbs its share; what passes is taken once —
// never doubled — by the hull and, independently, by every subsystem in
// the hit's footprint. Collisions skip the shields and go straight to the
// footprint. A critical subsystem at 0 destroys the ship.

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
