package missiontest

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/lua"
)

// suite is one test file's Lua state and what it registered.
type suite struct {
	r     *Runner
	file  string // slash path in the missions folder
	mode  string // default mode: the file's top folder
	L     *glua.LState
	cases []testCase

	worlds  []*Match // of the running case, closed after it
	seen    map[*Match]int
	careers map[string]history.Career // test.careers, for the running case's games
}

type testCase struct {
	name string
	fn   *glua.LFunction
	line int
}

// open builds the test API: the global `test`, plus base, string, table
// and math. Tests run in their own state, never in the mission's.
func (s *suite) open() {
	L := s.L
	for _, lib := range []struct {
		name string
		fn   glua.LGFunction
	}{{glua.BaseLibName, glua.OpenBase}, {glua.TabLibName, glua.OpenTable}, {glua.StringLibName, glua.OpenString}, {glua.MathLibName, glua.OpenMath}} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(glua.LString(lib.name))
		L.Call(1, 0)
	}
	for _, name := range []string{"dofile", "loadfile", "module", "require", "collectgarbage"} {
		L.SetGlobal(name, glua.LNil)
	}
	L.SetGlobal("print", L.NewFunction(func(L *glua.LState) int {
		parts := make([]string, 0, L.GetTop())
		for i := 1; i <= L.GetTop(); i++ {
			parts = append(parts, L.ToStringMeta(L.Get(i)).String())
		}
		fmt.Fprintf(s.r.Out, "    %s\n", strings.Join(parts, "\t"))
		return 0
	}))
	t := L.NewTable()
	fn := func(name string, f glua.LGFunction) { t.RawSetString(name, L.NewFunction(f)) }
	fn("case", func(L *glua.LState) int {
		name := L.CheckString(1)
		f := L.CheckFunction(2)
		s.cases = append(s.cases, testCase{name: name, fn: f, line: currentLine(L)})
		return 0
	})
	fn("game", s.game)
	fn("careers", func(L *glua.LState) int {
		s.careers = careersArg(L, L.CheckTable(1))
		return 0
	})
	fn("ok", func(L *glua.LState) int {
		if !L.ToBool(1) {
			msg := "expected a true value"
			if s, ok := L.Get(2).(glua.LString); ok {
				msg = string(s)
			}
			L.RaiseError("%s (got %s)", msg, show(L.Get(1)))
		}
		return 0
	})
	fn("eq", func(L *glua.LState) int {
		got, want := L.Get(1), L.Get(2)
		if !deepEqual(got, want, 0) {
			L.RaiseError("%s", msgOr(L, 3, "")+fmt.Sprintf("got %s, want %s", show(got), show(want)))
		}
		return 0
	})
	fn("near", func(L *glua.LState) int {
		got, want, eps := float64(L.CheckNumber(1)), float64(L.CheckNumber(2)), float64(L.OptNumber(3, 1e-6))
		if math.Abs(got-want) > eps {
			L.RaiseError("%s", msgOr(L, 4, "")+fmt.Sprintf("got %v, want %v ± %v", got, want, eps))
		}
		return 0
	})
	fn("fail", func(L *glua.LState) int {
		L.RaiseError("%s", L.OptString(1, "failed"))
		return 0
	})
	L.SetGlobal("test", t)
	// The API's data and constants, as the mission reads them: bc.END,
	// bc.OP, bc.species, bc.ship_classes() ...
	L.SetGlobal("bc", lua.DataModule(L, s.r.ships))
}

func msgOr(L *glua.LState, n int, def string) string {
	if s, ok := L.Get(n).(glua.LString); ok {
		return string(s) + ": "
	}
	return def
}

func currentLine(L *glua.LState) int {
	if dbg, ok := L.GetStack(1); ok {
		if _, err := L.GetInfo("l", dbg, glua.LNil); err == nil {
			return dbg.CurrentLine
		}
	}
	return 0
}

// show renders a value for a failure message.
func show(v glua.LValue) string {
	switch v := v.(type) {
	case glua.LString:
		return fmt.Sprintf("%q", string(v))
	case *glua.LTable:
		var parts []string
		v.ForEach(func(k, val glua.LValue) {
			if len(parts) < 16 {
				parts = append(parts, fmt.Sprintf("[%s]=%s", show(k), show(val)))
			}
		})
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return v.String()
}

func deepEqual(a, b glua.LValue, depth int) bool {
	ta, okA := a.(*glua.LTable)
	tb, okB := b.(*glua.LTable)
	if !okA || !okB {
		return a == b
	}
	if depth > 32 {
		return ta == tb
	}
	eq := true
	n := 0
	ta.ForEach(func(k, v glua.LValue) {
		n++
		if !deepEqual(v, tb.RawGet(k), depth+1) {
			eq = false
		}
	})
	tb.ForEach(func(glua.LValue, glua.LValue) { n-- })
	return eq && n == 0
}

// gameFields are the fields test.game takes.
var gameFields = []string{"mode", "config", "addons", "storage", "record"}

// game is test.game{mode, config, addons, storage, record}: a fresh game running
// the mode. A misspelt field is an error, not a default.
func (s *suite) game(L *glua.LState) int {
	o := Options{Mode: s.mode, FS: s.r.FS, LibFS: s.r.LibFS, Careers: s.careers}
	switch t := L.Get(1).(type) {
	case *glua.LNilType:
	case *glua.LTable:
		t.ForEach(func(k, _ glua.LValue) {
			if ks, ok := k.(glua.LString); !ok || !slices.Contains(gameFields, string(ks)) {
				L.RaiseError("test.game: unknown field %s (want %s)", show(k), strings.Join(gameFields, ", "))
			}
		})
		switch m := t.RawGetString("mode").(type) {
		case glua.LString:
			o.Mode = string(m)
		case *glua.LNilType:
		default:
			L.RaiseError("test.game: mode: want a folder name, got a %s value", m.Type())
		}
		switch c := t.RawGetString("config").(type) {
		case *glua.LTable:
			o.Config = plainMap(L, c, "config")
		case *glua.LNilType:
		default:
			L.RaiseError("test.game: config: want a table (the [mission] table), got a %s value", c.Type())
		}
		o.Record = glua.LVAsBool(t.RawGetString("record"))
		switch a := t.RawGetString("addons").(type) {
		case *glua.LTable:
			a.ForEach(func(_, v glua.LValue) { o.Addons = append(o.Addons, v.String()) })
		case *glua.LNilType:
		default:
			L.RaiseError("test.game: addons: want a list of addon folders, got a %s value", a.Type())
		}
		switch st := t.RawGetString("storage").(type) {
		case *glua.LTable:
			// As a restarted server reads it from its storage file.
			data, err := lua.Restarted(lua.PlainTable(st))
			if err != nil {
				L.RaiseError("test.game: storage: %v", err)
			}
			o.Storage = data
		case *glua.LNilType:
		default:
			L.RaiseError("test.game: storage: want a table (bc.storage as the last run left it), got a %s value", st.Type())
		}
	default:
		L.RaiseError("test.game: want a table {mode, config, addons, storage, record} or nothing, got a %s value", t.Type())
	}
	w, err := NewMatch(o)
	if err != nil {
		L.RaiseError("test.game: %v", err)
	}
	s.worlds = append(s.worlds, w)
	L.Push(s.gameTable(L, w))
	return 1
}

// plainMap converts a config table into what the TOML decoder would give:
// integers as int64, lists as []any, tables as maps; anything else (a
// function, a table key that is not a string) is an error naming it.
func plainMap(L *glua.LState, t *glua.LTable, path string) map[string]any {
	out := make(map[string]any)
	t.ForEach(func(k, v glua.LValue) {
		key, ok := k.(glua.LString)
		if !ok {
			L.RaiseError("test.game: %s: key %s: want a string key, as in TOML", path, show(k))
		}
		out[string(key)] = plainValue(L, v, path+"."+string(key), 0)
	})
	return out
}

func plainValue(L *glua.LState, v glua.LValue, path string, depth int) any {
	if depth > 16 {
		L.RaiseError("test.game: %s: nested too deeply", path)
	}
	switch v := v.(type) {
	case glua.LNumber:
		if f := float64(v); f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f)
		}
		return float64(v)
	case glua.LString:
		return string(v)
	case glua.LBool:
		return bool(v)
	case *glua.LTable:
		if n := v.Len(); n > 0 {
			list := make([]any, 0, n)
			for i := 1; i <= n; i++ {
				list = append(list, plainValue(L, v.RawGetInt(i), fmt.Sprintf("%s[%d]", path, i), depth+1))
			}
			return list
		}
		return plainMap(L, v, path)
	}
	L.RaiseError("test.game: %s: a %s value cannot be configuration", path, v.Type())
	return nil
}

func (s *suite) gameTable(L *glua.LState, w *Match) *glua.LTable {
	g := L.NewTable()
	fn := func(name string, f glua.LGFunction) { g.RawSetString(name, L.NewFunction(f)) }
	fn("join", func(L *glua.LState) int {
		b, err := w.Join(L.CheckString(2))
		if err != nil {
			L.RaiseError("join: %v", err)
		}
		L.Push(s.botTable(L, w, b))
		return 1
	})
	fn("advance", func(L *glua.LState) int {
		sec := float64(L.CheckNumber(2))
		if sec < 0 || sec > 24*3600 || math.IsNaN(sec) {
			L.ArgError(2, "seconds must be 0..86400")
		}
		w.Advance(time.Duration(sec * float64(time.Second)))
		return 0
	})
	fn("storage", func(L *glua.LState) int {
		L.Push(toLua(L, w.Runtime.Storage()))
		return 1
	})
	fn("memory", func(L *glua.LState) int {
		L.Push(toLua(L, w.Runtime.Memory()))
		return 1
	})
	fn("restart", func(L *glua.LState) int {
		if err := w.Restart(); err != nil {
			L.RaiseError("restart: %v", err)
		}
		return 0
	})
	fn("game_over", func(L *glua.LState) int {
		L.Push(glua.LBool(w.Game.GameOver()))
		return 1
	})
	fn("mission", func(L *glua.LState) int {
		L.Push(lua.MissionTable(L, w.Game.Mission()))
		return 1
	})
	fn("loaded", func(L *glua.LState) int {
		L.Push(glua.LBool(w.Runtime.Loaded()))
		return 1
	})
	fn("errors", func(L *glua.LState) int {
		errs := w.MissionErrors()
		s.seen[w] = len(errs)
		t := L.CreateTable(len(errs), 0)
		for _, e := range errs {
			t.Append(glua.LString(e))
		}
		L.Push(t)
		return 1
	})
	fn("log", func(L *glua.LState) int {
		L.Push(glua.LString(w.Logs()))
		return 1
	})
	shipFuncs(L, w, fn)
	// hits([since]) lists the weapon hits the host applied (weapon_hit),
	// from the since-th on (1-based; default all): each
	// {at, shooter, shooter_id, target, weapon, weapon_name, kind, damage,
	// absorbed, hull_hit}, at in seconds of game time.
	fn("hits", func(L *glua.LState) int {
		hits := w.Hits()
		from := max(L.OptInt(2, 1), 1) - 1
		t := L.CreateTable(max(len(hits)-from, 0), 0)
		for _, h := range hits[min(from, len(hits)):] {
			e := L.CreateTable(0, 10)
			e.RawSetString("at", glua.LNumber(h.At.Seconds()))
			if h.Shooter != nil {
				e.RawSetString("shooter", glua.LNumber(h.Shooter.ID))
			}
			e.RawSetString("shooter_id", glua.LNumber(h.ShooterID))
			if h.Target != nil {
				e.RawSetString("target", glua.LNumber(h.Target.ID))
			}
			e.RawSetString("weapon", glua.LNumber(h.Weapon))
			e.RawSetString("weapon_name", glua.LString(h.WeaponName))
			e.RawSetString("kind", glua.LString(h.Kind))
			e.RawSetString("damage", glua.LNumber(h.Damage))
			e.RawSetString("absorbed", glua.LNumber(h.Absorbed))
			e.RawSetString("hull_hit", glua.LBool(h.HullHit))
			t.Append(e)
		}
		L.Push(t)
		return 1
	})
	fn("recording", func(L *glua.LState) int {
		L.Push(recordingTable(L, w))
		return 1
	})
	fn("matches", func(L *glua.LState) int {
		L.Push(matchesTable(L, w))
		return 1
	})
	fn("reload", func(L *glua.LState) int {
		before := len(w.MissionErrors())
		if err := w.Runtime.ReloadNow(); err != nil {
			// The case holds the error: it is not one the case missed
			// (which would report it a second time).
			if s.seen[w] == before {
				s.seen[w] = len(w.MissionErrors())
			}
			L.Push(glua.LString(err.Error()))
			return 1
		}
		return 0
	})
	return g
}

// toLua rebuilds a storage copy in the test state.
func toLua(L *glua.LState, t *lua.Table) glua.LValue {
	if t == nil {
		return glua.LNil
	}
	var conv func(v any) glua.LValue
	seen := map[*lua.Table]*glua.LTable{}
	conv = func(v any) glua.LValue {
		switch v := v.(type) {
		case nil:
			return glua.LNil
		case bool:
			return glua.LBool(v)
		case float64:
			return glua.LNumber(v)
		case string:
			return glua.LString(v)
		case *lua.Table:
			if out, ok := seen[v]; ok {
				return out
			}
			out := L.NewTable()
			seen[v] = out
			for _, p := range *v {
				out.RawSet(conv(p.Key), conv(p.Value))
			}
			return out
		}
		return glua.LNil
	}
	return conv(t)
}
