package bot

import (
	"errors"
	"math"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Messages a client sends to play: spawn a ship, fly it, fire, ram,
// self-destruct. bcbot and the mission test runner build them here so both
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
	f := unit(forward, [3]float32{0, 1, 0})
	up := [3]float32{0, 0, 1}
	if math.Abs(float64(f[2])) > 0.9 {
		up = [3]float32{1, 0, 0}
	}
	// Make up perpendicular to forward (Gram-Schmidt).
	d := f[0]*up[0] + f[1]*up[1] + f[2]*up[2]
	up = unit([3]float32{up[0] - d*f[0], up[1] - d*f[1], up[2] - d*f[2]}, [3]float32{0, 0, 1})
	return codec.StateUpdate{ObjectID: objectID, Flags: codec.StatePosition | codec.StateForward | codec.StateUp,
		Position: pos, Forward: codec.NewDir3(f[0], f[1], f[2]), Up: codec.NewDir3(up[0], up[1], up[2])}.AppendTo(nil)
}

// Beam returns a BeamFire from the phaser bank beamID at target along dir
// (world space).
func Beam(beamID, target int32, dir [3]float32) []byte {
	d := unit(dir, [3]float32{0, 1, 0})
	return codec.BeamFire{BeamID: beamID, Info: 2, Dir: codec.NewDir3(d[0], d[1], d[2]), Flags: codec.BeamArg | codec.BeamHasTarget, Target: target}.AppendTo(nil)
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

// ForwardPhaser returns the id offset (object id = ship id + offset) of a
// phaser bank of the class whose firing arc contains straight ahead.
func ForwardPhaser(reg *ships.Registry, species int) (int, error) {
	c, ok := reg.Class(species)
	if !ok {
		return 0, errors.New("unknown species")
	}
	in := func(lim [2]float32) bool { return min(lim[0], lim[1]) <= 0 && max(lim[0], lim[1]) >= 0 }
	for _, s := range c.Subsystems {
		if s.Type() == "phaser" && s.Data != nil && s.Data.Forward == [3]float32{0, 1, 0} && in(s.Data.ArcWidth) && in(s.Data.ArcHeight) {
			return s.IDOffset, nil
		}
	}
	return 0, errors.New(c.Name + " has no forward phaser")
}

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
		if s.Type() != "phaser" || d == nil {
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

func unit(v, fallback [3]float32) [3]float32 {
	n := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
	if n < 1e-6 {
		return fallback
	}
	return [3]float32{v[0] / n, v[1] / n, v[2] / n}
}
