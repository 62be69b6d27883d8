package world

import (
	"errors"
	"math"
	"time"
)

// Damage rules of a mission (docs/lua-api.md "Damage rules"): a hook
// that sees every weapon hit before it is applied and may scale or cancel
// it (Team 2's torpedoes do half as much again to the freighter), and
// damage the mission deals itself (ship:damage, ship:set_condition)
// through the same steps as a weapon's: the condition the host's health
// updates carry to every client, weapon_hit and ship_damaged, and the
// death with its killer credited.

// DamageHit is one weapon hit as a damage hook sees it, before the
// target's shields, hull and subsystems take it.
type DamageHit struct {
	// Shooter is the firing ship (nil when it is gone); ShooterID its
	// player (0: a host ship).
	Shooter   *Object
	ShooterID int
	Target    *Object
	// Kind is phaser, pulse or torpedo; Weapon the bank, cannon or tube
	// (its object id) and WeaponName its subsystem name.
	Kind       WeaponKind
	Weapon     int32
	WeaponName string
	// Subsystem is the index (in the target's class) of the live
	// subsystem nearest where the hit lands, -1 for none.
	Subsystem int
	// Damage is the hit's hit points after the shooter's DamageDealt
	// modifier (the target's own modifiers apply after the hook).
	Damage float32
}

// DamageHook decides one weapon hit: it returns the damage to apply
// (h.Damage for no change; 0 or less cancels the hit: nothing lands, no
// weapon_hit). It runs on the world's goroutine, inside the tick.
type DamageHook func(h *DamageHit) float32

// SetDamageHook sets the hook every weapon hit passes (nil: none, the
// stock model).
func (w *World) SetDamageHook(fn DamageHook) { w.damageHook = fn }

// DamageHook returns the hook in force (nil for none).
func (w *World) DamageHook() DamageHook { return w.damageHook }

// MissionDamage is damage a mission deals to a ship.
type MissionDamage struct {
	// Amount is in hit points (the class's max_condition scale), taken
	// off the condition as it stands: no shield stops it, no modifier
	// scales it.
	Amount float32
	// Subsystem is the index (in the ship's class) of the subsystem that
	// takes it; -1 for the hull.
	Subsystem int
	// By is the player credited with it (0: none): the weapon_hit and the
	// death name him as the shooter and the killer, as a weapon's would.
	By int
}

// Errors of DealDamage and SetCondition.
var (
	ErrNotModelled = errors.New("not a live ship the host models")
	ErrSubsystem   = errors.New("no such subsystem")
)

// DealDamage deals a mission's damage to ship x now. The condition falls
// at once (the health updates carry it), weapon_hit (kind "mission") and
// ship_damaged name By as the shooter, and a lethal amount destroys the
// ship with By as its killer.
func (w *World) DealDamage(now time.Time, x *Object, d MissionDamage) error {
	w.now = now
	if x == nil || x.Model == nil || !x.Alive() || w.objects[x.ID] != x {
		return ErrNotModelled
	}
	m := x.Model
	c := m.Class()
	i := d.Subsystem
	if i < 0 {
		i = c.Hull
	}
	if i < 0 || i >= len(c.Subsystems) {
		return ErrSubsystem
	}
	if !(d.Amount > 0) || math.IsInf(float64(d.Amount), 0) {
		return nil
	}
	before := hp(m, i)
	setHP(m, i, max(before-d.Amount, 0))
	w.subsystemHit(x, i)
	hull := i == c.Hull
	var by *Object
	if d.By > 0 {
		by = w.playerShip(d.By)
	}
	ref := weaponRef{sub: -1, kind: KindMission}
	w.env.Emit(&WeaponHit{ShooterID: d.By, Shooter: by, Target: x, Damage: float64(d.Amount), HullHit: hull, Kind: KindMission})
	w.env.Emit(&ShipDamaged{Ship: x, Attacker: by, AttackerID: d.By, Cause: CauseWeapon, Damage: float64(d.Amount), HullHit: hull, Kind: KindMission})
	if x.Alive() && critical(x) {
		w.killShip(x, hitInfo{cause: CauseWeapon, attacker: by, attackerID: d.By, weapon: ref})
	}
	return nil
}

// SetCondition sets subsystem i of ship x (-1: the hull) to fraction f
// (0..1) of its maximum: a fall is dealt as damage by the player by
// (DealDamage), a rise is a repair.
func (w *World) SetCondition(now time.Time, x *Object, i int, f float32, by int) error {
	w.now = now
	if x == nil || x.Model == nil || !x.Alive() || w.objects[x.ID] != x {
		return ErrNotModelled
	}
	m := x.Model
	c := m.Class()
	if i < 0 {
		i = c.Hull
	}
	if i < 0 || i >= len(c.Subsystems) {
		return ErrSubsystem
	}
	f = min(max(f, 0), 1)
	want := f * c.Subsystems[i].MaxCondition
	if cur := m.Condition(i); want < cur {
		return w.DealDamage(now, x, MissionDamage{Amount: (cur - want) / hpScale(m, i), Subsystem: i, By: by})
	}
	m.SetCondition(i, want)
	return nil
}

// playerShip is the current ship of player id (nil for none).
func (w *World) playerShip(id int) *Object {
	for _, o := range w.fleet {
		if o.Owner != nil && int(o.Owner.ID) == id && o.IsPlayerShip() {
			return o
		}
	}
	return nil
}
