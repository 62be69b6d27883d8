package ships

import (
	"fmt"
	"math"
)

// Format is how a top-level entry of the 0x20 list is written
// (simulation.md 4.2).
type Format uint8

const (
	// FormatBase is [condition] then each child's [condition]: hull,
	// shield generator, bridge.
	FormatBase Format = iota
	// FormatPowered is the base part, a packed has_power bit and, if set,
	// a [power] byte: sensors, engines, weapon systems, cloak, repair.
	FormatPowered
	// FormatPower is the base part then [main battery][backup battery],
	// always, whoever receives it: the reactor (warp core).
	FormatPower
)

// String returns the data-file spelling of f.
func (f Format) String() string {
	switch f {
	case FormatBase:
		return "base"
	case FormatPowered:
		return "powered"
	case FormatPower:
		return "power"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

func parseFormat(s string) (Format, error) {
	switch s {
	case "base":
		return FormatBase, nil
	case "powered":
		return FormatPowered, nil
	case "power":
		return FormatPower, nil
	}
	return 0, fmt.Errorf("unknown format %q (want base, powered or power)", s)
}

// Entry is one top-level entry of a class's 0x20 list, in wire order
// (serialization.json array order, simulation.md 4.2).
type Entry struct {
	Name   string
	Format Format
	// Subsystem is the index in Class.Subsystems of the entry's own
	// subsystem; its children follow it directly, so the entry covers
	// Subsystems[Subsystem : Subsystem+1+Children].
	Subsystem int
	// Children is the number of child subsystems written inside the entry.
	Children int
	// NormalPower is the power drawn per second at 100 % (powered entries).
	NormalPower float32
	// PowerMode is 0 for main-battery-first consumers (data/README.md).
	PowerMode int
	// Tail is how the ObjCreate tail writes the entry (simulation.md 3.4).
	Tail TailKind
	// Weapon is the kind of weapon system the entry is, NoWeapon for
	// every other entry.
	Weapon Weapon
}

// Subsystem is one subsystem of a class, listed in creation order.
type Subsystem struct {
	Name string
	// Entry is the index in Class.Entries of the entry that writes this
	// subsystem's condition byte.
	Entry int
	// Child is the position among that entry's children, -1 for the
	// entry's own subsystem.
	Child int
	// MaxCondition is the maximum of the modelled condition and the
	// divisor of the 0x20 condition byte. It is serialization.json's value
	// where that file gives one, else subsystems.json's; the two files
	// disagree for many entries and data/README.md says to use the
	// serialization value for the byte (simulation.md 15).
	MaxCondition float32
	// Data is the subsystems.json record of this name, or nil for weapon
	// system containers and children the file does not list.
	Data *SubsystemData
	// IDOffset is k in "object id = ship id + k": the subsystem's 1-based
	// place in the stock creation order (simulation.md 3.2), from
	// serialization.json's id_offset.
	IDOffset int
	// Position is where the subsystem sits at run time, model frame: the
	// hardpoint's position, except that a phaser bank sits on its firing
	// strip (RuntimePosition). Zero when Data is nil.
	Position [3]float32

	typ    SubsystemType // Data.Type, parsed
	weapon Weapon        // what the subsystem is or holds (Weapon)
}

// Type returns the subsystems.json type, parsed when the class loaded;
// NoType when Data is nil (a weapon system's container among them).
func (s *Subsystem) Type() SubsystemType { return s.typ }

// Weapon returns the kind of weapon the subsystem is or, for a weapon
// system's container, holds; NoWeapon for every other subsystem.
func (s *Subsystem) Weapon() Weapon { return s.weapon }

// Class is one loaded ship class. It is read-only after loading.
type Class struct {
	ShipData
	Power PowerData
	// Entries is the top-level 0x20 list in wire order.
	Entries []Entry
	// Subsystems is every subsystem, children included, in depth-first
	// serialization order (each entry, then its children): the order of the
	// condition bytes on the wire. Object ids follow the creation order
	// instead (Subsystem.IDOffset).
	Subsystems []Subsystem
	// Hull, Reactor, Repair and ShieldGenerator are indices into
	// Subsystems, -1 when the class has none. Hull is always present.
	Hull, Reactor, Repair, ShieldGenerator int
	// PowerEntry is the index in Entries of the power-format entry, or -1.
	PowerEntry int
	// Unlisted names subsystems.json entries the serialization list does
	// not contain: they are not on the wire and take no object id (vanilla:
	// the Shuttle's "Repair System").
	Unlisted []string
	// WeaponSystems are the ship.json weapon_systems resolved against
	// Subsystems, in creation order (empty for older data without them).
	WeaponSystems []WeaponSystem
	// Dir is the class folder the data came from (fs path).
	Dir string

	byName      map[string]int
	byOffset    []int // IDOffset-1 -> index in Subsystems
	maxEntryLen int
}

// WeaponSystem is one weapon system of a class with its subsystems
// resolved: the container StartFiring names and its weapons.
type WeaponSystem struct {
	WeaponSystemData
	// Weapon is the system's kind of weapon: its Type, parsed.
	Weapon Weapon
	// Subsystem is the index in Class.Subsystems of the system container.
	Subsystem int
	// Members are the indices in Class.Subsystems of the system's weapons,
	// in the data's creation order (WeaponSystemData.Weapons).
	Members []int
}

// WeaponSystemOf returns the weapon system whose container is subsystem
// index i, or nil.
func (c *Class) WeaponSystemOf(i int) *WeaponSystem {
	for k := range c.WeaponSystems {
		if c.WeaponSystems[k].Subsystem == i {
			return &c.WeaponSystems[k]
		}
	}
	return nil
}

// SubsystemByOffset returns the index in Subsystems of the subsystem whose
// object id is ship id + k.
func (c *Class) SubsystemByOffset(k int) (int, bool) {
	if k < 1 || k > len(c.byOffset) {
		return 0, false
	}
	return c.byOffset[k-1], true
}

// Species returns the SpeciesToShip index (simulation.md 3.3).
func (c *Class) Species() int { return c.SpeciesID }

// SubsystemIndex returns the index of the subsystem called name.
func (c *Class) SubsystemIndex(name string) (int, bool) {
	i, ok := c.byName[name]
	return i, ok
}

// ChildCount returns the number of child subsystems over all entries.
func (c *Class) ChildCount() int { return len(c.Subsystems) - len(c.Entries) }

// IDSpan returns how many object ids a ship of this class takes from its
// owner's block: the ship and each subsystem (simulation.md 3.2). A
// Sovereign takes 34, so a respawned ship after 0x3FFFFFFF is 0x40000021.
func (c *Class) IDSpan() int { return 1 + len(c.Subsystems) }

// CycleBytes returns the size of one full cycle of the list as the table in
// simulation.md 4.2 counts it: base 1+children, powered 3+children (2 for
// the owner, who gets no power byte), power 3+children, counting each
// has_power bit as a byte. On the wire up to five bits share a byte, so
// real streams are shorter; the start byte is not included.
func (c *Class) CycleBytes(receiverIsOwner bool) int {
	n := 0
	for i := range c.Entries {
		n += entryLen(&c.Entries[i], receiverIsOwner)
	}
	return n
}

// MaxBlockLen returns an upper bound on the bytes one AppendSubsystems call
// writes for this class, for sizing message buffers.
func (c *Class) MaxBlockLen() int {
	// The writer stops once 10 bytes are reached, so everything before the
	// last entry is under 10 bytes; a whole cycle is the other bound.
	return min(blockBudget-1+c.maxEntryLen, 1+c.CycleBytes(false))
}

// entryLen is an entry's size with one byte per has_power bit.
func entryLen(e *Entry, receiverIsOwner bool) int {
	n := 1 + e.Children
	switch e.Format {
	case FormatPowered:
		n++
		if !receiverIsOwner {
			n++
		}
	case FormatPower:
		n += 2
	}
	return n
}

// RuntimePosition is where a subsystem of hardpoint data d sits at run
// time (simulation.md 5.3 "Phaser bank positions", Correction 46): the
// hardpoint position, and for a phaser bank the point of its firing strip
// at the centre c of its arc width, position + W·sin(c)·right +
// L·cos(c)·forward, with W and L the strip's width and length and right =
// forward × up the bank's own axes. That reproduces the run-time positions
// of all eight Galaxy banks [measured: stbc-oracle capture meta]; the four
// ventral banks, which share one hardpoint position, sit apart on the
// saucer rim.
func RuntimePosition(d *SubsystemData) [3]float32 {
	typ, _ := ParseSubsystemType(d.Type)
	return runtimePosition(d, typ)
}

// runtimePosition is RuntimePosition for data whose type, typ, the caller
// parsed.
func runtimePosition(d *SubsystemData, typ SubsystemType) [3]float32 {
	p := d.Position
	if typ != TypePhaser || d.StripWidth == 0 && d.StripLength == 0 {
		return p
	}
	f, u := d.Forward, d.Up
	r := [3]float32{f[1]*u[2] - f[2]*u[1], f[2]*u[0] - f[0]*u[2], f[0]*u[1] - f[1]*u[0]}
	c := float64(d.ArcWidth[0]+d.ArcWidth[1]) / 2
	w := d.StripWidth * float32(math.Sin(c))
	l := d.StripLength * float32(math.Cos(c))
	for k := range p {
		p[k] += w*r[k] + l*f[k]
	}
	return p
}
