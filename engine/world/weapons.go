package world

import (
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Weapon fire from the players, as a stock peer receives it (simulation.md
// 5.5, opcodes.md 3.2, 3.5, 3.6): StartFiring 0x07, StopFiring 0x08 and
// StopFiringAtTarget 0x09 drive the host's copy of the named phaser
// system, SetPhaserLevel 0x12 sets its level, PulseFire 0x1A launches one
// bolt and TorpedoFire 0x19 one torpedo. The engine has relayed each
// message and checked that its weapon lies in the sender's id block; the
// world checks the weapon is on the sender's live ship and able to fire,
// and counts what it refuses in Stats.WeaponRejected.

// FiredKind is the kind of weapon a fire message fired from ship o: op is
// its opcode and id the weapon it names (the system of a StartFiring
// 0x07, the cannon of a PulseFire 0x1A, the tube of a TorpedoFire 0x19).
// The ship's data says, or — for a ship without a model, or an id its data
// names no weapon by — the opcode: a tube fires torpedoes, a cannon bolts;
// KindNone when neither says.
func FiredKind(o *Object, op byte, id int32) WeaponKind {
	if o != nil && o.Model != nil {
		if i, ok := o.Model.SubsystemIndex(id); ok {
			if w := o.Model.Class().Subsystems[i].Weapon(); w != ships.NoWeapon {
				return KindOf(w)
			}
		}
	}
	switch op {
	case codec.OpTorpedoFire:
		return KindTorpedo
	case codec.OpPulseFire:
		return KindPulse
	}
	return KindNone
}

// ownedSystem returns the owner's live modelled ship and its weapon system
// with container id id, or nils.
func (w *World) ownedSystem(owner *Owner, id int32) (*Object, *weaponSystem) {
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil || !o.Alive() {
		return nil, nil
	}
	return o, o.systemOf(id)
}

// OwnerStartFiring applies an owner's StartFiring 0x07: the target (and aim
// offset, when given) joins the target list of the named phaser system,
// whose banks then beam at it by the stock rules each tick, or of the
// named tractor system, whose projectors hold it when in reach (tractors.go).
func (w *World) OwnerStartFiring(now time.Time, owner *Owner, m *codec.StartFiring) {
	w.now = now
	o, s := w.ownedSystem(owner, m.Dst)
	if s == nil || s.weapon != ships.WeaponPhaser && s.weapon != ships.WeaponTractor {
		return
	}
	x := w.objects[m.Target]
	if x == nil || !x.IsShip() || x.Model == nil {
		return
	}
	t := aimTarget{id: m.Target}
	if m.Offset != (codec.ScaledPoint{}) {
		t.offset, t.hasOffset = m.Offset.Vector(x.sim.shape.radius), true
	}
	if i := s.find(m.Target); i >= 0 {
		s.targets[i] = t // the stock client sends StartFiring as a pair
		s.firing = true
		return
	}
	if !systemDown(o, s) {
		s.addTarget(o.ID, t)
	}
}

// OwnerStopFiring applies an owner's StopFiring 0x08: the named system's list
// empties and its beams end.
func (w *World) OwnerStopFiring(now time.Time, owner *Owner, system int32) {
	w.now = now
	if o, s := w.ownedSystem(owner, system); s != nil {
		w.stopSystem(o, s)
	}
}

// OwnerStopFiringAt applies an owner's StopFiringAtTarget 0x09: the target
// leaves the named system's list and the beams at it end.
func (w *World) OwnerStopFiringAt(now time.Time, owner *Owner, system, target int32) {
	w.now = now
	o, s := w.ownedSystem(owner, system)
	if s == nil {
		return
	}
	if i := s.find(target); i >= 0 {
		s.targets = append(s.targets[:i], s.targets[i+1:]...)
	}
	for k := range s.banks {
		if b := &s.banks[k]; b.target == target {
			w.stopBank(o, s, b)
		}
	}
	if len(s.targets) == 0 {
		s.firing = false
	}
}

// SetPhaserLevel applies an owner's SetPhaserLevel 0x12 (CharEvent, one
// level byte, opcodes.md 3.2, Correction 25): it names the phaser system
// (stock) or, as some notes show it, the ship; every bank of the system
// takes the level, which sets the beam damage factor and drain.
func (w *World) SetPhaserLevel(owner *Owner, ev *codec.Event) {
	w.sync()
	if len(ev.Tail) < 1 || ev.Tail[0] > LevelHigh {
		return
	}
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil {
		return
	}
	for k := range o.sim.arms {
		s := &o.sim.arms[k]
		if s.weapon != ships.WeaponPhaser {
			continue
		}
		sys := o.Model.SubsystemID(s.sub)
		if ev.Dst == sys || ev.Dst == o.ID || ev.Dst == 0 && (ev.Src == sys || ev.Src == o.ID) {
			s.level = int(ev.Tail[0])
		}
	}
}

// TorpedoFired launches an owner's torpedo (0x19): from a live tube of the
// owner's ship, no sooner after the tube's last than the stock spacing
// allows, with the selected ammo type's projectile.
func (w *World) TorpedoFired(now time.Time, owner *Owner, m *codec.TorpedoFire) {
	w.TorpedoFiredAt(now, now, owner, m)
}

// TorpedoFiredAt is TorpedoFired for a message that could have arrived at
// at had nothing been lost (net.Conn.DeliveredAt). While the fair-play
// rules judge the world (SetFairPlay), the tube must also be loaded (or
// within FireLag of it) and the magazine hold the selected type: each
// torpedo takes one from both.
func (w *World) TorpedoFiredAt(now, at time.Time, owner *Owner, m *codec.TorpedoFire) {
	w.now = now
	o, s, b := w.ownedWeapon(owner, m.TubeID, ships.WeaponTorpedo)
	if b == nil {
		return
	}
	d := bankData(o, b)
	if !b.lastShot.IsZero() && at.Sub(b.lastShot).Seconds() < float64(d.ImmediateDelay)*tubeSpacing {
		w.stats.WeaponRejected.Add(1)
		return
	}
	proj, ok := w.ships.Projectile(torpedoFor(o.Model.Class(), s.ammoType))
	if !ok || proj.LaunchSpeed <= 0 {
		w.stats.WeaponRejected.Add(1)
		return
	}
	if w.fair != nil {
		if len(s.ammo) > 0 && s.ammoLeft() <= 0 || w.tubeWait(o, b, now) > w.fair.FireLag.Seconds() {
			w.stats.WeaponRejected.Add(1)
			return
		}
		full := b.loaded >= d.MaxReady && b.debt == 0
		if b.loaded > 0 {
			b.loaded--
		} else {
			b.debt++
		}
		if full && at.Before(now) {
			// The tube began its reload when the torpedo was sent, at the
			// earliest at: a tube that sat loaded meanwhile is credited
			// the reload it could not do.
			b.reload -= float32(now.Sub(at).Seconds()) * o.Model.ConditionFraction(b.sub)
		}
		if len(s.ammo) > 0 {
			s.ammo[s.ammoType]--
		}
	}
	b.lastShot = at
	var target int32
	var aim *[3]float32
	if m.HasTarget() {
		target = m.Target
		if x := w.objects[target]; x != nil && x.Model != nil {
			v := m.Point.Vector(x.sim.shape.radius)
			aim = &v
		}
	}
	x, y, z := m.Dir.Vector()
	w.launch(o, b, weaponRef{id: m.TubeID, sub: b.sub, kind: KindTorpedo}, int(owner.ID), proj, proj.Damage, [3]float32{x, y, z}, target, aim)
}

// PulseFired launches an owner's pulse bolt (0x1A): from a live cannon of
// the owner's ship whose charge covers the shot's cost, built from the
// cannon's projectile and scaled by its setting — MED, since no message
// carries a cannon's setting to other peers (simulation.md 5.5,
// Correction 44). A bolt the charge does not cover is refused: a stock
// Warbird cannon fires 2 bolts per full charge, 8 for the ship.
func (w *World) PulseFired(now time.Time, owner *Owner, m *codec.PulseFire) {
	w.PulseFiredAt(now, now, owner, m)
}

// PulseFiredAt is PulseFired for a message that could have arrived at at
// had nothing been lost (net.Conn.DeliveredAt). While the fair-play rules
// judge the world (SetFairPlay), a cannon may pay a bolt with the
// recharge of FireLag it does not have yet, its charge falling below 0,
// and a bolt that arrived late is credited the recharge a full cannon
// could not take meanwhile (fairplay.go).
func (w *World) PulseFiredAt(now, at time.Time, owner *Owner, m *codec.PulseFire) {
	w.now = now
	o, _, b := w.ownedWeapon(owner, m.CannonID, ships.WeaponPulse)
	if b == nil {
		return
	}
	d := bankData(o, b)
	proj, ok := w.ships.ProjectileByStem(d.Projectile)
	charge, allow, credit := w.pulseCover(o, b, d, now, at)
	if !ok || charge+credit+allow < pulseCost(d) {
		w.stats.WeaponRejected.Add(1)
		return
	}
	b.charge = min(d.MaxCharge, b.charge+credit-pulseCost(d))
	b.lastShot = now
	var target int32
	if m.HasTarget() {
		target = m.Target
	}
	x, y, z := m.Dir.Vector()
	w.launch(o, b, weaponRef{id: m.CannonID, sub: b.sub, kind: KindPulse}, int(owner.ID), proj,
		proj.Damage*pulseDamageScale[LevelMed], [3]float32{x, y, z}, target, nil)
}

// ownedWeapon finds the weapon with object id id on the owner's live ship,
// in a system of the given kind and able to fire; it counts a refusal.
func (w *World) ownedWeapon(owner *Owner, id int32, kind ships.Weapon) (*Object, *weaponSystem, *weaponBank) {
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil || !o.Alive() || w.noWeaponDamage {
		return nil, nil, nil
	}
	i, ok := o.Model.SubsystemIndex(id)
	if !ok {
		w.stats.WeaponRejected.Add(1)
		return nil, nil, nil
	}
	s, b := o.bankOf(i)
	if b == nil || s.weapon != kind || bankDown(o, b) || systemDown(o, s) {
		w.stats.WeaponRejected.Add(1)
		return nil, nil, nil
	}
	return o, s, b
}
