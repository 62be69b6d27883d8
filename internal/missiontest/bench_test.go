package missiontest

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/missions"
)

// benchMission is a host-ship load: 32 AI ships of eight classes with the
// stock-like "attack" behaviour of lib/ai.lua against the players' team.
const benchMission = `
local ai = require("ai")
local classes = { "Galor", "BirdOfPrey", "Vorcha", "Keldon", "Warbird", "CardHybrid", "KessokHeavy", "Marauder" }
bc.on("mission_start", function()
  bc.set_accepting(true)
  for k = 1, 32 do
    local s = bc.create_ship { class = classes[(k - 1) % 8 + 1], team = 1,
      position = { (k % 8) * 30 - 100, 200 + math.floor(k / 8) * 30, 0 } }
    ai.attach(s, "attack", { enemy_team = 0, range = 45 })
  end
end)
bc.on("player_in_game", function(ev) bc.set_team(ev.player.id, 0) end)
`

// BenchmarkHostShipGame measures the server's cost of one game tick (100
// ms) of a whole game: 15 players in Sovereigns over the in-memory
// network — the most a server admits while host ships exist, the 16th
// slot being theirs (opcodes.md 6; engine/world's BenchmarkHostShips runs
// the world with 16) — and 32 host ships driven by lib/ai.lua: the Lua
// tick and AI, the world's movement, weapons and damage, the StateUpdates
// to every player and the transport flush. The clients' side and the
// respawns of dead players are off the clock.
func BenchmarkHostShipGame(b *testing.B) {
	fsys := fstest.MapFS{"bench/main.lua": {Data: []byte(benchMission)}}
	w, err := NewMatch(Options{Mode: "bench", FS: fsys, LibFS: missions.FS(), MaxPlayers: 16})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	var bots []*Bot
	for i := range 15 {
		bot, err := w.Join(string(rune('A' + i)))
		if err != nil {
			b.Fatal(err)
		}
		bots = append(bots, bot)
	}
	spawn := func() {
		for i, bot := range bots {
			if !bot.alive() {
				if _, err := bot.Spawn(5, [3]float32{float32(i%4) * 40, float32(i/4) * 40, 0}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	spawn()
	w.Advance(2 * time.Second) // the AI picks its targets
	if n := w.Game.World().HostShips(); n != 32 {
		b.Fatalf("%d host ships", n)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w.Now = w.Now.Add(100 * time.Millisecond)
		w.Game.Advance(w.Now)
		b.StopTimer()
		for _, bot := range bots {
			_ = bot.c.Tick(w.Now)
		}
		w.pump()
		spawn()
		b.StartTimer()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/tick")
	if errs := w.MissionErrors(); len(errs) > 0 {
		b.Fatalf("mission errors: %v", errs)
	}
}
