package world

import (
	"errors"
	"time"

	"github.com/bcserver/bcserver/codec"
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
		gap := norm(sub3(other.pos(), target.pos())) - target.sim.radius - other.sim.radius
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
	hit := hitInfo{cause: CauseEnvironment}
	if other != nil {
		hit = hitInfo{cause: CauseCollision, attacker: other, attackerID: other.OwnerID()}
	}
	damage, ok := CollisionDamage(force, target.Model.Class().Mass, n)
	if !ok {
		return nil
	}
	w.stats.Collisions.Add(1)
	for i := 0; i < n && !target.noCollisionDamage(); i++ {
		c := ce.Contact(i)
		x, y, z := codec.DecodeDir3(c.Dir)
		r := float32(c.Dist) / 255 * target.sim.radius
		w.damageAndKill(target, [3]float32{x * r, y * r, z * r}, damage, collisionSearch, hit)
	}
	if other != nil && other.Model != nil && other.Alive() && !other.noCollisionDamage() {
		if dmg, ok := CollisionDamage(force, other.Model.Class().Mass, n); ok {
			back := hitInfo{cause: CauseCollision, attacker: target, attackerID: target.OwnerID()}
			pt := pointToward(other, target.pos())
			for i := 0; i < n; i++ {
				w.damageAndKill(other, pt, dmg, collisionSearch, back)
			}
		}
	}
	return nil
}

// noCollisionDamage reports a host ship created without collision damage
// (the Mission5 starbase, missions.md 4.4).
func (o *Object) noCollisionDamage() bool { return o.host != nil && o.host.noCollision }

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
