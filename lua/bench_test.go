package lua_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
)

// realTime runs the benchmarks on the wall clock, as a server does (the
// tests use virtual time).
var realTime = lua.Options{Limits: lua.Limits{StepTime: -1}}

// BenchmarkDispatch is one engine event through to a Lua handler.
func BenchmarkDispatch(b *testing.B) {
	for _, bm := range []struct {
		name string
		ev   engine.Event
	}{
		{"tick", &engine.Tick{Now: t0, Dt: 100 * time.Millisecond}},
		{"weapon_hit", &engine.WeaponHit{ShooterID: 2, Target: &engine.Object{ID: 0x3FFFFFFF, ClassID: codec.ClassShip, Species: 3}, Damage: 12.5, HullHit: true}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			e := mustOpen(b, `
				local n = 0
				bc.on("tick", function(ev) n = n + ev.dt end)
				bc.on("weapon_hit", function(ev) n = n + ev.damage end)
			`, realTime, nil)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.Clock = e.Clock.Add(10 * time.Millisecond) // ten events a tick
				e.Emit(bm.ev)
			}
		})
	}
}

// BenchmarkHandlerLoop is a handler that computes: 1,000 iterations of
// arithmetic, table writes and a string concatenation each, the VM work the
// meter's per-instruction check adds to.
func BenchmarkHandlerLoop(b *testing.B) {
	e := mustOpen(b, `
		local t = {}
		bc.on("tick", function(ev)
			local s = 0
			for i = 1, 1000 do
				s = s + i * ev.dt
				t[i % 64] = s
				local k = "k" .. (i % 8)
			end
		end)
	`, realTime, nil)
	ev := &engine.Tick{Now: t0, Dt: 100 * time.Millisecond}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Clock = e.Clock.Add(100 * time.Millisecond)
		e.Emit(ev)
	}
}

// BenchmarkStockWeaponHit is the deathmatch damage ledger per hit.
func BenchmarkStockWeaponHit(b *testing.B) {
	e := mustOpen(b, "", realTime, nil)
	h := lua.New(e.Engine, lua.Options{Mode: "deathmatch", FS: missions.FS()})
	if err := h.Open(); err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	p2, p3 := e.Join(2, "A"), e.Join(3, "B")
	ship := e.Spawn(p2, 1)
	e.Spawn(p3, 2)
	ev := &engine.WeaponHit{ShooterID: 3, Target: ship, Damage: 10, HullHit: true}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Clock = e.Clock.Add(10 * time.Millisecond)
		e.Emit(ev)
	}
}

// BenchmarkReload is a full reload of the stock deathmatch: compile, new
// state, main chunk, storage carried over, swap.
func BenchmarkReload(b *testing.B) {
	e := luatestEngine()
	h := lua.New(e, lua.Options{Mode: "deathmatch", FS: missions.FS()})
	if err := h.Open(); err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for id := byte(2); id < 10; id++ {
		e.Join(id, "P")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := h.ReloadNow(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMissionMemory is the heap a running stock deathmatch keeps: the
// idle cost of one game's mission.
func BenchmarkMissionMemory(b *testing.B) {
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var per float64
	for b.Loop() {
		const n = 8
		e := luatestEngine()
		before := heap()
		hs := make([]*lua.Runtime, n)
		for i := range hs {
			hs[i] = lua.New(e, lua.Options{Mode: "deathmatch", FS: missions.FS()})
			if err := hs[i].Open(); err != nil {
				b.Fatal(err)
			}
		}
		per = float64(heap()-before) / n
		for _, h := range hs {
			h.Close()
		}
	}
	b.ReportMetric(per, "B/mission")
}

// BenchmarkIdleTick is one 100 ms tick of an empty game running the stock
// deathmatch on the real engine: what every idle game costs the process
// ten times a second (the engine's tick, the mission's timers and every
// event the runtime listens to).
func BenchmarkIdleTick(b *testing.B) {
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: t0})
	if err != nil {
		b.Fatal(err)
	}
	h := lua.New(g, lua.Options{Mode: "deathmatch", FS: missions.FS(), Limits: lua.Limits{StepTime: -1}})
	if err := h.Open(); err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	now := t0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(100 * time.Millisecond)
		g.Advance(now)
	}
}

// BenchmarkDamageRule is one weapon hit through a mission's damage rule
// (bc.set_damage_rule): the argument filled, the rule run under the
// budget, its answer read — a rule like Convoy's, which looks at the
// target, the shooter's team and the weapon kind and scales the damage.
func BenchmarkDamageRule(b *testing.B) {
	e := mustOpen(b, `
		local M = bc.memory
		bc.on("mission_start", function()
			M.freighter = bc.create_ship { class = "CardFreighter", name = "Freighter", team = 0, position = { 0, 100, 0 } }.id
			M.raider = bc.create_ship { class = "Vorcha", name = "Raider", team = 1, position = { 0, 0, 0 } }.id
		end)
		bc.on("mission_load", function()
			bc.set_damage_rule(function(hit)
				if hit.target.id == M.freighter and hit.team == 1 and hit.kind == "torpedo" then return hit.damage * 1.5 end
			end)
		end)
	`, realTime, nil)
	w := e.World()
	hook := w.DamageHook()
	if hook == nil {
		b.Fatal("no damage hook installed")
	}
	var freighter, raider *engine.Object
	for _, o := range w.Objects() {
		switch o.Name {
		case "Freighter":
			freighter = o
		case "Raider":
			raider = o
		}
	}
	dh := world.DamageHit{Shooter: raider, Target: freighter, Kind: world.KindTorpedo, Weapon: raider.ID + 20, WeaponName: "Forward Torpedo", Subsystem: 0, Damage: 500}
	if got := hook(&dh); got != 750 {
		b.Fatalf("the rule dealt %v, want 750", got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Clock = e.Clock.Add(time.Millisecond) // a fresh tick budget now and then
		hook(&dh)
	}
}
