package lua

import (
	"errors"
	"fmt"
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
)

// Damage rules (docs/lua-api.md "Damage rules"): bc.set_damage_rule(fn)
// gives the mission one hook that sees every weapon hit before it lands
// and returns what it deals (more, less, nothing); ship:damage{...} and
// ship:set_condition(...) deal damage the mission decides, through the
// weapons' own steps (engine/world damagehook.go).
//
// The hook runs once per hit — a 16-player fire fight makes hundreds a
// second — so it is cheap: one argument table per version, refilled for
// each hit (a rule must not keep it), and the ship handles it holds
// reused while their ships live. It runs under the budgets like any
// handler: an error or a budget stop leaves that hit as the stock model
// made it, and counts toward suspension.

// damageRule is a version's damage hook.
type damageRule struct {
	fn      *glua.LFunction
	arg     *glua.LTable
	handles map[*engine.Object]*glua.LUserData
	// names holds the Lua strings of weapon kinds and subsystem names,
	// made once: a string handed to Lua is otherwise a new allocation.
	names map[string]glua.LValue
}

// maxRuleNames bounds damageRule.names (the classes' subsystem names).
const maxRuleNames = 2048

// name returns s as a Lua value, interned.
func (r *damageRule) name(s string) glua.LValue {
	if v, ok := r.names[s]; ok {
		return v
	}
	if r.names == nil || len(r.names) >= maxRuleNames {
		r.names = make(map[string]glua.LValue)
	}
	v := glua.LValue(glua.LString(s))
	r.names[s] = v
	return v
}

// maxRuleHandles bounds the handles the rule keeps for reuse.
const maxRuleHandles = 256

// maxMissionDamage bounds one ship:damage amount (hit points).
const maxMissionDamage = 1e9

func (m *mission) damageAPI(fn func(string, glua.LGFunction)) {
	fn("set_damage_rule", func(L *glua.LState) int {
		var f *glua.LFunction
		switch v := L.Get(1).(type) {
		case *glua.LFunction:
			f = v
		case *glua.LNilType:
		default:
			L.ArgError(1, fmt.Sprintf("want a function(hit) returning the damage, or nil to remove it; got a %s value", v.Type()))
		}
		m.effect(func() {
			m.rule.fn = f
			m.h.syncDamageRule()
		})
		return 0
	})
}

// syncDamageRule puts the running version's damage rule on the world's
// hook, or takes it off: a world without a rule pays nothing per hit.
func (h *Runtime) syncDamageRule() {
	w := h.eng.World()
	if w == nil {
		return
	}
	if h.cur != nil && !h.closed && h.cur.rule.fn != nil {
		w.SetDamageHook(h.damageHook)
		return
	}
	w.SetDamageHook(nil)
}

// damageHook is the world's hook: it calls the running version's rule
// with the hit and reads back the damage it returns.
func (h *Runtime) damageHook(dh *world.DamageHit) float32 {
	m := h.cur
	if m == nil || m.closed || m.rule.fn == nil {
		return dh.Damage
	}
	t := m.ruleArg(dh)
	ret, err := m.pcall(m.rule.fn, t)
	if err != nil {
		m.report("damage rule", err)
		h.settle(m)
		return dh.Damage
	}
	switch v := ret.(type) {
	case glua.LNumber:
		f := float64(v)
		if math.IsNaN(f) {
			return dh.Damage
		}
		return float32(min(max(f, 0), maxMissionDamage))
	case glua.LBool:
		if !bool(v) {
			return 0
		}
	}
	return dh.Damage
}

// ruleArg fills the rule's argument table for one hit.
func (m *mission) ruleArg(dh *world.DamageHit) *glua.LTable {
	L := m.L
	t := m.rule.arg
	if t == nil {
		t = L.CreateTable(0, 12)
		m.rule.arg = t
	}
	team := func(o *engine.Object) glua.LValue {
		if o == nil || o.Team() < 0 {
			return glua.LNil
		}
		return glua.LNumber(o.Team())
	}
	t.RawSetString("shooter", m.ruleHandle(dh.Shooter))
	t.RawSetString("shooter_id", glua.LNumber(dh.ShooterID))
	t.RawSetString("team", team(dh.Shooter))
	t.RawSetString("target", m.ruleHandle(dh.Target))
	t.RawSetString("target_id", glua.LNumber(dh.Target.OwnerID()))
	t.RawSetString("target_team", team(dh.Target))
	t.RawSetString("kind", m.rule.name(dh.Kind.String()))
	t.RawSetString("weapon", glua.LNumber(dh.Weapon))
	t.RawSetString("weapon_name", m.rule.name(dh.WeaponName))
	var sub glua.LValue = glua.LNil
	if dh.Subsystem >= 0 && dh.Target.Model != nil {
		sub = m.rule.name(dh.Target.Model.Class().Subsystems[dh.Subsystem].Name)
	}
	t.RawSetString("subsystem", sub)
	t.RawSetString("damage", glua.LNumber(dh.Damage))
	return t
}

// ruleHandle is a handle on o for the rule, reused from hit to hit.
func (m *mission) ruleHandle(o *engine.Object) glua.LValue {
	if o == nil {
		return glua.LNil
	}
	if ud, ok := m.rule.handles[o]; ok {
		return ud
	}
	if m.rule.handles == nil || len(m.rule.handles) >= maxRuleHandles {
		// Ships come and go: start again rather than keep the gone ones.
		m.rule.handles = make(map[*engine.Object]*glua.LUserData)
	}
	ud := m.handle(o).(*glua.LUserData)
	m.rule.handles[o] = ud
	return ud
}

// damageMethods are the ship methods that deal damage: ship:damage{amount,
// subsystem, by} and ship:set_condition(subsystem, fraction [, by]).
func (m *mission) damageMethods() map[string]glua.LGFunction {
	return map[string]glua.LGFunction{
		"damage": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			t := L.CheckTable(2)
			t.ForEach(func(k, _ glua.LValue) {
				switch k.String() {
				case "amount", "subsystem", "by":
				default:
					L.ArgError(2, fmt.Sprintf("unknown field %s (want amount, subsystem, by)", k.String()))
				}
			})
			a, ok := t.RawGetString("amount").(glua.LNumber)
			if !ok || !(float64(a) > 0) || float64(a) > maxMissionDamage {
				L.ArgError(2, fmt.Sprintf("amount: want hit points, more than 0 and at most %g", float64(maxMissionDamage)))
			}
			d := world.MissionDamage{Amount: float32(a), Subsystem: m.damageSubsystem(L, o, t.RawGetString("subsystem")), By: checkBy(L, 2, t.RawGetString("by"))}
			return m.dealt(L, func() error { return m.h.eng.World().DealDamage(m.h.eng.Now(), o, d) })
		},
		"set_condition": func(L *glua.LState) int {
			o := m.checkShip(L, 1)
			i := m.damageSubsystem(L, o, L.Get(2))
			f := float64(L.CheckNumber(3))
			if math.IsNaN(f) || f < 0 || f > 1 {
				L.ArgError(3, "want a fraction 0..1 of the subsystem's maximum")
			}
			by := checkBy(L, 4, L.Get(4))
			return m.dealt(L, func() error { return m.h.eng.World().SetCondition(m.h.eng.Now(), o, i, float32(f), by) })
		},
	}
}

// dealt runs a damage call now, or stages it while the version loads; it
// pushes whether it was taken (false for a ship that is gone or has no
// model).
func (m *mission) dealt(L *glua.LState, fn func() error) int {
	if m.building {
		m.effect(func() { _ = fn() })
		L.Push(glua.LTrue)
		return 1
	}
	err := fn()
	if err != nil && !errors.Is(err, world.ErrNotModelled) {
		L.RaiseError("%v", err)
	}
	L.Push(glua.LBool(err == nil))
	return 1
}

// damageSubsystem reads a subsystem by name (any case) or type ("hull",
// "sensor", ...); nil is the hull (-1).
func (m *mission) damageSubsystem(L *glua.LState, o *engine.Object, v glua.LValue) int {
	if v == glua.LNil {
		return -1
	}
	key, ok := v.(glua.LString)
	if !ok {
		L.RaiseError("subsystem: want a subsystem name or type, got a %s value", v.Type())
	}
	if o.Model == nil {
		return -1 // the call fails: no model
	}
	c := o.Model.Class()
	if i, ok := c.SubsystemIndex(string(key)); ok {
		return i
	}
	for i := range c.Subsystems {
		if strings.EqualFold(c.Subsystems[i].Name, string(key)) || c.Subsystems[i].Type().String() == string(key) {
			return i
		}
	}
	L.RaiseError("subsystem %q: a %s has none of that name or type", string(key), c.Name)
	return -1
}

// checkBy reads the player a mission's damage is credited to (0: none).
func checkBy(L *glua.LState, n int, v glua.LValue) int {
	switch b := v.(type) {
	case *glua.LNilType:
		return 0
	case glua.LNumber:
		f := float64(b)
		if f == math.Trunc(f) && f >= 0 && f <= 255 {
			return int(f)
		}
	}
	L.ArgError(n, fmt.Sprintf("by: want a player id, got %s", v.String()))
	return 0
}
