package lua

import (
	"errors"
	"fmt"
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// Host ships: bc.create_ship makes one, its handle's orders fly and fight
// it. Every order is a plain call into the world, O(1) or bounded by the
// ship's weapon list; creating a ship is charged to the mission's budget
// and its ObjCreate to the mission's per-player send quota, and the number
// of host ships is capped (Limits.MaxShips) so a mission cannot exhaust the
// server. While a version loads, creations and orders are staged with its
// other effects and happen only if it loads.

// shipAPI adds the ship functions to bc.
func (m *mission) shipAPI(fn func(string, glua.LGFunction)) {
	eng := m.h.eng
	fn("create_ship", m.createShip)
	fn("ship", func(L *glua.LState) int {
		id := checkIntArg(L, 1, "object id", math.MinInt32, math.MaxInt32)
		if o := eng.World().Object(int32(id)); o != nil && o.IsShip() {
			L.Push(m.handle(o))
		} else {
			L.Push(glua.LNil)
		}
		return 1
	})
	fn("ships", func(L *glua.LState) int {
		os := eng.World().Objects()
		m.meter.Charge(L, int64(len(os)*4))
		t := L.CreateTable(len(os), 0)
		for _, o := range os {
			if o.IsShip() && o.Alive() {
				t.Append(m.handle(o))
			}
		}
		L.Push(t)
		return 1
	})
	fn("ship_class", func(L *glua.LState) int {
		c := m.checkClass(L, 1, "bc.ship_class")
		L.Push(classTable(L, c))
		return 1
	})
	fn("ship_classes", func(L *glua.LState) int {
		reg := eng.World().Ships()
		if reg == nil {
			L.Push(L.NewTable())
			return 1
		}
		cs := reg.Classes()
		m.meter.Charge(L, int64(len(cs)*16))
		t := L.CreateTable(len(cs), 0)
		for _, c := range cs {
			t.Append(classTable(L, c))
		}
		L.Push(t)
		return 1
	})
	fn("location_free", func(L *glua.LState) int {
		p := checkVec(L, 1, "location")
		r := float32(L.CheckNumber(2))
		if !(r >= 0) || r > 1e6 {
			L.ArgError(2, "radius: want 0..1e6 world units")
		}
		m.meter.Charge(L, int64(len(eng.World().Objects())))
		L.Push(glua.LBool(eng.World().LocationFree(p, r)))
		return 1
	})
	fn("random", m.random)
}

// checkClass reads a class name (any case) or species index as argument
// n of fn; an unknown one is an error that lists the classes there are.
func (m *mission) checkClass(L *glua.LState, n int, fn string) *ships.Class {
	c, err := m.findClass(L, L.Get(n))
	if err != nil {
		L.RaiseError("%s: %v", fn, err)
	}
	return c
}

// findClass resolves a class name (any case) or species index.
func (m *mission) findClass(_ *glua.LState, v glua.LValue) (*ships.Class, error) {
	return findClass(m.h.eng.World().Ships(), v)
}

// findClass resolves a class name (any case) or species index in reg.
func findClass(reg *ships.Registry, v glua.LValue) (*ships.Class, error) {
	if reg == nil {
		return nil, errors.New("the server has no ship data")
	}
	switch v := v.(type) {
	case glua.LNumber:
		if f := float64(v); f == math.Trunc(f) && f >= 0 && f <= 255 {
			if c, ok := reg.Class(int(f)); ok {
				return c, nil
			}
		}
		return nil, fmt.Errorf("no ship class with species index %v (%s)", v, classList(reg, ""))
	case glua.LString:
		if c, ok := reg.ClassByName(string(v)); ok {
			return c, nil
		}
		for _, c := range reg.Classes() {
			if strings.EqualFold(c.Name, string(v)) {
				return c, nil
			}
		}
		return nil, fmt.Errorf("no ship class %q (%s)", string(v), classList(reg, string(v)))
	}
	return nil, fmt.Errorf("want a class name or a species index, got a %s value (%s)", v.Type(), classList(reg, ""))
}

// classList names the classes there are, those whose name contains near
// first ("did you mean"), for an error about an unknown class.
func classList(reg *ships.Registry, near string) string {
	var like, all []string
	for _, c := range reg.Classes() {
		all = append(all, c.Name)
		if near != "" && strings.Contains(strings.ToLower(c.Name), strings.ToLower(near)) {
			like = append(like, c.Name)
		}
	}
	out := "the classes are " + strings.Join(all, ", ") + "; bc.ship_classes() lists them"
	if len(like) > 0 {
		out = "did you mean " + strings.Join(like, " or ") + "? " + out
	}
	return out
}

// classTable describes a ship class.
func classTable(L *glua.LState, c *ships.Class) *glua.LTable {
	t := L.CreateTable(0, 14)
	t.RawSetString("name", glua.LString(c.Name))
	t.RawSetString("species", glua.LNumber(c.SpeciesID))
	t.RawSetString("flyable", glua.LBool(Flyable(c.SpeciesID)))
	t.RawSetString("faction", glua.LString(c.Faction))
	t.RawSetString("radius", glua.LNumber(world.BoundingRadius(c)))
	t.RawSetString("hull", glua.LNumber(c.Subsystems[c.Hull].MaxCondition))
	t.RawSetString("mass", glua.LNumber(c.Mass))
	t.RawSetString("max_speed", glua.LNumber(c.MaxSpeed))
	t.RawSetString("max_accel", glua.LNumber(c.MaxAccel))
	t.RawSetString("max_turn", glua.LNumber(c.MaxAngularVelocity))
	t.RawSetString("stationary", glua.LBool(c.Stationary))
	t.RawSetString("phasers", glua.LNumber(c.PhaserBanks))
	t.RawSetString("torpedo_tubes", glua.LNumber(c.TorpedoTubes))
	t.RawSetString("pulse_weapons", glua.LNumber(c.PulseWeapons))
	return t
}

// random is bc.random([m [, n]]), math.random's contract on the mission's
// own generator (seeded per game; Options.Seed makes it repeatable).
func (m *mission) random(L *glua.LState) int {
	r := m.h.rng
	switch L.GetTop() {
	case 0:
		L.Push(glua.LNumber(r.Float64()))
	case 1:
		hi := checkIntArg(L, 1, "upper bound", 1, 1<<53)
		L.Push(glua.LNumber(1 + r.Int64N(hi)))
	default:
		lo := checkIntArg(L, 1, "lower bound", -(1 << 53), 1<<53)
		hi := checkIntArg(L, 2, "upper bound", -(1 << 53), 1<<53)
		if hi < lo {
			L.ArgError(2, "interval is empty")
		}
		L.Push(glua.LNumber(lo + r.Int64N(hi-lo+1)))
	}
	return 1
}

// createShip is bc.create_ship{class=, name=, team=, position=,
// orientation=, collisions=}.
func (m *mission) createShip(L *glua.LState) int {
	eng := m.h.eng
	t := L.CheckTable(1)
	c, err := m.findClass(L, t.RawGetString("class"))
	if err != nil {
		L.RaiseError("bc.create_ship: class: %v", err)
	}
	spec := engine.HostShipSpec{Species: c.SpeciesID, Name: c.Name, Set: eng.Mission().System, Team: -1}
	if v, ok := t.RawGetString("name").(glua.LString); ok {
		if len(v) == 0 || len(v) > maxShipName {
			L.ArgError(1, fmt.Sprintf("name: want 1..%d bytes", maxShipName))
		}
		spec.Name = string(engine.Name8(string(v)))
	}
	switch v := t.RawGetString("team").(type) {
	case glua.LNumber:
		if v < 0 || v > 255 || v != glua.LNumber(math.Trunc(float64(v))) {
			L.ArgError(1, "team: want an integer 0..255")
		}
		spec.Team = int(v)
	case *glua.LNilType:
	default:
		L.ArgError(1, "team: want a number")
	}
	if v, ok := t.RawGetString("position").(*glua.LTable); ok {
		spec.Position = tableVec(L, 1, v, "position")
	}
	if v, ok := t.RawGetString("orientation").(*glua.LTable); ok {
		for i := range spec.Orientation {
			f, ok := v.RawGetInt(i + 1).(glua.LNumber)
			if !ok || math.IsNaN(float64(f)) || math.Abs(float64(f)) > 1e6 {
				L.ArgError(1, "orientation: want a quaternion {w, x, y, z}")
			}
			spec.Orientation[i] = float32(f)
		}
	}
	spec.NoCollisionDamage = t.RawGetString("collisions") == glua.LFalse
	if n := eng.World().HostShips() + m.pendingShips; n >= m.h.opts.MaxShips {
		L.RaiseError("bc.create_ship: the mission has %d host ships, the limit (lua.max_ships)", n)
	}
	m.meter.Charge(L, 256)
	o, err := eng.World().PrepareHostShip(spec, m.slotTaken)
	if err != nil {
		L.RaiseError("bc.create_ship: %v", err)
	}
	m.allow(L, "bc.create_ship", o.Create, m.inGame(nil, -1)...)
	if m.building {
		m.effect(func() {
			m.pendingShips--
			if err := eng.World().AddHostShip(eng.Now(), o); err != nil {
				m.h.reportError(MissionError{Version: m.version, Kind: ErrFailed, Callback: "bc.create_ship", Err: err.Error()}, slogError, false, "host ship not created", "err", err)
			}
		})
		m.pendingShips++ // after effect, which may refuse
	} else if err := eng.World().AddHostShip(eng.Now(), o); err != nil {
		L.RaiseError("bc.create_ship: %v", err)
	}
	L.Push(m.handle(o))
	return 1
}

// shipControls are the orders a host ship takes through its handle. Each
// returns true when the order was taken, false when the ship is gone or
// destroyed (or has no weapon of the group); giving orders to a player's
// ship is an error.
func (m *mission) shipControls() map[string]glua.LGFunction {
	w := func() *world.World { return m.h.eng.World() }
	return map[string]glua.LGFunction{
		"move_to": func(L *glua.LState) int {
			o := m.hostShip(L, "move_to")
			point, target, ok := m.pointOrObject(L, 2, "move_to")
			if !ok {
				L.Push(glua.LFalse)
				return 1
			}
			speed := float32(L.OptNumber(3, 0))
			arrival := float32(L.OptNumber(4, 0))
			return m.order(L, func() error { return w().MoveTo(o, point, target, speed, arrival) })
		},
		"face": func(L *glua.LState) int {
			o := m.hostShip(L, "face")
			point, target, ok := m.pointOrObject(L, 2, "face")
			if !ok {
				L.Push(glua.LFalse)
				return 1
			}
			return m.order(L, func() error { return w().Face(o, point, true, target) })
		},
		"set_heading": func(L *glua.LState) int {
			o := m.hostShip(L, "set_heading")
			dir := checkVec(L, 2, "heading")
			return m.order(L, func() error { return w().Face(o, dir, false, nil) })
		},
		"set_speed": func(L *glua.LState) int {
			o := m.hostShip(L, "set_speed")
			v := L.CheckNumber(2)
			if math.IsNaN(float64(v)) {
				L.ArgError(2, "speed: want a number")
			}
			return m.order(L, func() error { return w().SetSpeed(o, float32(v)) })
		},
		"stop": func(L *glua.LState) int {
			o := m.hostShip(L, "stop")
			return m.order(L, func() error { return w().Stop(o) })
		},
		"fire_at": func(L *glua.LState) int {
			o := m.hostShip(L, "fire_at")
			target, _ := m.optObject(L, 2)
			if target == nil {
				L.Push(glua.LFalse)
				return 1
			}
			group := m.optGroup(L, 3)
			return m.order(L, func() error { return w().FireAt(o, target, group) })
		},
		"stop_firing": func(L *glua.LState) int {
			o := m.hostShip(L, "stop_firing")
			group := m.optGroup(L, 2)
			return m.order(L, func() error { return w().StopFiring(o, group) })
		},
		"set_single_fire": func(L *glua.LState) int {
			o := m.hostShip(L, "set_single_fire")
			on := L.ToBool(2)
			group := m.optGroup(L, 3)
			return m.order(L, func() error { return w().SetSingleFire(o, group, on) })
		},
		"destroy": func(L *glua.LState) int {
			o := m.hostShip(L, "destroy")
			return m.order(L, func() error {
				if !o.Alive() || m.h.eng.World().Object(o.ID) != o {
					return world.ErrNotHostShip
				}
				m.h.eng.World().DestroyHostShip(m.h.eng.Now(), o)
				return nil
			})
		},
		"remove": func(L *glua.LState) int {
			o := m.hostShip(L, "remove")
			return m.order(L, func() error {
				if m.h.eng.World().Object(o.ID) != o {
					return world.ErrNotHostShip
				}
				m.h.eng.World().RemoveHostShip(m.h.eng.Now(), o)
				return nil
			})
		},
	}
}

// pointOrObject reads an order's goal: a handle or object id (target),
// or a position {x, y, z} (point). ok is false for an id or handle of an
// object that is gone: the order is not taken.
func (m *mission) pointOrObject(L *glua.LState, n int, what string) (point [3]float32, target *engine.Object, ok bool) {
	target, isObj := m.optObject(L, n)
	if !isObj {
		return checkVec(L, n, what), nil, true
	}
	return point, target, target != nil
}

// hostShip reads the handle an order is given to: only host ships take
// orders.
func (m *mission) hostShip(L *glua.LState, order string) *engine.Object {
	o := m.checkShip(L, 1)
	if !o.HostOwned() {
		L.RaiseError("ship:%s: ship 0x%08X is not a host ship (only ships made with bc.create_ship take orders)", order, uint32(o.ID))
	}
	return o
}

// order runs an order now, or stages it while the version loads; it
// pushes whether the order was taken.
func (m *mission) order(L *glua.LState, fn func() error) int {
	if m.building {
		m.effect(func() { _ = fn() })
		L.Push(glua.LTrue)
		return 1
	}
	err := fn()
	if err != nil && !errors.Is(err, world.ErrNotHostShip) && !errors.Is(err, world.ErrNoWeapons) {
		L.RaiseError("%v", err)
	}
	L.Push(glua.LBool(err == nil))
	return 1
}

// slotTaken reports whether a connected player holds slot: a host ship
// needs a slot no player has (opcodes.md 6).
func (m *mission) slotTaken(slot int) bool {
	for _, p := range m.h.eng.Players() {
		if p.Slot == slot {
			return true
		}
	}
	return false
}
