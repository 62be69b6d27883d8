package world

import "github.com/bcserver/bcserver/engine/ships"

// Event is something the world reports to missions and plugins through
// Host.Emit; the engine's event bus carries it under its Name.
type Event interface{ Name() string }

// Event names raised by the world.
const (
	EvShipCreated     = "ship_created"
	EvShipDestroyed   = "ship_destroyed"
	EvObjectDestroyed = "object_destroyed"
	EvWeaponHit       = "weapon_hit"
	EvShipDamaged     = "ship_damaged"
)

// ShipCreated: a ship (usually a player's, from its ObjCreateTeam) now
// exists; it replaces the player's previous ship.
type ShipCreated struct{ Ship *Object }

// DeathCause says what destroyed a ship.
type DeathCause string

// Death causes.
const (
	CauseWeapon       DeathCause = "weapon"
	CauseCollision    DeathCause = "collision"
	CauseSelfDestruct DeathCause = "self_destruct"
	CauseEnvironment  DeathCause = "environment"
)

// WeaponKind says what dealt a hit or a death (rule 11 of the
// custom-rules API: "kills by weapon"): one of the ship data's weapons —
// the same value as its ships.Weapon, so a new kind of weapon needs no
// row here — or a collision, a self-destruct or a mission's damage;
// KindNone when nothing is named.
type WeaponKind uint8

// The weapons' kinds, as ships.Weapon numbers them.
const (
	KindNone    = WeaponKind(ships.NoWeapon)
	KindPhaser  = WeaponKind(ships.WeaponPhaser) // beams: phasers, disruptor and compressor beams
	KindPulse   = WeaponKind(ships.WeaponPulse)  // pulse cannon bolts
	KindTorpedo = WeaponKind(ships.WeaponTorpedo)
)

// The kinds that are no weapon of the ship data, numbered apart from the
// weapons'.
const (
	KindCollision WeaponKind = otherKinds + iota
	KindSelfDestruct
	KindMission // damage a mission dealt (DealDamage)
)

// otherKinds is the first WeaponKind that is not a ships.Weapon.
const otherKinds = 0x80

// otherKindNames are the names of the kinds from otherKinds on.
var otherKindNames = [...]string{"collision", "self_destruct", "mission"}

// KindOf is the kind of a hit by a weapon of kind w.
func KindOf(w ships.Weapon) WeaponKind { return WeaponKind(w) }

// Weapon returns the ship data's weapon k names, ships.NoWeapon for the
// other kinds.
func (k WeaponKind) Weapon() ships.Weapon {
	if k >= otherKinds {
		return ships.NoWeapon
	}
	return ships.Weapon(k)
}

// String returns the kind's name, as the events give it to missions:
// phaser, pulse, torpedo, ..., collision, self_destruct, mission ("" for
// KindNone).
func (k WeaponKind) String() string {
	if k < otherKinds {
		return ships.Weapon(k).String()
	}
	if i := int(k - otherKinds); i < len(otherKindNames) {
		return otherKindNames[i]
	}
	return ""
}

// ShipDestroyed is the stock "object exploding" (simulation.md 9,
// missions.md 3.5): the host model decided the ship died. KillerID is the
// firing player's id, 0 for none (self-destruct, environment, AI).
type ShipDestroyed struct {
	Victim *Object
	// Killer is the ship that dealt the lethal damage (the shooter, the
	// other party of a collision), nil for none.
	Killer   *Object
	KillerID int
	Cause    DeathCause
	Lifetime float32
	// Weapon is the object id of the weapon that dealt the lethal damage
	// (a phaser bank, pulse cannon or torpedo tube; 0 for none),
	// WeaponName its subsystem name and Kind what dealt it: phaser, pulse,
	// torpedo, collision or self_destruct ("" for none: a mission's
	// destruction of a host ship).
	Weapon     int32
	WeaponName string
	Kind       WeaponKind
}

// ObjectDestroyed: the object is gone (deleted after its explosion, its
// owner left, or the game ended).
type ObjectDestroyed struct{ Object *Object }

// WeaponHit is one weapon hit the host damage model applied
// (missions.md 3.4, simulation.md 5.5): one torpedo or bolt impact, or one
// quantum of a beam. ShooterID is the firing player's id (0 for a host
// ship), Damage the amount before shields, Absorbed what the shield
// facing took, HullHit whether the hull lost condition.
type WeaponHit struct {
	ShooterID int
	// Shooter is the firing ship (a player's or a host ship).
	Shooter  *Object
	Target   *Object
	Damage   float64
	Absorbed float64
	HullHit  bool
	// Weapon is the object id of the firing bank, cannon or tube,
	// WeaponName its subsystem name and Kind phaser, pulse or torpedo.
	Weapon     int32
	WeaponName string
	Kind       WeaponKind
}

// ShipDamaged: a ship took damage from a weapon hit or a collision.
// Damage is the amount before shields (hit points), HullHit whether any
// reached the hull; Attacker is the other ship (nil for none) and
// AttackerID its player's id (0 for none: a host ship, the environment).
// A lethal hit raises it before ship_destroyed.
type ShipDamaged struct {
	Ship       *Object
	Attacker   *Object
	AttackerID int
	Cause      DeathCause
	Damage     float64
	HullHit    bool
	// Kind is what dealt it: phaser, pulse, torpedo or collision.
	Kind WeaponKind
}

// Name implements Event.
func (*ShipDamaged) Name() string { return EvShipDamaged }

// Name implements Event.
func (*ShipCreated) Name() string { return EvShipCreated }

// Name implements Event.
func (*ShipDestroyed) Name() string { return EvShipDestroyed }

// Name implements Event.
func (*ObjectDestroyed) Name() string { return EvObjectDestroyed }

// Name implements Event.
func (*WeaponHit) Name() string { return EvWeaponHit }
