package bot

import (
	"errors"
	"math"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Messages a client sends to play: spawn a ship, fly it, fire (phasers
// with StartFiring, bolts, torpedoes), ram, self-destruct. bcbot and the mission test runner build them here so both
// play the same way a stock client does.

// Spawn returns the ObjCreateTeam for a ship of species with the given
// object id, as a stock client spawns and respawns (ids from its slot's
// block): the captured Akira body with its species and id replaced, and
// the full-health subsystem tail of the species' class (simulation.md
// 3.4; the server checks it against the class).
func Spawn(slot int, playerID uint8, name string, species uint8, objectID int32) ([]byte, error) {
	reg, err := ships.Vanilla()
	if err != nil {
		return nil, err
	}
	return SpawnFrom(reg, slot, playerID, name, species, objectID)
}

// SpawnAt is Spawn with the ship placed at pos from the start, as a stock
// client creates it where it appears (the captured body's own position
// would hold until the first StateUpdate).
// The tail is the class's in reg (SpawnFrom).
func SpawnAt(reg *ships.Registry, slot int, playerID uint8, name string, species uint8, objectID int32, pos [3]float32) ([]byte, error) {
	raw, err := SpawnFrom(reg, slot, playerID, name, species, objectID)
	if err != nil {
		return nil, err
	}
	m, err := codec.DecodeObjCreate(raw)
	if err != nil {
		return nil, err
	}
	m.Ship.Position = pos
	return m.AppendTo(nil), nil
}

// SpawnFrom is Spawn with the subsystem tail of the species' class in reg
// (a mod's data pack); a species reg has no class for keeps the captured
// Akira tail, as a client with data the host lacks sends its own.
func SpawnFrom(reg *ships.Registry, slot int, playerID uint8, name string, species uint8, objectID int32) ([]byte, error) {
	raw, err := ShipCreate(slot, playerID, name)
	if err != nil {
		return nil, err
	}
	m, err := codec.DecodeObjCreate(raw)
	if err != nil {
		return nil, err
	}
	m.ObjectID = objectID
	m.Ship.Species = species
	if c, ok := reg.Class(int(species)); ok {
		var w codec.Writer
		ships.AppendTail(&w, ships.NewShip(c, objectID), ships.DefaultTail())
		m.Ship.Tail = w.Bytes()
	}
	return m.AppendTo(nil), nil
}

// Move returns the StateUpdate that places a ship at pos facing forward (a
// world-space direction; the up vector is chosen perpendicular to it).
func Move(objectID int32, pos, forward [3]float32) []byte {
	f, up := frame(forward)
	return codec.StateUpdate{ObjectID: objectID, Flags: codec.StatePosition | codec.StateForward | codec.StateUp,
		Position: pos, Forward: codec.NewDir3(f[0], f[1], f[2]), Up: codec.NewDir3(up[0], up[1], up[2])}.AppendTo(nil)
}

// StartFiring returns the StartFiring 0x07 a stock client sends when its
// weapon system (phasers, or tractors) starts firing at target: source 0,
// the system as destination, the target and no aim offset (opcodes.md
// 3.2). Every peer, the host included, then runs the system's banks
// itself until StopFiring.
func StartFiring(system, target int32) []byte {
	return codec.StartFiring{Op: codec.OpStartFiring, Code: codec.EventStartFiringNet, Dst: system, Target: target}.AppendTo(nil)
}

// StopFiring returns the StopFiring 0x08 that ends a weapon system's fire.
func StopFiring(system int32) []byte {
	return codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet, Dst: system}.AppendTo(nil)
}

// PulseFire returns the PulseFire 0x1A of one bolt from the cannon at
// target along dir (world space), fired by player (opcodes.md 3.6).
func PulseFire(cannon, target int32, dir [3]float32, player uint8) []byte {
	d := unit(dir, [3]float32{0, 1, 0})
	return codec.PulseFire{CannonID: cannon, FiringPlayer: player, Dir: codec.NewDir3(d[0], d[1], d[2]),
		Flags: codec.PulseArg | codec.PulseHasTarget, Target: target}.AppendTo(nil)
}

// TorpedoFire returns the TorpedoFire 0x19 of one torpedo from the tube at
// target along dir (world space), aimed at the target's centre, fired by
// player (opcodes.md 3.5).
func TorpedoFire(tube, target int32, dir [3]float32, player uint8) []byte {
	d := unit(dir, [3]float32{0, 1, 0})
	return codec.TorpedoFire{TubeID: tube, FiringPlayer: player, Flags: codec.TorpedoArg, Dir: codec.NewDir3(d[0], d[1], d[2]),
		Target: target}.AppendTo(nil)
}

// WeaponSystem returns the id offset (object id = ship id + offset) of the
// class's first weapon system of kind w (ship.json weapon_systems).
func WeaponSystem(reg *ships.Registry, species int, w ships.Weapon) (int, error) {
	c, ok := reg.Class(species)
	if !ok {
		return 0, errors.New("unknown species")
	}
	for _, ws := range c.WeaponSystems {
		if ws.Weapon == w {
			return ws.IDOffset, nil
		}
	}
	return 0, errors.New(c.Name + " has no " + w.SystemType().String())
}

// Weapons returns the id offsets of the weapons of the class's first
// weapon system of kind w, in creation order.
func Weapons(reg *ships.Registry, species int, w ships.Weapon) ([]int, error) {
	c, ok := reg.Class(species)
	if !ok {
		return nil, errors.New("unknown species")
	}
	for _, ws := range c.WeaponSystems {
		if ws.Weapon != w {
			continue
		}
		var out []int
		for _, m := range ws.Members {
			out = append(out, c.Subsystems[m].IDOffset)
		}
		return out, nil
	}
	return nil, errors.New(c.Name + " has no " + w.SystemType().String())
}

// Ram returns the collision report a client sends when its ship victim is
// hit by rammer coming from dir (victim-relative, the side it was hit on),
// with the force of a stock ramming (the captured Sovereign collision).
func Ram(rammer, victim int32, dir [3]float32) []byte {
	d := unit(dir, [3]float32{0, -1, 0})
	contact := codec.CollisionContact{Dir: codec.NewDir3(d[0], d[1], d[2]), Dist: 216}
	return codec.CollisionEffect{Code: codec.EventObjectCollision, Src: rammer, Target: victim,
		Contacts: codec.AppendContact(nil, contact), Force: 700}.AppendTo(nil)
}

// SelfDestruct is the client's self-destruct request (the host message
// 0x13 with no body).
func SelfDestruct() []byte { return []byte{codec.OpHostMsg} }

// PhasersAhead returns the id offsets of every phaser bank of the class
// whose firing arc contains straight ahead: the banks a ship pointed at
// its target fires together.
func PhasersAhead(reg *ships.Registry, species int) ([]int, error) {
	c, ok := reg.Class(species)
	if !ok {
		return nil, errors.New("unknown species")
	}
	var out []int
	for _, s := range c.Subsystems {
		d := s.Data
		if s.Type() != ships.TypePhaser || d == nil {
			continue
		}
		// Straight ahead (0, 1, 0) in the bank's frame: forward f, up u,
		// right f x u.
		f, u := d.Forward, d.Up
		r := [3]float32{f[1]*u[2] - f[2]*u[1], f[2]*u[0] - f[0]*u[2], f[0]*u[1] - f[1]*u[0]}
		az := math.Atan2(float64(r[1]), float64(f[1]))
		el := math.Asin(math.Max(-1, math.Min(1, float64(u[1]))))
		in := func(x float64, lim [2]float32) bool {
			return x >= float64(min(lim[0], lim[1])) && x <= float64(max(lim[0], lim[1]))
		}
		if in(az, d.ArcWidth) && in(el, d.ArcHeight) {
			out = append(out, s.IDOffset)
		}
	}
	if len(out) == 0 {
		return nil, errors.New(c.Name + " has no phaser firing ahead")
	}
	return out, nil
}

// frame returns the unit forward along forward and the up vector Move
// gives a ship facing it: +Z, or +X for a nose near the vertical, made
// perpendicular to forward.
func frame(forward [3]float32) (f, up [3]float32) {
	f = unit(forward, [3]float32{0, 1, 0})
	up = [3]float32{0, 0, 1}
	if math.Abs(float64(f[2])) > 0.9 {
		up = [3]float32{1, 0, 0}
	}
	// Make up perpendicular to forward (Gram-Schmidt).
	d := f[0]*up[0] + f[1]*up[1] + f[2]*up[2]
	up = unit([3]float32{up[0] - d*f[0], up[1] - d*f[1], up[2] - d*f[2]}, [3]float32{0, 0, 1})
	return f, up
}

func unit(v, fallback [3]float32) [3]float32 {
	n := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if n < 1e-6 {
		return fallback
	}
	return [3]float32{v[0] / n, v[1] / n, v[2] / n}
}
