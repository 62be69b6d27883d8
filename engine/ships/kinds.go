package ships

// The ship data's vocabulary of subsystems and weapons, typed. Every type
// string of the data files (subsystems.json "type", ship.json
// weapon_systems "type") is parsed once, when a class loads, and the mod
// importer writes them from the same table; everything after — the host's
// weapon model and its events, the recorder, the statistics, the bots —
// switches on these values, never on the strings. Go does not make a
// switch cover every value, so the tests do: a new kind of weapon fails
// TestEveryWeaponModelled (engine/world), TestRecordedWeapons
// (engine/capture), TestWeaponVocabularyDocumented (lua) and
// TestVocabularyDocumented (here) until every place it must reach has it.
// A new kind of weapon is a Weapon, its row in weapons and its two
// subsystem types here; then what engine/world does with it; then one row
// in each consumer's table.

// SubsystemType is what a subsystem is: its subsystems.json type, or for a
// weapon system (a container, which subsystems.json does not list) its
// ship.json weapon_systems type.
type SubsystemType uint8

// Subsystem types, in data/README.md's order.
const (
	// NoType is a subsystem with no data: a weapon system's container
	// (Subsystem.Weapon says which) or a child subsystems.json does not
	// list.
	NoType SubsystemType = iota
	TypeHull
	TypeShield
	TypeSensor
	TypePower
	TypeImpulseEngine
	TypeWarpEngine
	// TypeEngine is one engine of an impulse or warp system
	// (SubsystemData.EngineType says which).
	TypeEngine
	TypeRepair
	TypeCloak
	// The weapon systems (ship.json weapon_systems) ...
	TypePhaserSystem
	TypePulseSystem
	TypeTorpedoSystem
	TypeTractorSystem
	// ... and their weapons (subsystems.json).
	TypePhaser
	TypePulseWeapon
	TypeTorpedoTube
	TypeTractorBeam
	numSubsystemTypes
)

// subsystemTypeNames are the data files' spellings of the types.
var subsystemTypeNames = [numSubsystemTypes]string{
	NoType: "", TypeHull: "hull", TypeShield: "shield", TypeSensor: "sensor", TypePower: "power",
	TypeImpulseEngine: "impulse_engine", TypeWarpEngine: "warp_engine", TypeEngine: "engine",
	TypeRepair: "repair", TypeCloak: "cloak",
	TypePhaserSystem: "phaser_system", TypePulseSystem: "pulse_system",
	TypeTorpedoSystem: "torpedo_system", TypeTractorSystem: "tractor_system",
	TypePhaser: "phaser", TypePulseWeapon: "pulse_weapon", TypeTorpedoTube: "torpedo_tube",
	TypeTractorBeam: "tractor_beam",
}

// String returns the data files' spelling of t ("" for NoType).
func (t SubsystemType) String() string {
	if t < numSubsystemTypes {
		return subsystemTypeNames[t]
	}
	return ""
}

// ParseSubsystemType reads a data file's type spelling; false for any
// other string, "" included.
func ParseSubsystemType(s string) (SubsystemType, bool) {
	for t := TypeHull; t < numSubsystemTypes; t++ {
		if subsystemTypeNames[t] == s {
			return t, true
		}
	}
	return NoType, false
}

// Weapon returns the kind of weapon a weapon system or weapon type is,
// NoWeapon for every other type.
func (t SubsystemType) Weapon() Weapon {
	if t == NoType {
		return NoWeapon
	}
	for w := range weapons {
		if weapons[w].system == t || weapons[w].weapon == t {
			return Weapon(w)
		}
	}
	return NoWeapon
}

// IsWeaponSystem reports whether t is a weapon system's type.
func (t SubsystemType) IsWeaponSystem() bool { return t != NoType && weapons[t.Weapon()].system == t }

// Weapon is a kind of weapon: what a weapon system holds, what its weapons
// are, and what a shot or a hit by one of them names.
type Weapon uint8

// Weapon kinds.
const (
	NoWeapon Weapon = iota
	// WeaponPhaser: phaser banks, which fire beams (phasers, disruptor and
	// compressor beams alike).
	WeaponPhaser
	// WeaponPulse: pulse cannons, which fire bolts.
	WeaponPulse
	// WeaponTorpedo: torpedo tubes.
	WeaponTorpedo
	// WeaponTractor: tractor projectors, which hold and deal no damage.
	WeaponTractor
	numWeapons
)

// weapons is the weapon table: each kind's name (what the events and
// records call it), the subsystem types of its system and of its weapons,
// and how the ObjCreate tail writes its system (simulation.md 3.4).
var weapons = [numWeapons]struct {
	name           string
	system, weapon SubsystemType
	tail           TailKind
}{
	NoWeapon:      {},
	WeaponPhaser:  {"phaser", TypePhaserSystem, TypePhaser, TailPhaserSystem},
	WeaponPulse:   {"pulse", TypePulseSystem, TypePulseWeapon, TailPulseSystem},
	WeaponTorpedo: {"torpedo", TypeTorpedoSystem, TypeTorpedoTube, TailTorpedoSystem},
	WeaponTractor: {"tractor", TypeTractorSystem, TypeTractorBeam, TailTractorSystem},
}

// String returns the weapon's name: phaser, pulse, torpedo, tractor ("" for
// NoWeapon).
func (w Weapon) String() string {
	if w < numWeapons {
		return weapons[w].name
	}
	return ""
}

// SystemType returns the subsystem type of the weapon's system
// (phaser_system, ...), NoType for NoWeapon.
func (w Weapon) SystemType() SubsystemType {
	if w < numWeapons {
		return weapons[w].system
	}
	return NoType
}

// WeaponType returns the subsystem type of the weapon itself (phaser,
// pulse_weapon, torpedo_tube, tractor_beam), NoType for NoWeapon.
func (w Weapon) WeaponType() SubsystemType {
	if w < numWeapons {
		return weapons[w].weapon
	}
	return NoType
}

// Weapons returns every kind of weapon, in table order.
func Weapons() []Weapon {
	out := make([]Weapon, 0, numWeapons-1)
	for w := WeaponPhaser; w < numWeapons; w++ {
		out = append(out, w)
	}
	return out
}
