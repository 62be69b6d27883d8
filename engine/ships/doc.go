// Package ships is the host's model of Bridge Commander ships: the data
// registry that replaces the stock hardpoint scripts (data/README.md), the
// per-class subsystem layout, the per-ship state the host is authoritative
// for (simulation.md 1: subsystem condition, power, batteries) and the
// StateUpdate flag 0x20 subsystem round-robin block (simulation.md 4.2-4.3).
//
// # Data
//
// A Registry is loaded from a data folder laid out like
// the project's data/vanilla-1.1 reference set (see Load). The vanilla 1.1 set is embedded and
// returned by Vanilla; Overlay puts mod folders on top. A Registry and every
// Class, Projectile and GameMode it hands out are read-only after loading,
// so one Registry can serve every game goroutine. The only package-level
// state is the lazily built vanilla Registry behind a sync.Once; it is
// immutable once built. It is built from the embedded files decoded ahead
// of time (vanilla_decoded.go, see predecoded): the same checks run on the
// values, without parsing 440 KB of JSON at every start.
//
// # Subsystems and weapons
//
// The data's type strings are parsed once, when a class loads, into one
// typed vocabulary (kinds.go): SubsystemType for what a subsystem is and
// Weapon for a kind of weapon, with the one table that ties each kind of
// weapon to its system's and its weapons' types. Subsystem.Type and
// Subsystem.Weapon carry them; the world, its events and every consumer
// switch on these values, never on the strings.
//
// # Ship state
//
// A Ship is created at full condition, 100 % power and full batteries
// (simulation.md 3.4) and is owned by one game goroutine; it is not safe for
// concurrent use. Condition is stored in hit points against the
// subsystem's MaxCondition, and the wire bytes of simulation.md 4.2 are kept
// up to date on every change so the 0x20 writer only copies bytes.
//
// # Subsystem object ids
//
// The ship takes the first id of its owner's block and its subsystems the
// next ids in the stock creation order, the hardpoint script's property
// order (simulation.md 3.2), which the data carries as id_offset:
// subsystem k has id ship id + k. Class.Subsystems is in depth-first
// serialization order (the order of the condition bytes on the wire);
// Ship.SubsystemID and Ship.SubsystemIndex map between the two.
//
// # ObjCreate tail
//
// AppendTail writes the subsystem state that ends a ship's ObjCreate body
// (simulation.md 3.4), which the host needs for the objects it creates
// itself; each Entry's Tail says which full-state form it takes.
package ships
