package world

import "math"

// facing returns the shield facing that points toward a ship-local
// direction: the dominant axis, with +Y forward and +Z up (the stock ship
// frame: weapon arcs and tube directions in the data use it).
func facing(v [3]float32) int {
	ax, ay, az := abs32(v[0]), abs32(v[1]), abs32(v[2])
	switch {
	case ay >= ax && ay >= az:
		if v[1] >= 0 {
			return facingFront
		}
		return facingRear
	case az >= ax:
		if v[2] >= 0 {
			return facingTop
		}
		return facingBottom
	default:
		if v[0] >= 0 {
			return facingRight
		}
		return facingLeft
	}
}

func abs32(f float32) float32 { return float32(math.Abs(float64(f))) }

// damageResult reports what one application of damage did.
type damageResult struct {
	absorbed float32 // taken by the shield facing
	applied  float32 // reached the subsystems/hull
	hull     bool    // reached the hull
	// lethal: a critical subsystem is at 0. The caller runs the death
	// (killShip) after raising whatever the hit itself raises, because the
	// stock scripts see the weapon hit before the object exploding
	// (missions.md 3.4-3.5).
	lethal bool
}

// applyDamage runs one hit on a ship (simulation.md 5.3): the shield facing
// toward the point absorbs first, then the distributor gives every
// subsystem within searchRadius × its radius of the point the full damage,
// and the summed overflow (or, when nothing was in reach, the whole damage)
// goes to the hull. Critical subsystems at 0 make the result lethal; the
// caller then destroys the ship with killShip.
func (w *World) applyDamage(o *Object, point [3]float32, damage, searchRadius float32, dropReactor bool) damageResult {
	if o.Model == nil || o.sim.dead || !(damage > 0) {
		return damageResult{}
	}
	var absorbed float32
	f := facing(point)
	if s := o.sim.shields[f]; s > 0 {
		absorbed = min(s, damage)
		o.sim.shields[f] = s - absorbed
		damage -= absorbed
	}
	res := w.distribute(o, point, damage, searchRadius, dropReactor)
	res.absorbed = absorbed
	return res
}

// distribute gives damage that got past the shields to the subsystems
// within searchRadius × their radius of the point, each the full amount,
// and the summed overflow (or, when nothing was in reach, the whole
// damage) to the hull (simulation.md 5.3).
func (w *World) distribute(o *Object, point [3]float32, damage, searchRadius float32, dropReactor bool) damageResult {
	var res damageResult
	m := o.Model
	if m == nil || o.sim.dead || !(damage > 0) {
		return res
	}
	res.applied = damage
	c := m.Class()
	var hits [64]int
	n := 0
	for i := range c.Subsystems {
		d := c.Subsystems[i].Data
		if d == nil || n == len(hits) {
			continue
		}
		if norm(sub3(d.Position, point)) <= searchRadius*d.Radius {
			hits[n] = i
			n++
		}
	}
	if dropReactor && n > 1 {
		for k := 0; k < n; k++ {
			if hits[k] == c.Reactor {
				hits[k] = hits[n-1]
				n--
				break
			}
		}
	}
	overflow := damage
	hullHit := false
	if n > 0 {
		overflow = 0
		for _, i := range hits[:n] {
			cur := hp(m, i)
			overflow += max(0, damage-cur)
			setHP(m, i, cur-damage)
			if i == c.Hull {
				hullHit = true
			}
			if m.Condition(i) < c.Subsystems[i].MaxCondition {
				w.subsystemHit(o, i)
			}
		}
	}
	if overflow > 0 && !hullHit {
		setHP(m, c.Hull, hp(m, c.Hull)-overflow)
		hullHit = true
		w.subsystemHit(o, c.Hull)
	}
	res.hull = hullHit
	res.lethal = critical(o)
	return res
}

// damageAndKill is applyDamage for the paths that raise no event of their
// own (collisions): a lethal hit destroys the ship at once.
func (w *World) damageAndKill(o *Object, point [3]float32, damage, searchRadius float32, hit hitInfo) {
	if !o.Alive() {
		return
	}
	res := w.applyDamage(o, point, damage, searchRadius, false)
	w.host.Emit(&ShipDamaged{Ship: o, Attacker: hit.attacker, AttackerID: hit.attackerID, Cause: hit.cause, Damage: float64(damage), HullHit: res.hull})
	if res.lethal {
		w.killShip(o, hit)
	}
}

// critical reports whether a subsystem whose loss destroys the ship is at
// 0 (simulation.md 5.4: the hull, and the reactor on the self-destruct
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

// toLocal turns a world direction into the ship frame (+X right, +Y
// forward, +Z up) from its orientation (the owner's latest forward and up
// vectors for a player's ship); without one it returns the direction
// unchanged.
func toLocal(o *Object, v [3]float32) [3]float32 {
	fwd, up, ok := o.axes()
	if !ok {
		return v
	}
	right := cross3(fwd, up)
	return [3]float32{dot3(v, right), dot3(v, fwd), dot3(v, up)}
}

// pointToward returns the point on a ship's bounding sphere facing world
// position target, in the ship frame.
func pointToward(o *Object, target [3]float32) [3]float32 {
	d := toLocal(o, sub3(target, o.pos()))
	n := norm(d)
	if n == 0 {
		return [3]float32{0, o.sim.radius, 0}
	}
	k := o.sim.radius / n
	return [3]float32{d[0] * k, d[1] * k, d[2] * k}
}
