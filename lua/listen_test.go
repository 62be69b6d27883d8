package lua_test

import (
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
)

// The runtime subscribes to an engine event when the mission first
// handles it and lets go when no version does, so the engine's "anyone
// listening?" shortcuts hold; chat stays on for commands.
func TestSubscribeOnDemand(t *testing.T) {
	e := mustOpen(t, `
		local id = bc.on("ship_destroyed", function() end)
		bc.command("quiet", function() bc.off("ship_destroyed", id) end)
	`, lua.Options{}, nil)
	listening := func(want map[string]bool) {
		t.Helper()
		for name, on := range want {
			if e.Listening(name) != on {
				t.Errorf("%s: listening %v, want %v", name, !on, on)
			}
		}
	}
	listening(map[string]bool{engine.EvShipDestroyed: true, engine.EvChat: true, engine.EvTick: false, engine.EvWeaponFired: false, engine.EvShipRequested: false})
	p := e.Join(2, "A")
	e.Emit(&engine.Chat{From: p, Text: []byte("!quiet")})
	listening(map[string]bool{engine.EvShipDestroyed: false, engine.EvChat: true})

	// A new version that handles ticks; one that fails to load leaves
	// nothing behind.
	e.fs["m/main.lua"].Data = []byte(`bc.on("tick", function() end)`)
	if err := e.host.ReloadNow(); err != nil {
		t.Fatal(err)
	}
	listening(map[string]bool{engine.EvTick: true, engine.EvShipDestroyed: false, engine.EvChat: true})
	e.fs["m/main.lua"].Data = []byte(`bc.on("weapon_fired", function() end) error("broken")`)
	if err := e.host.ReloadNow(); err == nil {
		t.Fatal("the broken version loaded")
	}
	listening(map[string]bool{engine.EvTick: true, engine.EvWeaponFired: false})
	e.host.Close()
	listening(map[string]bool{engine.EvTick: false, engine.EvChat: false})
}

// An idle game running the stock deathmatch builds no tick event: the
// mission handles none, so nothing is allocated per tick.
func TestIdleTickAllocatesNothing(t *testing.T) {
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	h := lua.New(g, lua.Options{Mode: "deathmatch", FS: missions.FS(), Limits: lua.Limits{StepTime: 100 * time.Nanosecond}})
	if err := h.Open(); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	now := t0
	if n := testing.AllocsPerRun(100, func() { now = now.Add(100 * time.Millisecond); g.Advance(now) }); n != 0 {
		t.Fatalf("%v allocations per idle tick", n)
	}
}
