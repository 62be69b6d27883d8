package lua_test

import (
	"strings"
	"testing"

	"github.com/bcserver/bcserver/lua"
)

// Calling something that is not a function names it, as PUC Lua does:
// gopher-lua's own "attempt to call a non-function object" left the
// author to guess which name on the line was nil.
func TestCallOfNonFunctionNamesIt(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"global", `spawn_guard(1)`, "m/main.lua:1: attempt to call global 'spawn_guard' (a nil value)"},
		{"field", `bc.spawn_ship { class = "Galor" }`, "m/main.lua:1: attempt to call field 'spawn_ship' (a nil value)"},
		{"method", "local t = {}\nt:fly(1, 2)", "m/main.lua:2: attempt to call method 'fly' (a nil value)"},
		{"local", "local f = 3\nf()", "m/main.lua:2: attempt to call local 'f' (a number value)"},
		{"upvalue", "local f\nlocal function g() return f() end\ng()", "m/main.lua:2: attempt to call upvalue 'f' (a nil value)"},
		{"deep field", "local t = { a = { } }\nt.a.b.c = 1", "attempt to index"}, // indexing names the key already
		{"in an argument", "print(tostring(nope(1)))", "m/main.lua:1: attempt to call global 'nope' (a nil value)"},
		{"tail call", "local function g() return missing() end\ng()", "m/main.lua:1: attempt to call global 'missing' (a nil value)"},
		{"result", "local function g() end\ng()()", "m/main.lua:2: attempt to call a nil value"},
	} {
		_, err := open(t, tc.src, lua.Options{}, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// In a handler, and a ship handle's unknown method.
	e := mustOpen(t, `
		bc.on("player_in_game", function(ev) give_lives(ev.player) end)
		bc.on("ship_created", function(ev) ev.ship:fly_to({0, 0, 0}) end)
	`, lua.Options{}, nil)
	e.Spawn(e.Join(2, "A"), 1)
	for _, want := range []string{
		"m/main.lua:2: attempt to call global 'give_lives' (a nil value)",
		"m/main.lua:3: attempt to call method 'fly_to' (a nil value)",
	} {
		if !e.reported(lua.ErrFailed, "", want) {
			t.Errorf("no error %q:\n%s", want, e.errors())
		}
	}
	// A table with __call is called; a script's own pcall still works.
	e = mustOpen(t, `
		local c = setmetatable({}, { __call = function(_, x) return x * 2 end })
		bc.storage.called = c(21)
		local ok, err = pcall(function() local t = {} ; t.nothing() end)
		bc.storage.caught = not ok
		bc.on("player_in_game", function() nothing_here() end)
	`, lua.Options{}, nil)
	if st := e.host.Storage(); st.Get("called") != 42.0 || st.Get("caught") != true {
		t.Fatalf("storage %+v", *st)
	}
	e.Join(2, "A")
	if !e.reported(lua.ErrFailed, "", "attempt to call global 'nothing_here' (a nil value)") {
		t.Errorf("after a caught error: %s", e.errors())
	}
}
