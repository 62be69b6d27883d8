package lua

import (
	"fmt"
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
)

// Ships as missions see them: handles (userdata) on the engine's objects,
// for player ships and host ships alike. A handle reads the object's
// current state each time (position, hull, subsystems); its identity
// fields (id, name, species, owner) never change. Host ships take orders
// through it (ships_control.go). A handle outlives its object safely:
// alive() turns false and orders are refused.

// DefaultMaxShips is the default of Limits.MaxShips.
const DefaultMaxShips = 64

// maxShipName bounds a host ship's name (the stock ObjCreate allows 255;
// clients show it on the target display).
const maxShipName = 64

// shipMeta builds the metatable every handle of this state shares.
func (m *mission) shipMeta() *glua.LTable {
	L := m.L
	mt := L.NewTable()
	m.shipMethods = make(map[string]*glua.LFunction)
	for name, fn := range m.shipMethodTable() {
		m.shipMethods[name] = L.NewFunction(fn)
	}
	mt.RawSetString("__index", L.NewFunction(m.shipIndex))
	mt.RawSetString("__newindex", L.NewFunction(func(L *glua.LState) int {
		L.RaiseError("ship handles are read-only (store what you need in bc.storage, keyed by ship.id)")
		return 0
	}))
	mt.RawSetString("__eq", L.NewFunction(func(L *glua.LState) int {
		a, _ := L.Get(1).(*glua.LUserData)
		b, _ := L.Get(2).(*glua.LUserData)
		L.Push(glua.LBool(a != nil && b != nil && a.Value == b.Value))
		return 1
	}))
	mt.RawSetString("__tostring", L.NewFunction(func(L *glua.LState) int {
		o := m.checkShip(L, 1)
		L.Push(glua.LString(fmt.Sprintf("ship 0x%08X %q", uint32(o.ID), o.Name)))
		return 1
	}))
	mt.RawSetString("__metatable", glua.LString("bc.ship"))
	return mt
}

// handle returns a handle on o (nil for none).
func (m *mission) handle(o *engine.Object) glua.LValue {
	if o == nil {
		return glua.LNil
	}
	ud := m.L.NewUserData()
	ud.Value = o
	ud.Metatable = m.shipMT
	return ud
}

// checkShip reads a handle argument.
func (m *mission) checkShip(L *glua.LState, n int) *engine.Object {
	if ud, ok := L.Get(n).(*glua.LUserData); ok && ud.Metatable == m.shipMT {
		if o, ok := ud.Value.(*engine.Object); ok {
			return o
		}
	}
	L.ArgError(n, "want a ship handle")
	return nil
}

// optObject reads a handle or an object id; nil when the id names nothing.
func (m *mission) optObject(L *glua.LState, n int) (*engine.Object, bool) {
	switch L.Get(n).(type) {
	case *glua.LUserData:
		return m.checkShip(L, n), true
	case glua.LNumber:
		return m.h.eng.World().Object(int32(checkIntArg(L, n, "object id", math.MinInt32, math.MaxInt32))), true
	}
	return nil, false
}

// shipIndex is __index: identity fields, then methods.
func (m *mission) shipIndex(L *glua.LState) int {
	o := m.checkShip(L, 1)
	key := L.CheckString(2)
	if f := m.shipMethods[key]; f != nil {
		L.Push(f)
		return 1
	}
	var v glua.LValue = glua.LNil
	switch key {
	case "id":
		v = glua.LNumber(o.ID)
	case "name":
		v = glua.LString(o.Name)
	case "species":
		v = glua.LNumber(o.Species)
	case "class":
		v = glua.LNumber(speciesClass(o.Species))
	case "class_name":
		if o.Model != nil {
			v = glua.LString(o.Model.Class().Name)
		}
	case "owner_id":
		v = glua.LNumber(o.OwnerID())
	case "owner_slot":
		v = glua.LNumber(o.OwnerSlot)
	case "team":
		if t := o.Team(); t >= 0 {
			v = glua.LNumber(t)
		}
	case "set":
		v = glua.LString(o.Set)
	case "is_ship":
		v = glua.LBool(o.IsShip())
	case "is_player_ship":
		v = glua.LBool(o.IsPlayerShip())
	case "is_torpedo":
		v = glua.LBool(o.ClassID == codec.ClassTorpedo)
	case "is_host":
		v = glua.LBool(o.HostOwned())
	}
	L.Push(v)
	return 1
}

// vecTable is a vector as {x, y, z}.
func vecTable(L *glua.LState, v [3]float32) *glua.LTable {
	t := L.CreateTable(3, 0)
	for _, f := range v {
		t.Append(glua.LNumber(f))
	}
	return t
}

// checkVec reads {x, y, z} (or {x=, y=, z=}) in world units.
func checkVec(L *glua.LState, n int, what string) [3]float32 {
	t, ok := L.Get(n).(*glua.LTable)
	if !ok {
		L.ArgError(n, what+": want {x, y, z}")
	}
	return tableVec(L, n, t, what)
}

func tableVec(L *glua.LState, n int, t *glua.LTable, what string) [3]float32 {
	var out [3]float32
	for i, k := range []string{"x", "y", "z"} {
		v := t.RawGetInt(i + 1)
		if v == glua.LNil {
			v = t.RawGetString(k)
		}
		f, ok := v.(glua.LNumber)
		if !ok || math.IsNaN(float64(f)) || math.Abs(float64(f)) > 1e6 {
			L.ArgError(n, what+": want {x, y, z}, each a number within ±1e6")
		}
		out[i] = float32(f)
	}
	return out
}

// shipMethodTable lists the handle's methods: reading (here) and the host
// ship controls (ships_control.go).
func (m *mission) shipMethodTable() map[string]glua.LGFunction {
	t := map[string]glua.LGFunction{
		"alive": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			L.Push(glua.LBool(m.h.eng.World().Object(o.ID) == o && o.Alive()))
			return 1
		},
		"position": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			if p, ok := o.Position(); ok {
				L.Push(vecTable(L, p))
			} else {
				L.Push(glua.LNil)
			}
			return 1
		},
		"velocity": func(L *glua.LState) int {
			L.Push(vecTable(L, m.checkShip(L, 1).Velocity()))
			return 1
		},
		"speed": func(L *glua.LState) int {
			L.Push(glua.LNumber(m.checkShip(L, 1).Speed()))
			return 1
		},
		"forward": func(L *glua.LState) int { return m.axis(L, true) },
		"up":      func(L *glua.LState) int { return m.axis(L, false) },
		"hull": func(L *glua.LState) int {
			if f, ok := m.checkShip(L, 1).HullFraction(); ok {
				L.Push(glua.LNumber(f))
			} else {
				L.Push(glua.LNil)
			}
			return 1
		},
		"shields":    m.shields,
		"subsystems": m.subsystems,
		"subsystem":  m.subsystem,
		"distance": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			var to [3]float32
			if other, ok := m.optObject(L, 2); ok {
				if other == nil {
					L.Push(glua.LNil)
					return 1
				}
				to, _ = other.Position()
			} else {
				to = checkVec(L, 2, "distance to")
			}
			p, _ := o.Position()
			d := [3]float64{float64(to[0] - p[0]), float64(to[1] - p[1]), float64(to[2] - p[2])}
			L.Push(glua.LNumber(math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])))
			return 1
		},
		"cloaked": func(L *glua.LState) int {
			L.Push(glua.LBool(m.checkShip(L, 1).Cloaked()))
			return 1
		},
		"radius": func(L *glua.LState) int {
			L.Push(glua.LNumber(m.checkShip(L, 1).Radius()))
			return 1
		},
		"targets": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			ids := o.Targets(m.optGroup(L, 2))
			t := L.CreateTable(len(ids), 0)
			for _, id := range ids {
				t.Append(glua.LNumber(id))
			}
			L.Push(t)
			return 1
		},
	}
	for k, v := range m.shipControls() {
		t[k] = v
	}
	for k, v := range m.modifierMethods() {
		t[k] = v
	}
	for k, v := range m.damageMethods() {
		t[k] = v
	}
	return t
}

func (m *mission) axis(L *glua.LState, fwd bool) int {
	f, u, ok := m.checkShip(L, 1).Forward()
	switch {
	case !ok:
		L.Push(glua.LNil)
	case fwd:
		L.Push(vecTable(L, f))
	default:
		L.Push(vecTable(L, u))
	}
	return 1
}

var facingNames = [6]string{"front", "rear", "top", "bottom", "left", "right"}

// shields returns each facing's charge as a fraction of its maximum (0 for
// a facing without one).
func (m *mission) shields(L *glua.LState) int {
	o := m.checkShip(L, 1)
	if o.Model == nil {
		L.Push(glua.LNil)
		return 1
	}
	c := o.Model.Class()
	s := o.Shields()
	t := L.CreateTable(0, 6)
	for i, name := range facingNames {
		f := 0.0
		if i < len(c.ShieldHP) && c.ShieldHP[i] > 0 {
			f = float64(s[i] / c.ShieldHP[i])
		}
		t.RawSetString(name, glua.LNumber(f))
	}
	L.Push(t)
	return 1
}

// subsystemTable describes subsystem i of a ship.
func subsystemTable(L *glua.LState, s *ships.Ship, i int) *glua.LTable {
	sub := &s.Class().Subsystems[i]
	t := L.CreateTable(0, 8)
	t.RawSetString("name", glua.LString(sub.Name))
	typ := sub.Type().String()
	if sub.Type() == ships.NoType {
		typ = s.Class().Entries[sub.Entry].Tail.String()
	}
	t.RawSetString("type", glua.LString(typ))
	t.RawSetString("id", glua.LNumber(s.SubsystemID(i)))
	t.RawSetString("condition", glua.LNumber(s.ConditionFraction(i)))
	t.RawSetString("hit_points", glua.LNumber(s.Condition(i)))
	t.RawSetString("max_hit_points", glua.LNumber(sub.MaxCondition))
	t.RawSetString("disabled", glua.LBool(world.SubsystemDisabled(s, i)))
	t.RawSetString("critical", glua.LBool(sub.Data != nil && sub.Data.IsCritical))
	if sub.Child >= 0 {
		parent := s.Class().Entries[sub.Entry].Subsystem
		t.RawSetString("parent", glua.LString(s.Class().Subsystems[parent].Name))
	}
	return t
}

// subsystems lists every subsystem in wire order (each system, then its
// banks or tubes).
func (m *mission) subsystems(L *glua.LState) int {
	o := m.checkShip(L, 1)
	if o.Model == nil {
		L.Push(glua.LNil)
		return 1
	}
	n := len(o.Model.Class().Subsystems)
	m.meter.Charge(L, int64(n*16))
	t := L.CreateTable(n, 0)
	for i := range n {
		t.Append(subsystemTable(L, o.Model, i))
	}
	L.Push(t)
	return 1
}

// subsystem finds one subsystem by name (case-insensitive) or type.
func (m *mission) subsystem(L *glua.LState) int {
	o := m.checkShip(L, 1)
	key := L.CheckString(2)
	if o.Model == nil {
		L.Push(glua.LNil)
		return 1
	}
	c := o.Model.Class()
	if i, ok := c.SubsystemIndex(key); ok {
		L.Push(subsystemTable(L, o.Model, i))
		return 1
	}
	for i := range c.Subsystems {
		if strings.EqualFold(c.Subsystems[i].Name, key) || c.Subsystems[i].Type().String() == key {
			L.Push(subsystemTable(L, o.Model, i))
			return 1
		}
	}
	L.Push(glua.LNil)
	return 1
}

// optGroup reads an optional weapon group name.
func (m *mission) optGroup(L *glua.LState, n int) string {
	if L.Get(n) == glua.LNil {
		return ""
	}
	g := L.CheckString(n)
	if world.IsGroup(g) {
		return g
	}
	L.ArgError(n, fmt.Sprintf("weapon group %q: want one of %s (or nothing for every weapon)", g, strings.Join(world.Groups(), ", ")))
	return ""
}
