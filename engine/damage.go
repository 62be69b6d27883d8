package engine

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Collision constants (simulation.md 5.2, 6).
const (
	collisionDeadZone  float32 = 0.01 // raw values at or below do nothing
	collisionScale     float32 = 900
	collisionBase      float32 = 500
	collisionSearch    float32 = 1.5 // × subsystem radius
	collisionProximity float32 = 26  // world units between hulls
	// collisionCooldown is the host's per-pair limit on collision reports:
	// both ships of a ship-vs-ship collision report it, and the first
	// report damages both (6, step 4).
	collisionCooldown = time.Second
	// maxCollisionForce clamps a report's force; stock forces are in the
	// hundreds to low thousands (vectors/simulation.json).
	maxCollisionForce float32 = 100000
)

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
func (g *Game) applyDamage(o *Object, point [3]float32, damage, searchRadius float32, dropReactor bool) damageResult {
	var res damageResult
	m := o.Model
	if m == nil || o.sim.dead || !(damage > 0) {
		return res
	}
	f := facing(point)
	if s := o.sim.shields[f]; s > 0 {
		res.absorbed = min(s, damage)
		o.sim.shields[f] = s - res.absorbed
		damage -= res.absorbed
	}
	if damage <= 0 {
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
			cur := g.hp(m, i)
			overflow += max(0, damage-cur)
			g.setHP(m, i, cur-damage)
			if i == c.Hull {
				hullHit = true
			}
			if m.Condition(i) < c.Subsystems[i].MaxCondition {
				g.subsystemHit(o, i)
			}
		}
	}
	if overflow > 0 && !hullHit {
		g.setHP(m, c.Hull, g.hp(m, c.Hull)-overflow)
		hullHit = true
		g.subsystemHit(o, c.Hull)
	}
	res.hull = hullHit
	res.lethal = g.critical(o)
	return res
}

// damageAndKill is applyDamage for the paths that raise no event of their
// own (collisions): a lethal hit destroys the ship at once.
func (g *Game) damageAndKill(o *Object, point [3]float32, damage, searchRadius float32, hit hitInfo) {
	if g.applyDamage(o, point, damage, searchRadius, false).lethal {
		g.killShip(o, hit)
	}
}

// critical reports whether a subsystem whose loss destroys the ship is at
// 0 (simulation.md 5.4: the hull, and the reactor on the self-destruct
// path; the data marks both, and the bridge, is_critical).
func (g *Game) critical(o *Object) bool {
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
// forward, +Z up) from the owner's latest forward and up vectors; without
// them it returns the direction unchanged.
func toLocal(o *Object, v [3]float32) [3]float32 {
	st := &o.state
	if !st.hasFwd || !st.hasUp {
		return v
	}
	fx, fy, fz := codec.DecodeDir3(st.fwd)
	ux, uy, uz := codec.DecodeDir3(st.up)
	fwd, up := [3]float32{fx, fy, fz}, [3]float32{ux, uy, uz}
	right := [3]float32{fwd[1]*up[2] - fwd[2]*up[1], fwd[2]*up[0] - fwd[0]*up[2], fwd[0]*up[1] - fwd[1]*up[0]}
	dot := func(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	return [3]float32{dot(v, right), dot(v, fwd), dot(v, up)}
}

// pointToward returns the point on a ship's bounding sphere facing world
// position target, in the ship frame.
func pointToward(o *Object, target [3]float32) [3]float32 {
	d := toLocal(o, sub3(target, o.state.pos))
	n := norm(d)
	if n == 0 {
		return [3]float32{0, o.sim.radius, 0}
	}
	k := o.sim.radius / n
	return [3]float32{d[0] * k, d[1] * k, d[2] * k}
}

// collision consumes a CollisionEffect report (simulation.md 6): it checks
// ownership, drops the duplicate report of a ship-vs-ship collision, checks
// the ships are close, enforces a per-pair cooldown, and applies the stock
// damage per contact to the reporter's ship and, for a ship-vs-ship
// collision, to the other ship.
func (g *Game) collision(p *Player, payload []byte) {
	ce, err := codec.DecodeCollisionEffect(payload)
	if err != nil {
		g.malformed(p, payload[0], err)
		return
	}
	ship := g.ShipOf(p)
	if ship == nil || !ship.Alive() {
		g.Stats.CollisionsDropped.Add(1)
		return
	}
	if ce.Src != ship.ID && ce.Target != ship.ID {
		g.violation(p, payload[0], "collision between ships that are not the sender's", ce.Target)
		return
	}
	target := g.objects[ce.Target]
	other := g.objects[ce.Src]
	if ce.Src == ship.ID {
		if target != nil && target.Owner != nil {
			g.Stats.CollisionsDropped.Add(1) // the other party reports it
			return
		}
		target, other = ship, target
	}
	if target == nil || target.Model == nil || !target.Alive() {
		g.Stats.CollisionsDropped.Add(1)
		return
	}
	if other != nil && other.state.hasPos && target.state.hasPos {
		gap := norm(sub3(other.state.pos, target.state.pos)) - target.sim.radius - other.sim.radius
		if gap >= collisionProximity {
			g.Stats.CollisionsDropped.Add(1)
			g.log.Debug("collision report too far apart", "player", p.ID, "gap", gap)
			return
		}
	}
	if !g.collisionCooldown(target, other) {
		g.Stats.CollisionsDropped.Add(1)
		return
	}
	force := ce.Force
	if !(force > 0) {
		return
	}
	force = min(force, maxCollisionForce)
	n := ce.NumContacts()
	if n == 0 {
		return
	}
	hit := hitInfo{cause: CauseEnvironment}
	if other != nil {
		hit = hitInfo{cause: CauseCollision, attacker: other, attackerID: other.OwnerID()}
	}
	damage, ok := CollisionDamage(force, target.Model.Class().Mass, n)
	if !ok {
		return
	}
	g.Stats.Collisions.Add(1)
	for i := 0; i < n; i++ {
		c := ce.Contact(i)
		x, y, z := codec.DecodeDir3(c.Dir)
		r := float32(c.Dist) / 255 * target.sim.radius
		g.damageAndKill(target, [3]float32{x * r, y * r, z * r}, damage, collisionSearch, hit)
	}
	if other != nil && other.Model != nil && other.Alive() {
		if dmg, ok := CollisionDamage(force, other.Model.Class().Mass, n); ok {
			back := hitInfo{cause: CauseCollision, attacker: target, attackerID: target.OwnerID()}
			pt := pointToward(other, target.state.pos)
			for i := 0; i < n; i++ {
				g.damageAndKill(other, pt, dmg, collisionSearch, back)
			}
		}
	}
}

// CollisionDamage is the stock per-contact collision damage of a 0x15
// report (simulation.md 5.2): raw = force / mass / contacts; nothing at or
// below the 0.01 dead zone; else raw × 900 + 500 hit points, uncapped.
func CollisionDamage(force, mass float32, contacts int) (float32, bool) {
	if contacts < 1 || !(mass > 0) || !(force > 0) {
		return 0, false
	}
	raw := force / mass / float32(contacts)
	if raw <= collisionDeadZone {
		return 0, false
	}
	return raw*collisionScale + collisionBase, true
}

// collisionCooldown allows one damaging report per ship pair per second.
func (g *Game) collisionCooldown(a, b *Object) bool {
	key := [2]int32{a.ID, 0}
	if b != nil {
		key[1] = b.ID
		if key[1] < key[0] {
			key[0], key[1] = key[1], key[0]
		}
	}
	if last, ok := g.collisions[key]; ok && g.now.Sub(last) < collisionCooldown {
		return false
	}
	if len(g.collisions) > 4096 {
		for k, t := range g.collisions {
			if g.now.Sub(t) >= collisionCooldown {
				delete(g.collisions, k)
			}
		}
	}
	g.collisions[key] = g.now
	return true
}

// selfDestruct executes HostMsg 0x13 (simulation.md 7): no countdown and
// no abort. The reactor takes damage equal to its max condition, a burst of
// StateUpdates shows the zeroed ship, then the death sequence runs with no
// killer and no Explosion; at most six repair events go out, four now and
// two after the explosion.
func (g *Game) selfDestruct(p *Player) {
	o := g.ShipOf(p)
	if o == nil || o.Model == nil || !o.Alive() {
		return
	}
	m := o.Model
	c := m.Class()
	if c.Reactor >= 0 {
		m.SetCondition(c.Reactor, 0)
	} else {
		m.SetHull(0)
	}
	for range 3 {
		for _, r := range g.bySlot {
			if r != nil && r.InGame() {
				if b := g.buildStateUpdate(g.buf[:0], o, r, g.GameTime()); len(b) > 0 {
					g.buf = b
					_ = r.peer.Send(g.buf, false)
				}
			}
		}
	}
	first, later := selfDestructRepairs(c)
	for _, i := range first {
		g.repairEvent(o, codec.EventAddToRepairList, i)
	}
	g.killShip(o, hitInfo{cause: CauseSelfDestruct})
	if len(later) > 0 {
		g.After(repairEventsAfterSelfDestruct, func() {
			for _, i := range later {
				if g.objects[o.ID] == o {
					g.repairEvent(o, codec.EventAddToRepairList, i)
				}
			}
		})
	}
}

// selfDestructRepairs picks the stock repair events of a self-destruct: the
// reactor, shield generator, phaser and pulse systems at once, then the
// repair system later (EPS, the sixth, is not in the data set).
func selfDestructRepairs(c *ships.Class) (first, later []int) {
	if c.Reactor >= 0 {
		first = append(first, c.Reactor)
	}
	if c.ShieldGenerator >= 0 {
		first = append(first, c.ShieldGenerator)
	}
	for _, kind := range []string{"phaser", "pulse_weapon"} {
		for _, e := range c.Entries {
			if e.Children > 0 && c.Subsystems[e.Subsystem+1].Type() == kind {
				first = append(first, e.Subsystem)
				break
			}
		}
	}
	if c.Repair >= 0 {
		later = append(later, c.Repair)
	}
	return first, later
}
