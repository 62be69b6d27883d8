package missiontest

import (
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
)

// The test's view of the game's ships, as the server models them: host
// ships (a mission's AI ships, the Mission5 starbase) included.

// shipRow describes a ship for a test.
func shipRow(L *glua.LState, o *engine.Object) *glua.LTable {
	t := L.CreateTable(0, 10)
	t.RawSetString("id", glua.LNumber(o.ID))
	t.RawSetString("name", glua.LString(o.Name))
	t.RawSetString("species", glua.LNumber(o.Species))
	t.RawSetString("owner", glua.LNumber(o.OwnerID()))
	if tm := o.Team(); tm >= 0 {
		t.RawSetString("team", glua.LNumber(tm))
	}
	t.RawSetString("host", glua.LBool(o.HostOwned()))
	t.RawSetString("alive", glua.LBool(o.Alive()))
	if p, ok := o.Position(); ok {
		t.RawSetString("position", vecTable(L, p))
	}
	if f, _, ok := o.Forward(); ok {
		t.RawSetString("forward", vecTable(L, f))
	}
	if h, ok := o.HullFraction(); ok {
		t.RawSetString("hull", glua.LNumber(h))
	}
	return t
}

func vecTable(L *glua.LState, v [3]float32) *glua.LTable {
	t := L.CreateTable(3, 0)
	for _, f := range v {
		t.Append(glua.LNumber(f))
	}
	return t
}

// shipFuncs adds g:ships(), g:ship(id) and g:set_condition(id, name, f).
func shipFuncs(L *glua.LState, w *Match, fn func(string, glua.LGFunction)) {
	fn("ships", func(L *glua.LState) int {
		t := L.NewTable()
		for _, o := range w.Game.Objects() {
			if o.IsShip() {
				t.Append(shipRow(L, o))
			}
		}
		L.Push(t)
		return 1
	})
	fn("ship", func(L *glua.LState) int {
		o := w.Game.Object(objectID(L, w, 2))
		if o == nil || !o.IsShip() {
			L.Push(glua.LNil)
			return 1
		}
		L.Push(shipRow(L, o))
		return 1
	})
	// set_condition(id, subsystem, fraction) damages or repairs a
	// subsystem by hand (a test of what the AI does with it).
	fn("set_condition", func(L *glua.LState) int {
		o := w.Game.Object(objectID(L, w, 2))
		name := L.CheckString(3)
		f := float32(L.CheckNumber(4))
		if o == nil || o.Model == nil {
			L.ArgError(2, "no modelled ship with that id")
		}
		c := o.Model.Class()
		for i := range c.Subsystems {
			if strings.EqualFold(c.Subsystems[i].Name, name) {
				o.Model.SetCondition(i, f*c.Subsystems[i].MaxCondition)
				return 0
			}
		}
		L.ArgError(3, "no subsystem "+name)
		return 0
	})
}
