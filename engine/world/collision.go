package world

import (
	"errors"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// Collision constants (simulation.md 5.2, 6).
const (
	collisionDeadZone  float32 = 0.01 // raw values at or below are applied as they are
	collisionScale     float32 = 900
	collisionBase      float32 = 500
	collisionProximity float32 = 26 // world units between hulls
	// collisionCooldown is the host's per-pair limit on collision reports:
	// both ships of a ship-vs-ship collision report it, and the first
	// report damages both (6, step 4).
	collisionCooldown = time.Second
	// maxCollisionForce clamps a report's force; stock forces are in the
	// hundreds to low thousands (vectors/simulation.json).
	maxCollisionForce float32 = 100000
)

// ErrForeignCollision is Collision's answer to a report about ships none
// of which is the reporter's: the engine counts it as a spoofed message.
var ErrForeignCollision = errors.New("collision between ships that are not the sender's")

// Collision consumes an owner's CollisionEffect report (simulation.md 6):
// it checks that the report involves the owner's ship, drops the duplicate
// report of a ship-vs-ship collision, checks the ships are close, enforces
// a per-pair cooldown, and applies the stock damage per contact to the
// reporter's ship and, for a ship-vs-ship collision, to the other ship.
func (w *World) Collision(now time.Time, owner *Owner, ce *codec.CollisionEffect) error {
	w.now = now
	ship := w.ShipOf(owner)
	if ship == nil || !ship.Alive() {
		w.stats.CollisionsDropped.Add(1)
		return nil
	}
	if ce.Src != ship.ID && ce.Target != ship.ID {
		return ErrForeignCollision
	}
	target := w.objects[ce.Target]
	other := w.objects[ce.Src]
	if ce.Src == ship.ID {
		if target != nil && target.Owner != nil {
			w.stats.CollisionsDropped.Add(1) // the other party reports it
			return nil
		}
		target, other = ship, target
	}
	if target == nil || target.Model == nil || !target.Alive() {
		w.stats.CollisionsDropped.Add(1)
		return nil
	}
	if other != nil && other.state.hasPos && target.state.hasPos {
		gap := norm(sub3(other.pos(), target.pos())) - target.sim.shape.radius - other.sim.shape.radius
		if gap >= collisionProximity {
			w.stats.CollisionsDropped.Add(1)
			w.log.Debug("collision report too far apart", "player", owner.ID, "gap", gap)
			return nil
		}
	}
	if !w.collisionCooldown(target, other) {
		w.stats.CollisionsDropped.Add(1)
		return nil
	}
	force := ce.Force
	if !(force > 0) {
		return nil
	}
	force = min(force, maxCollisionForce)
	n := ce.NumContacts()
	if n == 0 {
		return nil
	}
	hit := hitInfo{cause: CauseEnvironment, weapon: weaponRef{sub: -1, kind: KindCollision}}
	if other != nil {
		hit = hitInfo{cause: CauseCollision, attacker: other, attackerID: other.OwnerID(), weapon: weaponRef{sub: -1, kind: KindCollision}}
	}
	w.stats.Collisions.Add(1)
	target.sim.collidedAt = now
	if other != nil {
		other.sim.collidedAt = now
	}
	if !target.noCollisionDamage() {
		points := make([][3]float32, 0, 4)
		for i := range n {
			c := ce.Contact(i)
			x, y, z := codec.DecodeDir3(c.Dir)
			r := float32(c.Dist) / 255 * target.sim.shape.radius
			points = append(points, [3]float32{x * r, y * r, z * r})
		}
		w.collide(target, points, CollisionDamage(force, target.Model.Class().Mass, n), hit)
	}
	if other != nil && other.Model != nil && other.Alive() && !other.noCollisionDamage() {
		back := hitInfo{cause: CauseCollision, attacker: target, attackerID: target.OwnerID(), weapon: weaponRef{sub: -1, kind: KindCollision}}
		pt := pointToward(other, target.pos())
		points := make([][3]float32, n)
		for i := range points {
			points[i] = pt
		}
		w.collide(other, points, CollisionDamage(force, other.Model.Class().Mass, n), back)
	}
	return nil
}

// collide applies one ship's collision damage (simulation.md 5.2,
// Corrections 31, 40 and 41): no shield step; the hull takes each contact's
// whole amount wherever the contact lies [measured §7.4: every ram's hull
// loss is the formula's value], and the other subsystems of the contact's
// hit set take it too, the power plant only when the contact is near it;
// each further contact receives only the overflow the previous one could
// not absorb [code: FUN_005afad0, FUN_005afd70]. One ship_damaged
// names the whole amount; a lethal collision then destroys the ship.
func (w *World) collide(o *Object, points [][3]float32, damage float32, info hitInfo) {
	if !o.Alive() {
		return
	}
	damage *= w.mod(o, collided)
	total := damage
	var hullHit, lethal bool
	for _, p := range points {
		if !(damage > 0) {
			break
		}
		h := hit{damage: damage, point: p, radius: collisionHitRadius, facing: noShields, hull: hullFull, keepPowerPlant: w.collisionPP}
		res := w.applyHit(o, &h)
		hullHit = hullHit || res.hull
		lethal = lethal || res.lethal
		damage = res.overflow
	}
	w.env.Emit(&ShipDamaged{Ship: o, Attacker: info.attacker, AttackerID: info.attackerID, Cause: info.cause, Damage: float64(total), HullHit: hullHit, Kind: KindCollision})
	if lethal {
		w.killShip(o, info)
	}
}

// noCollisionDamage reports a host ship created without collision damage
// (the Mission5 starbase, missions.md 4.4).
func (o *Object) noCollisionDamage() bool { return o.host != nil && o.host.noCollision }

// CollisionDamage is the stock per-contact collision damage of a 0x15
// report (simulation.md 5.2): raw = force / mass / contacts, then raw ×
// 900 + 500 hit points, uncapped; a raw value at or below the 0.01 dead
// zone is applied as it is (tiny, not skipped: Correction 31).
func CollisionDamage(force, mass float32, contacts int) float32 {
	if contacts < 1 || !(mass > 0) || !(force > 0) {
		return 0
	}
	raw := force / mass / float32(contacts)
	if raw <= collisionDeadZone {
		return raw
	}
	return raw*collisionScale + collisionBase
}

// collisionCooldown allows one damaging report per ship pair per second.
func (w *World) collisionCooldown(a, b *Object) bool {
	key := [2]int32{a.ID, 0}
	if b != nil {
		key[1] = b.ID
		if key[1] < key[0] {
			key[0], key[1] = key[1], key[0]
		}
	}
	if last, ok := w.collisions[key]; ok && w.now.Sub(last) < collisionCooldown {
		return false
	}
	if len(w.collisions) > 4096 {
		for k, t := range w.collisions {
			if w.now.Sub(t) >= collisionCooldown {
				delete(w.collisions, k)
			}
		}
	}
	w.collisions[key] = w.now
	return true
}
