package capture

import (
	"github.com/bcserver/bcserver/engine"
)

// The capture's combat records: shots (from the weapon events the host
// relays), hits, damage and deaths, with the weapon kind each names.

// fire records a shot of kind k (as the world names it: world.FiredKind).
func (c *Capture) fire(ship *engine.Object, player byte, weapon, target int32, op byte, kind engine.WeaponKind) {
	k := kindOf(kind)
	r := c.rec(KindFire)
	if ship != nil {
		r.Object = ship.ID
		if s := c.ships[ship.ID]; s != nil {
			s.weapon = k
		}
	}
	r.Other, r.Weapon, r.Player, r.Opcode, r.Weapons = target, weapon, player, op, k
	c.emit()
}

func (c *Capture) weaponFired(ev engine.Event) {
	e := ev.(*engine.WeaponFired)
	if !c.open || e.Shooter == nil {
		return
	}
	c.fire(c.g.ShipOf(e.Shooter), e.Shooter.ID, e.Weapon, e.Target, e.Opcode, e.Kind)
}

// shipOfWeapon finds the ship a weapon subsystem id belongs to.
func (c *Capture) shipOfWeapon(weapon int32) *engine.Object {
	for _, s := range c.ships {
		if s.o.Model != nil {
			if _, ok := s.o.Model.SubsystemIndex(weapon); ok {
				return s.o
			}
		}
	}
	return nil
}

func (c *Capture) lastWeapon(o *engine.Object) WeaponKind {
	if o == nil {
		return WeaponUnknown
	}
	if s := c.ships[o.ID]; s != nil {
		return s.weapon
	}
	return WeaponUnknown
}

func (c *Capture) weaponHit(ev engine.Event) {
	e := ev.(*engine.WeaponHit)
	if !c.open || e.Target == nil {
		return
	}
	r := c.rec(KindHit)
	r.Object, r.Player, r.Damage, r.HullHit, r.Cause = e.Target.ID, byte(e.ShooterID), float32(e.Damage), e.HullHit, CauseWeapon
	if e.Shooter != nil {
		r.Other = e.Shooter.ID
	}
	r.Weapons = c.lastWeapon(e.Shooter)
	if k := kindOf(e.Kind); k != WeaponUnknown {
		r.Weapons = k // the host's model names the weapon of every hit
	}
	c.emit()
}

// kindOf maps the host model's weapon kind to the recording's.
func kindOf(k engine.WeaponKind) WeaponKind { return recordedKind(k.Weapon()) }

func (c *Capture) shipDamaged(ev engine.Event) {
	e := ev.(*engine.ShipDamaged)
	if !c.open || e.Ship == nil {
		return
	}
	r := c.rec(KindDamage)
	r.Object, r.Player, r.Damage, r.HullHit, r.Cause = e.Ship.ID, byte(e.AttackerID), float32(e.Damage), e.HullHit, ParseCause(string(e.Cause))
	if e.Attacker != nil {
		r.Other = e.Attacker.ID
	}
	if r.Cause == CauseWeapon {
		r.Weapons = c.lastWeapon(e.Attacker)
		if k := kindOf(e.Kind); k != WeaponUnknown {
			r.Weapons = k
		}
	}
	c.emit()
}

func (c *Capture) shipDestroyed(ev engine.Event) {
	e := ev.(*engine.ShipDestroyed)
	if !c.open || e.Victim == nil {
		return
	}
	if s := c.ships[e.Victim.ID]; s != nil {
		c.motion(s, false)
		c.status(s, false)
	}
	r := c.rec(KindDeath)
	r.Object, r.Player, r.Owner, r.Cause = e.Victim.ID, byte(e.KillerID), byte(e.Victim.OwnerID()), ParseCause(string(e.Cause))
	if e.Killer != nil {
		r.Other = e.Killer.ID
	}
	r.Weapons = kindOf(e.Kind)
	c.emit()
	// The mission scores a death in its own handler, which usually ran
	// before ours: the table then changes at the death's time.
	c.pollPlayers()
}
