package lua_test

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/lua/luatest"
)

// bc.storage survives reloads and restarts; bc.memory survives reloads
// only, so after a restart the mission starts its transient state (who
// holds the hill, host ship ids, AI brains keyed by those ids) afresh
// instead of resetting it by hand. mission_load's restored says whether
// bc.storage came back from the last run.
func TestMemorySurvivesReloadsOnlyStorageRestarts(t *testing.T) {
	dir := t.TempDir()
	src := `
		local S, M = bc.storage, bc.memory
		S.standings = S.standings or {}
		bc.on("mission_load", function(ev)
			S.loads = S.loads or {}
			S.loads[#S.loads + 1] = { restored = ev.restored, reload = ev.reload }
			M.seen_holder = M.holder
		end)
		bc.on("mission_start", function()
			local g = bc.create_ship { class = "Galor" }
			M.guard = g.id
		end)
		bc.on("player_in_game", function(ev)
			M.holder = ev.player.id
			S.standings[ev.player.name] = (S.standings[ev.player.name] or 0) + 1
		end)
	`
	fsys := fstest.MapFS{"m/main.lua": {Data: []byte(src)}}
	run := func() (*luatest.Engine, *lua.Runtime) {
		e := luatest.New(t0)
		h := lua.New(e, lua.Options{Mode: "m", FS: fsys, StorageDir: dir, Limits: lua.Limits{StepTime: 100 * time.Nanosecond}})
		if err := h.Open(); err != nil {
			t.Fatal(err)
		}
		return e, h
	}
	load := func(h *lua.Runtime, i int) (restored, reload any) {
		l := h.Storage().Get("loads").(*lua.Table).Get(float64(i)).(*lua.Table)
		return l.Get("restored"), l.Get("reload")
	}
	e, h := run()
	e.Join(2, "Alice")
	if err := h.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	m := h.Memory()
	if m.Get("holder") != 2.0 || m.Get("seen_holder") != 2.0 || m.Get("guard") == nil {
		t.Fatalf("bc.memory after a reload: %+v", *m)
	}
	if r, rl := load(h, 1); r != false || rl != false {
		t.Fatalf("first load: restored %v reload %v", r, rl)
	}
	if r, rl := load(h, 2); r != false || rl != true {
		t.Fatalf("reload: restored %v reload %v", r, rl)
	}
	h.Close()

	_, h = run()
	defer h.Close()
	if m := h.Memory(); m.Get("holder") != nil || m.Get("seen_holder") != nil || m.Get("guard") == nil {
		t.Fatalf("bc.memory after a restart: %+v", *m)
	}
	if got := h.Storage().Get("standings").(*lua.Table).Get("Alice"); got != 1.0 {
		t.Fatalf("standings after a restart: %v", got)
	}
	if r, rl := load(h, 3); r != true || rl != false {
		t.Fatalf("first load after the restart: restored %v reload %v", r, rl)
	}
	if err := h.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	if r, _ := load(h, 4); r != false {
		t.Fatalf("a reload after the restart: restored %v", r)
	}
}

// Options.Restore stands for the storage file: the mission opens with it
// as if the server had restarted.
func TestRestoreSeedsStorage(t *testing.T) {
	e := mustOpen(t, `bc.on("mission_load", function(ev) bc.storage.was_restored = ev.restored end)`,
		lua.Options{Restore: map[string]any{"standings": map[string]any{"Alice": 3}}}, nil)
	st := e.host.Storage()
	if st.Get("was_restored") != true || st.Get("standings").(*lua.Table).Get("Alice") != 3.0 {
		t.Fatalf("%+v", *st)
	}
	// Restarted is what a storage file gives back: number keys stay numbers.
	back, err := lua.Restarted(&lua.Table{{Key: 2.0, Value: "two"}, {Key: "#x", Value: true}})
	if err != nil {
		t.Fatal(err)
	}
	if bt := back.(*lua.Table); bt.Get(2.0) != "two" || bt.Get("#x") != true {
		t.Fatalf("%+v", *bt)
	}
}
