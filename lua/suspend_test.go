package lua_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
)

// A mission suspended for its errors and then fixed comes back as a
// reload: mission_reload runs (with suspended = true), mission_start does
// not, so the host ships it made are not made twice; the players read in
// chat that the mode stopped and that it is back, in words meant for them.
func TestFixAfterSuspensionReloads(t *testing.T) {
	const mission = `
		local S = bc.storage
		S.starts = S.starts or 0
		bc.on("mission_start", function()
			S.starts = S.starts + 1
			for i = 1, 3 do bc.create_ship { class = "Galor", team = 1, position = { i * 100, 0, 0 } } end
		end)
		bc.on("mission_reload", function(ev)
			S.reloaded = { from = ev.previous_version, to = ev.version, suspended = ev.suspended }
		end)
		bc.on("mission_load", function(ev) S.load_reload = ev.reload end)
	`
	e := mustOpen(t, mission+`bc.on("tick", function() error("bug") end)`, lua.Options{Limits: lua.Limits{MaxErrors: 3}}, nil)
	e.Join(2, "A")
	ships := func() int { return e.World().HostShips() }
	if ships() != 3 {
		t.Fatalf("%d host ships after the start", ships())
	}
	e.Take()
	for i := 0; i < 3; i++ {
		e.Emit(&engine.Tick{Now: t0, Dt: 100 * time.Millisecond})
	}
	if e.host.Loaded() {
		t.Fatal("not suspended")
	}
	said := func() []string {
		var out []string
		for _, s := range e.sent() {
			if s[0] == 0x2C {
				out = append(out, s[7:])
			}
		}
		return out
	}
	if got := said(); len(got) != 1 || got[0] != "[server] The game mode stopped after errors. Play on: scores are not kept until the host fixes it." {
		t.Fatalf("players read %q", got)
	}
	if !e.reported(lua.ErrSuspended, "", "suspended after 3 errors within 1m0s") {
		t.Fatalf("errors: %s", e.errors())
	}

	e.fs["m/main.lua"] = &fstest.MapFile{Data: []byte(mission)}
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	st := e.host.Storage()
	if ships() != 3 || st.Get("starts") != 1.0 {
		t.Fatalf("%d host ships, mission_start ran %v times", ships(), st.Get("starts"))
	}
	r, _ := st.Get("reloaded").(*lua.Table)
	if r == nil || r.Get("from") != 1.0 || r.Get("to") != 2.0 || r.Get("suspended") != true || st.Get("load_reload") != true {
		t.Fatalf("mission_reload: %v, mission_load reload = %v", r, st.Get("load_reload"))
	}
	if got := said(); len(got) != 1 || got[0] != "[server] The game mode is running again." {
		t.Fatalf("players read %q", got)
	}
	// An ordinary reload says nothing to the players and is not a resume.
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	if got := said(); len(got) != 0 {
		t.Fatalf("players read %q after a plain reload", got)
	}
	if r, _ := e.host.Storage().Get("reloaded").(*lua.Table); r.Get("suspended") != false || ships() != 3 {
		t.Fatalf("plain reload: %v, %d ships", r, ships())
	}
}
