package lua

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine"
)

// Stock limits of the strings bc.set_mission announces: the mission
// script is a Python module path the client imports (Settings), the map
// name and system are GameSpy fields that server browsers show in short
// columns.
const (
	maxScriptName = 128
	maxMapName    = 32
	maxSystemName = 32
)

// setMission is bc.set_mission{script, map_name, system, time_limit,
// frag_limit}: omitted fields stay; every field is checked before any is
// applied.
func (m *mission) setMission(L *glua.LState) int {
	t := L.CheckTable(1)
	var set []func(mi *engine.Mission)
	str := func(key string, max int, module bool, field func(*engine.Mission) *string) {
		v := t.RawGetString(key)
		if v == glua.LNil {
			return
		}
		s, ok := v.(glua.LString)
		if !ok {
			L.ArgError(1, fmt.Sprintf("%s must be a string, not a %s", key, v.Type()))
		}
		if len(s) == 0 || len(s) > max {
			L.ArgError(1, fmt.Sprintf("%s must be 1..%d bytes, not %d", key, max, len(s)))
		}
		for i := 0; i < len(s); i++ {
			c := s[i]
			ok := c > ' ' && c < 0x7F
			if module {
				ok = nameByte(c, false, "._")
			}
			if !ok {
				L.ArgError(1, fmt.Sprintf("%s %q: character %q is not allowed", key, string(s), c))
			}
		}
		set = append(set, func(mi *engine.Mission) { *field(mi) = string(s) })
	}
	limit := func(key string, field func(*engine.Mission) *int) {
		v := t.RawGetString(key)
		if v == glua.LNil {
			return
		}
		n, ok := v.(glua.LNumber)
		if !ok || float64(n) != float64(int(n)) || !(n == -1 || n >= 1 && n <= 254) {
			L.ArgError(1, fmt.Sprintf("%s must be -1 (none) or 1..254, not %s", key, v.String()))
		}
		set = append(set, func(mi *engine.Mission) { *field(mi) = int(n) })
	}
	str("script", maxScriptName, true, func(mi *engine.Mission) *string { return &mi.Script })
	str("map_name", maxMapName, false, func(mi *engine.Mission) *string { return &mi.MapName })
	str("system", maxSystemName, false, func(mi *engine.Mission) *string { return &mi.System })
	limit("time_limit", func(mi *engine.Mission) *int { return &mi.TimeLimit })
	limit("frag_limit", func(mi *engine.Mission) *int { return &mi.FragLimit })
	m.effect(func() {
		mi := m.h.eng.Mission()
		for _, f := range set {
			f(&mi)
		}
		m.h.eng.SetMission(mi)
	})
	return 0
}
