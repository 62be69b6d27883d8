package lua

import (
	"fmt"
	"math"
	"sort"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/world"
)

// Damage and durability modifiers in Lua (custom rulesets): bc.set_modifiers
// gives the world factors by class and by team, ship:set_modifiers one
// ship's own; the host's model multiplies them in (engine/world
// modifiers.go), so every client sees the result in the host's health
// updates. While a version loads, the settings are staged with its other
// effects.

// modifierKeys are the factors a modifiers table may hold, in the order
// the docs list them.
var modifierKeys = []struct {
	name string
	ptr  func(*world.Modifiers) *float32
}{
	{"damage_dealt", func(m *world.Modifiers) *float32 { return &m.DamageDealt }},
	{"shield_damage", func(m *world.Modifiers) *float32 { return &m.ShieldDamage }},
	{"hull_damage", func(m *world.Modifiers) *float32 { return &m.HullDamage }},
	{"subsystem_damage", func(m *world.Modifiers) *float32 { return &m.SubsystemDamage }},
	{"collision_damage", func(m *world.Modifiers) *float32 { return &m.CollisionDamage }},
	{"shield_recharge", func(m *world.Modifiers) *float32 { return &m.ShieldRecharge }},
	{"repair_rate", func(m *world.Modifiers) *float32 { return &m.RepairRate }},
}

// maxFactor bounds one factor: enough for any ruleset, far from float
// overflow when classes, teams and ships multiply.
const maxFactor = 1000

func (m *mission) modifiersAPI(fn func(string, glua.LGFunction)) {
	fn("set_modifiers", m.setModifiers)
	fn("modifiers", func(L *glua.LState) int {
		r := m.h.eng.World().ModifierRules()
		t := L.CreateTable(0, 2)
		if len(r.Classes) > 0 {
			classes := L.CreateTable(0, len(r.Classes))
			reg := m.h.eng.World().Ships()
			for _, s := range sortedKeys(r.Classes) {
				key := glua.LValue(glua.LNumber(s))
				if reg != nil {
					if c, ok := reg.Class(s); ok {
						key = glua.LString(c.Name)
					}
				}
				classes.RawSet(key, modifiersTable(L, r.Classes[s], false))
			}
			t.RawSetString("classes", classes)
		}
		if len(r.Teams) > 0 {
			teams := L.CreateTable(0, len(r.Teams))
			for _, k := range sortedKeys(r.Teams) {
				teams.RawSetInt(k, modifiersTable(L, r.Teams[k], false))
			}
			t.RawSetString("teams", teams)
		}
		L.Push(t)
		return 1
	})
}

// modifierMethods are the ship handle's modifier methods: set_modifiers
// (any ship, a player's too) and modifiers (the factors in force).
func (m *mission) modifierMethods() map[string]glua.LGFunction {
	return map[string]glua.LGFunction{
		"set_modifiers": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			var mods world.Modifiers
			if L.Get(2) != glua.LNil {
				mods = m.readModifiers(L, L.Get(2), "ship:set_modifiers")
			}
			m.effect(func() { o.SetModifiers(mods) })
			return 0
		},
		"modifiers": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			L.Push(modifiersTable(L, m.h.eng.World().Effective(o), true))
			return 1
		},
	}
}

// setModifiers is bc.set_modifiers{classes = {[class] = {...}},
// teams = {[team] = {...}}} or bc.set_modifiers(nil).
func (m *mission) setModifiers(L *glua.LState) int {
	w := m.h.eng.World()
	if L.Get(1) == glua.LNil {
		m.effect(func() { w.SetModifierRules(world.ModifierRules{}) })
		return 0
	}
	t := L.CheckTable(1)
	m.onlyFields(L, t, "bc.set_modifiers", "classes", "teams")
	var r world.ModifierRules
	switch v := t.RawGetString("classes").(type) {
	case *glua.LNilType:
	case *glua.LTable:
		r.Classes = make(map[int]world.Modifiers)
		m.eachEntry(L, v, "classes", func(k, mv glua.LValue) {
			c, err := m.findClass(L, k)
			if err != nil {
				L.RaiseError("bc.set_modifiers: classes[%s]: %v", keyString(k), err)
			}
			r.Classes[c.SpeciesID] = m.readModifiers(L, mv, fmt.Sprintf("bc.set_modifiers: classes[%s]", keyString(k)))
		})
	default:
		L.RaiseError("bc.set_modifiers: classes: want a table {[class] = {factors}}, got a %s value", v.Type())
	}
	switch v := t.RawGetString("teams").(type) {
	case *glua.LNilType:
	case *glua.LTable:
		r.Teams = make(map[int]world.Modifiers)
		m.eachEntry(L, v, "teams", func(k, mv glua.LValue) {
			f, ok := k.(glua.LNumber)
			if !ok || float64(f) != math.Trunc(float64(f)) || f < 0 || f > 255 {
				L.RaiseError("bc.set_modifiers: teams: key %s: want a team number 0..255", keyString(k))
			}
			r.Teams[int(f)] = m.readModifiers(L, mv, fmt.Sprintf("bc.set_modifiers: teams[%d]", int(f)))
		})
	default:
		L.RaiseError("bc.set_modifiers: teams: want a table {[team] = {factors}}, got a %s value", v.Type())
	}
	m.effect(func() { w.SetModifierRules(r) })
	return 0
}

// eachEntry walks a table of at most 256 entries (species and teams are
// one byte), charging the budget for each.
func (m *mission) eachEntry(L *glua.LState, t *glua.LTable, what string, fn func(k, v glua.LValue)) {
	n := 0
	t.ForEach(func(k, v glua.LValue) {
		if n++; n > 256 {
			L.RaiseError("bc.set_modifiers: %s: more than 256 entries", what)
		}
		m.meter.Charge(L, 8)
		fn(k, v)
	})
}

// readModifiers reads a table of factors: every key one of modifierKeys,
// every value a number from 0 to 1000. 0 turns the step off (world.None);
// a key left out stays 1.
func (m *mission) readModifiers(L *glua.LState, v glua.LValue, where string) world.Modifiers {
	t, ok := v.(*glua.LTable)
	if !ok {
		L.RaiseError("%s: want a table of factors (%s), got a %s value", where, modifierNames(), v.Type())
	}
	var mods world.Modifiers
	t.ForEach(func(k, fv glua.LValue) {
		ks, _ := k.(glua.LString)
		var ptr *float32
		for _, mk := range modifierKeys {
			if string(ks) == mk.name {
				ptr = mk.ptr(&mods)
			}
		}
		if ptr == nil {
			L.RaiseError("%s: unknown factor %s (want %s)", where, keyString(k), modifierNames())
		}
		f, ok := fv.(glua.LNumber)
		if !ok || math.IsNaN(float64(f)) || f < 0 || f > maxFactor {
			L.RaiseError("%s: %s: want a number from 0 to %d, got %s", where, ks, maxFactor, fv.String())
		}
		*ptr = float32(f)
		if f == 0 {
			*ptr = world.None
		}
	})
	return mods
}

// modifiersTable is a Modifiers as Lua sees it; with all, every factor
// (1 where unset), else only those set.
func modifiersTable(L *glua.LState, mods world.Modifiers, all bool) *glua.LTable {
	t := L.CreateTable(0, len(modifierKeys))
	for _, mk := range modifierKeys {
		f := *mk.ptr(&mods)
		switch {
		case f == 0 && !all:
			continue
		case f == 0:
			f = 1
		case f < 1e-30: // None, alone or times other factors
			f = 0
		}
		t.RawSetString(mk.name, glua.LNumber(f))
	}
	return t
}

func modifierNames() string {
	s := ""
	for i, mk := range modifierKeys {
		if i > 0 {
			s += ", "
		}
		s += mk.name
	}
	return s
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
