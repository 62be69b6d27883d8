package world

import "time"

// Tractor beams (simulation.md 5.7, Correction 47). A tractor system's
// fire travels as StartFiring 0x07 like a phaser system's; its projectors
// deal no damage. A projector holds its system's target only inside its
// MaxDamageDistance (a Galaxy's tractor held at 115 GU, never at 125
// [measured R1]), and pulls on it with MaxDamage / target mass, scaled by
// the system's and the projector's condition [code: FUN_00580f50; measured
// R3]. Players fly their own ships, so the host moves only the ships it
// flies itself: a tractored host ship's speed is dragged toward 0 by that
// acceleration (the stock "speed dragged down in proportion to the used
// share of the system's capacity"; the modes' different pulls are not
// modelled). Every tractored ship, a player's too, reports the ship that
// holds it (TractoredBy), which explains a ship moving as its engines
// could not.

// tractorTick runs a tractor system for dt seconds: it drops targets that
// are gone, dead or cloaked, and the first target a working projector
// reaches is held.
func (w *World) tractorTick(o *Object, s *weaponSystem, dt float32) {
	if !s.firing {
		return
	}
	w.purgeTargets(o, s)
	if len(s.targets) == 0 || systemDown(o, s) {
		return
	}
	for _, t := range s.targets {
		x := w.objects[t.id]
		if x == nil || x.Model == nil || !x.state.hasPos && x.host == nil {
			continue
		}
		for k := range s.banks {
			b := &s.banks[k]
			d := bankData(o, b)
			if bankDown(o, b) || norm(sub3(x.pos(), weaponPos(o, b))) > d.MaxDamageDistance {
				continue
			}
			accel := d.MaxDamage * o.Model.ConditionFraction(s.sub) * o.Model.ConditionFraction(b.sub) / x.Model.Class().Mass
			w.tractor(o, x, accel, dt)
			return
		}
	}
}

// tractor has ship o hold x for dt seconds with the given acceleration.
func (w *World) tractor(o, x *Object, accel, dt float32) {
	x.sim.tractoredBy, x.sim.tractoredAt = o.ID, w.now
	if x.host == nil || !(accel > 0) {
		return
	}
	m := &x.host.move
	step := accel * dt
	switch {
	case m.speed > 0:
		m.speed = max(0, m.speed-step)
	case m.speed < 0:
		m.speed = min(0, m.speed+step)
	}
}

// tractorHold is how long a ship counts as tractored after the last tick a
// projector held it: a few ticks of a slow host.
const tractorHold = 500 * time.Millisecond

// TractoredBy returns the id of the ship whose tractor held o within the
// last tractorHold of game time, 0 when none did.
func (o *Object) TractoredBy(now time.Time) int32 {
	if o.sim.tractoredBy == 0 || now.Sub(o.sim.tractoredAt) > tractorHold {
		return 0
	}
	return o.sim.tractoredBy
}

// The damaging nebula of the Multi6 system (simulation.md 5.8, Correction
// 47; script Systems/Multi6/Multi6_S.py): four fuzzy spheres of radius 250
// centred 50 units along +X, SetupDamage(1.0). Inside, a ship takes damage
// 16 times a second [measured E1]: s/16 off every shield facing above 100
// while its shields are up, otherwise h/16 off the hull; never subsystems.
// SetupDamage's arguments are the hull and the shield rates per second; the
// stock script passes one, which this takes for both [open].
var multi6Nebula = [...][4]float32{
	{50, 150, 150, 250}, {50, -150, -150, 250}, {50, -150, 150, 250}, {50, 150, -150, 250},
}

const (
	// nebulaSet is the star system whose nebula damages ships.
	nebulaSet = "Multi6"
	// nebulaHullRate and nebulaShieldRate are Multi6's SetupDamage(1.0).
	nebulaHullRate   float32 = 1
	nebulaShieldRate float32 = 1
	// nebulaStep is the period of the environment damage event.
	nebulaStep = time.Second / 16
	// nebulaShieldFloor: a facing at or below it is left alone.
	nebulaShieldFloor float32 = 100
)

// inNebula reports whether a world position lies in the Multi6 nebula.
func inNebula(p [3]float32) bool {
	for _, s := range multi6Nebula {
		d := sub3(p, [3]float32{s[0], s[1], s[2]})
		if dot3(d, d) < s[3]*s[3] {
			return true
		}
	}
	return false
}

// nebulaTick applies dt of nebula damage to a ship of the Multi6 system
// inside the nebula; it reports whether the damage destroyed it.
func (w *World) nebulaTick(o *Object, dt time.Duration) bool {
	if o.Set != nebulaSet || o.Model == nil || !o.state.hasPos && o.host == nil || !inNebula(o.pos()) {
		o.sim.nebulaClock = 0
		return false
	}
	o.sim.nebulaClock += dt
	m := o.Model
	c := m.Class()
	for o.sim.nebulaClock >= nebulaStep {
		o.sim.nebulaClock -= nebulaStep
		if shieldsUp(o) {
			for i, s := range o.sim.shields {
				if s > nebulaShieldFloor {
					o.sim.shields[i] = max(nebulaShieldFloor, s-nebulaShieldRate/16)
				}
			}
			continue
		}
		setHP(m, c.Hull, hp(m, c.Hull)-nebulaHullRate/16*w.mod(o, hullDmg))
		w.subsystemHit(o, c.Hull)
		if critical(o) {
			w.killShip(o, hitInfo{cause: CauseEnvironment, weapon: weaponRef{sub: -1, kind: KindCollision}})
			return true
		}
	}
	return false
}
