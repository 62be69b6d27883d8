package lua

import (
	"fmt"
	"math"
	"sort"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
)

// Ship rules in Lua: bc.set_ship_rules hands the engine the classes
// players may fly (it enforces them, engine/shiprules.go), bc.ship_rules
// reads them back, bc.ship_allowed asks them; the ship_requested event
// (events.go) lets a handler veto a ship the rules allow.

// maxRuleClasses bounds one list of a rule: there are 256 species at most.
const maxRuleClasses = 256

func (m *mission) shipRulesAPI(fn func(string, glua.LGFunction)) {
	eng := m.h.eng
	fn("set_ship_rules", m.setShipRules)
	fn("ship_rules", func(L *glua.LState) int {
		r := eng.ShipRules()
		if r == nil {
			L.Push(glua.LNil)
			return 1
		}
		t := L.CreateTable(0, 2)
		if len(r.Classes) > 0 {
			t.RawSetString("classes", m.classNames(L, r.Classes))
		}
		if len(r.Teams) > 0 {
			teams := L.CreateTable(0, len(r.Teams))
			keys := make([]int, 0, len(r.Teams))
			for k := range r.Teams {
				keys = append(keys, k)
			}
			sort.Ints(keys)
			for _, k := range keys {
				teams.RawSetInt(k, m.classNames(L, r.Teams[k]))
			}
			t.RawSetString("teams", teams)
		}
		L.Push(t)
		return 1
	})
	fn("ship_allowed", func(L *glua.LState) int {
		p := m.checkPlayer(L, 1)
		c := m.checkClass(L, 2, "bc.ship_allowed")
		var ok bool
		var why string
		if p != nil {
			ok, why = eng.ShipAllowed(p, c.SpeciesID)
		} else {
			ok, why = eng.ShipRules().Check(eng.World().Ships(), -1, c.SpeciesID)
		}
		L.Push(glua.LBool(ok))
		if ok {
			return 1
		}
		L.Push(glua.LString(why))
		return 2
	})
}

// setShipRules is bc.set_ship_rules{classes = {...}, teams = {[t] = {...}}}
// or bc.set_ship_rules(nil).
func (m *mission) setShipRules(L *glua.LState) int {
	eng := m.h.eng
	if L.Get(1) == glua.LNil {
		m.effect(func() { eng.SetShipRules(nil) })
		return 0
	}
	t := L.CheckTable(1)
	m.onlyFields(L, t, "bc.set_ship_rules", "classes", "teams")
	r := &engine.ShipRules{}
	if v := t.RawGetString("classes"); v != glua.LNil {
		r.Classes = m.ruleClasses(L, v, "classes")
	}
	switch v := t.RawGetString("teams").(type) {
	case *glua.LNilType:
	case *glua.LTable:
		r.Teams = make(map[int][]int)
		var err error
		v.ForEach(func(k, list glua.LValue) {
			if err != nil {
				return
			}
			f, ok := k.(glua.LNumber)
			if !ok || float64(f) != math.Trunc(float64(f)) || f < 0 || f > 255 {
				err = fmt.Errorf("teams: key %s: want a team number 0..255", keyString(k))
				return
			}
			if len(r.Teams) >= maxRuleClasses {
				err = fmt.Errorf("teams: more than %d teams", maxRuleClasses)
				return
			}
			r.Teams[int(f)] = m.ruleClasses(L, list, fmt.Sprintf("teams[%d]", int(f)))
		})
		if err != nil {
			L.RaiseError("bc.set_ship_rules: %v", err)
		}
	default:
		L.RaiseError("bc.set_ship_rules: teams: want a table {[team] = {classes}}, got a %s value", v.Type())
	}
	m.effect(func() { eng.SetShipRules(r) })
	return 0
}

// ruleClasses reads one list of classes (names or species indexes).
func (m *mission) ruleClasses(L *glua.LState, v glua.LValue, what string) []int {
	t, ok := v.(*glua.LTable)
	if !ok {
		L.RaiseError("bc.set_ship_rules: %s: want a list of classes, got a %s value", what, v.Type())
	}
	n := t.Len()
	if n == 0 {
		L.RaiseError("bc.set_ship_rules: %s: an empty list allows no class at all; leave it out to allow any", what)
	}
	if n > maxRuleClasses {
		L.RaiseError("bc.set_ship_rules: %s: more than %d classes", what, maxRuleClasses)
	}
	m.meter.Charge(L, int64(n*4))
	out := make([]int, 0, n)
	for i := 1; i <= n; i++ {
		c, err := m.findClass(L, t.RawGetInt(i))
		if err != nil {
			L.RaiseError("bc.set_ship_rules: %s[%d]: %v", what, i, err)
		}
		out = append(out, c.SpeciesID)
	}
	return out
}

// classNames lists species as class names.
func (m *mission) classNames(L *glua.LState, list []int) *glua.LTable {
	reg := m.h.eng.World().Ships()
	t := L.CreateTable(len(list), 0)
	for _, s := range list {
		if reg != nil {
			if c, ok := reg.Class(s); ok {
				t.Append(glua.LString(c.Name))
				continue
			}
		}
		t.Append(glua.LNumber(s))
	}
	return t
}
