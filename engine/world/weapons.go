package world

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Shot is a validated, relayed fire message the weapon model may turn into
// damage.
type Shot struct {
	// Shooter is the player who fired, nil for a host ship.
	Shooter *Owner
	Ship    *Object // the shooter's live ship, with a model
	Opcode  byte    // codec.OpTorpedoFire or codec.OpBeamFire
	Weapon  int     // index in Ship.Model's class of the firing subsystem
	Target  *Object // the live ship the message names
	// Aim is the target-relative aim point of a targeted TorpedoFire, in
	// the target's frame, nil when the message carries none (beams). It
	// points into the world's scratch space and is valid only during
	// WeaponModel.Fire; a Hit may carry it as its Point.
	Aim *[3]float32
	// Ammo is the torpedo system's selected ammo type (an index into the
	// class's torpedo_ammo).
	Ammo int
}

// Hit is the damage a weapon model decided a shot deals.
type Hit struct {
	Damage float32
	// Delay is when the hit lands (a torpedo's flight time).
	Delay time.Duration
	// Point is where it lands, in the target's frame; nil means the point
	// of the target's bounding sphere facing the shooter.
	Point *[3]float32
}

// WeaponModel decides what weapon fire does. The stock host detects weapon
// hits with its own physics on ship geometry the server does not have
// (simulation.md 13); a model turns each fire message into a hit, or
// refuses it as implausible. The world applies the hit through the same
// shields and distributor as collisions and raises weapon_hit.
type WeaponModel interface {
	Fire(w *World, s Shot) (Hit, bool)
}

// DataWeapons is the default WeaponModel (option b of simulation.md 13): a
// shot that names a target hits it with the damage of the data files if
// the target is alive, in range and inside the weapon's firing arc, and the
// weapon is intact and not firing faster than it can. Beams hit at once
// with the phaser's max_damage, full up to max_damage_distance and falling
// off linearly to nothing at three times that; torpedoes hit after their
// flight time with the projectile's damage; a pulse cannon's bolt (a
// TorpedoFire from a pulse_weapon) hits at once with the cannon's
// max_damage, with no falloff (simulation.md 5.5) up to three times its
// max_damage_distance.
//
// This is a deliberate departure from stock: clients still compute weapon
// damage locally, and the host's numbers reach them through the 0x20 health
// block, so everyone converges on the host's view and the host decides
// deaths.
type DataWeapons struct {
	// ArcTolerance widens every firing arc (radians): positions and
	// orientations are the owners' latest reports, not the exact moment
	// of fire.
	ArcTolerance float64
	// MinInterval is the shortest time between two damaging shots of one
	// beam weapon.
	MinInterval time.Duration
}

// DefaultWeapons returns the default weapon model.
func DefaultWeapons() *DataWeapons {
	return &DataWeapons{ArcTolerance: 0.35, MinInterval: 500 * time.Millisecond}
}

// factionTorpedo is the projectile assumed for a ship's torpedoes when its
// data has no torpedo_ammo list (older or mod data; net type ids,
// SpeciesToTorp).
var factionTorpedo = map[string]int{
	"Federation": 2,  // PhotonTorpedo
	"Klingon":    6,  // KlingonTorpedo
	"Romulan":    12, // PhasedPlasma
	"Ferengi":    2,
	"Cardassian": 5, // CardassianTorpedo
	"Kessok":     7, // PositronTorpedo
}

// Fire implements WeaponModel.
func (dw *DataWeapons) Fire(w *World, s Shot) (Hit, bool) {
	ship, target := s.Ship, s.Target
	m := ship.Model
	sub := &m.Class().Subsystems[s.Weapon]
	d := sub.Data
	if d == nil || m.Condition(s.Weapon) <= 0 || !ship.state.hasPos || !target.state.hasPos {
		return Hit{}, false
	}
	now := w.Now()
	delta := sub3(target.pos(), ship.pos())
	dist := norm(delta)
	if s.Opcode == codec.OpTorpedoFire && sub.Type() == "pulse_weapon" {
		if d.MaxDamage <= 0 || dist > beamReach*d.MaxDamageDistance || !inArc(ship, d, delta, dw.ArcTolerance) {
			return Hit{}, false
		}
		if last, ok := ship.sim.lastFire[s.Weapon]; ok && now.Sub(last) < dw.MinInterval {
			return Hit{}, false
		}
		ship.sim.lastFire[s.Weapon] = now
		return Hit{Damage: d.MaxDamage, Point: s.Aim}, true
	}
	switch s.Opcode {
	case codec.OpBeamFire:
		if d.MaxDamage <= 0 || d.MaxDamageDistance <= 0 {
			return Hit{}, false
		}
		if dist > beamReach*d.MaxDamageDistance || !inArc(ship, d, delta, dw.ArcTolerance) {
			return Hit{}, false
		}
		if last, ok := ship.sim.lastFire[s.Weapon]; ok && now.Sub(last) < dw.MinInterval {
			return Hit{}, false
		}
		ship.sim.lastFire[s.Weapon] = now
		dmg := d.MaxDamage
		if dist > d.MaxDamageDistance {
			dmg *= 1 - (dist-d.MaxDamageDistance)/(2*d.MaxDamageDistance)
		}
		return Hit{Damage: dmg}, dmg > 0
	case codec.OpTorpedoFire:
		proj, ok := w.ships.Projectile(torpedoFor(m.Class(), s.Ammo))
		if !ok || proj.LaunchSpeed <= 0 {
			return Hit{}, false
		}
		if dist > torpedoReach(proj) {
			return Hit{}, false
		}
		if last, ok := ship.sim.lastFire[s.Weapon]; ok && d.ImmediateDelay > 0 && now.Sub(last).Seconds() < float64(d.ImmediateDelay)*0.8 {
			return Hit{}, false
		}
		ship.sim.lastFire[s.Weapon] = now
		flight := time.Duration(float64(dist/proj.LaunchSpeed) * float64(time.Second))
		return Hit{Damage: proj.Damage, Delay: flight, Point: s.Aim}, true
	}
	return Hit{}, false
}

// beamReach is how far a beam reaches in max_damage_distances: its damage
// falls off to nothing there (DataWeapons).
const beamReach = 3

// torpedoReach is how far a torpedo flies: its launch speed for its
// guidance lifetime (at least 6 s), with half again for a target coming
// toward it.
func torpedoReach(p *ships.Projectile) float32 {
	return p.LaunchSpeed * max(p.GuidanceLifetime, p.Lifetime, 6) * 1.5
}

// torpedoFor returns the projectile net type a class fires with ammo type
// ammo selected: the TorpedoTypeChange value (and the ObjCreate tail's
// ammo byte) indexes the class's torpedo_ammo list (simulation.md 5.5).
// Without a list, or for an index outside it, the faction's torpedo is
// used.
func torpedoFor(c *ships.Class, ammo int) int {
	if ammo >= 0 && ammo < len(c.TorpedoAmmo) {
		return c.TorpedoAmmo[ammo].NetTypeID
	}
	if len(c.TorpedoAmmo) > 0 {
		return c.TorpedoAmmo[0].NetTypeID
	}
	if t, ok := factionTorpedo[c.Faction]; ok {
		return t
	}
	return 2
}

// inArc checks that a world-frame direction lies inside a weapon's firing
// arc (azimuth within arc_width around its forward axis, elevation within
// arc_height), widened by tol. Without the owner's orientation it passes.
func inArc(ship *Object, d *ships.SubsystemData, world [3]float32, tol float64) bool {
	if _, _, ok := ship.axes(); !ok || d.ArcWidth == [2]float32{} {
		return true
	}
	v := toLocal(ship, world)
	f, u := d.Forward, d.Up
	r := [3]float32{f[1]*u[2] - f[2]*u[1], f[2]*u[0] - f[0]*u[2], f[0]*u[1] - f[1]*u[0]}
	dot := func(a, b [3]float32) float64 { return float64(a[0]*b[0] + a[1]*b[1] + a[2]*b[2]) }
	n := float64(norm(v))
	if n == 0 {
		return true
	}
	az := math.Atan2(dot(v, r), dot(v, f))
	el := math.Asin(math.Max(-1, math.Min(1, dot(v, u)/n)))
	within := func(x float64, lim [2]float32) bool {
		// Some stock arcs list their limits high to low.
		lo, hi := float64(min(lim[0], lim[1])), float64(max(lim[0], lim[1]))
		return x >= lo-tol && x <= hi+tol
	}
	return within(az, d.ArcWidth) && within(el, d.ArcHeight)
}

// Weapon-path distributor parameters (simulation.md 5.1): after the shield
// facing, the distributor runs with damage ×2 and radius ×0.5, and drops the
// reactor from a multi-subsystem hit set.
const (
	weaponDamageFactor float32 = 2
	weaponSearch               = collisionSearch * 0.5
)

// Fire runs the weapon model on an owner's relayed fire message (TorpedoFire
// or BeamFire) that names a target: weapon is the firing subsystem's object
// id, aim a targeted torpedo's aim point relative to the target (nil for
// beams). A hit lands at once or, for a torpedo, after its flight time.
func (w *World) Fire(now time.Time, owner *Owner, op byte, weaponID, targetID int32, aim *codec.ScaledPoint) {
	w.now = now
	if w.weapons == nil || targetID == 0 {
		return
	}
	ship := w.ShipOf(owner)
	target := w.objects[targetID]
	if ship == nil || ship.Model == nil || !ship.Alive() || target == nil || target.Model == nil || !target.Alive() || target == ship {
		return
	}
	idx, ok := ship.Model.SubsystemIndex(weaponID)
	if !ok {
		w.stats.WeaponRejected.Add(1)
		return
	}
	shot := Shot{Shooter: owner, Ship: ship, Opcode: op, Weapon: idx, Target: target, Ammo: owner.torpedoType}
	if aim != nil {
		// The 4-byte point is scaled by the target's radius (opcodes.md
		// 3.5); it is taken in the target's frame, like a collision
		// contact, so it picks the shield facing and the subsystems hit.
		w.aim = aim.Vector(target.sim.radius)
		shot.Aim = &w.aim
	}
	hit, ok := w.weapons.Fire(w, shot)
	if !ok {
		w.stats.WeaponRejected.Add(1)
		return
	}
	w.deliver(int(owner.ID), ship, target, hit)
}

// deliver lands a hit at once or, for a torpedo, after its flight time,
// if its target still lives then. shooterID is the firing player's id, 0
// for a host ship.
func (w *World) deliver(shooterID int, ship, target *Object, h Hit) {
	if h.Delay <= 0 {
		w.applyWeaponHit(shooterID, ship, target, h)
		return
	}
	if h.Point != nil {
		// The point may be the world's scratch (Shot.Aim), which the next
		// shot overwrites before this one lands.
		pt := *h.Point
		h.Point = &pt
	}
	w.host.After(h.Delay, func(now time.Time) {
		w.now = now
		if w.objects[target.ID] == target && target.Alive() {
			w.applyWeaponHit(shooterID, ship, target, h)
		}
	})
}

// applyWeaponHit applies one weapon hit, raises weapon_hit, and then, if
// the hit was lethal, destroys the target: the stock scripts book the
// killing hit's damage before they see the object exploding
// (missions.md 3.4-3.5), so the lethal damage is scored and the victim's
// ledger is cleared by the death.
func (w *World) applyWeaponHit(shooterID int, ship, target *Object, h Hit) {
	damage := h.Damage
	pt := pointToward(target, ship.pos())
	if h.Point != nil {
		pt = *h.Point
	}
	info := hitInfo{cause: CauseWeapon, attacker: ship, attackerID: shooterID}
	// The shield facing stops its share of the plain damage; what passes
	// goes through the weapon distributor.
	var res damageResult
	if rest := shieldWeaponHit(target, facing(pt), damage); rest > 0 {
		res = w.distribute(target, pt, rest*weaponDamageFactor, weaponSearch, true)
	}
	w.stats.WeaponHits.Add(1)
	w.host.Emit(&WeaponHit{ShooterID: shooterID, Shooter: ship, Target: target, Damage: float64(damage), HullHit: res.hull})
	w.host.Emit(&ShipDamaged{Ship: target, Attacker: ship, AttackerID: shooterID, Cause: CauseWeapon, Damage: float64(damage), HullHit: res.hull})
	if res.lethal {
		w.killShip(target, info)
	}
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

// shieldWeaponHit runs a weapon hit of damage through facing f of the
// target's shields and returns what passes. The facing absorbs the share
// it stops, as far as its points go; one below 10 % no longer stops the
// shot at all and is left as it is.
func shieldWeaponHit(target *Object, f int, damage float32) float32 {
	s := target.sim.shields[f]
	c := target.Model.Class()
	if s <= 0 || f >= len(c.ShieldHP) || c.ShieldHP[f] <= 0 {
		return damage
	}
	pass := shieldPass(s / c.ShieldHP[f])
	if pass >= 1 {
		return damage
	}
	absorbed := min(s, damage*(1-pass))
	target.sim.shields[f] = s - absorbed
	return damage - absorbed
}
