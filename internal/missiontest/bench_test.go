package missiontest

import (
	"testing"
	"testing/fstest"
	"time"

	botpkg "github.com/bcserver/bcserver/internal/bot"
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

// fightMission is two teams of eight in a fire fight, with or without a
// damage rule of the Convoy kind (it looks at the teams, the target and
// the weapon kind on every hit).
const fightMission = `
bc.on("mission_load", function()
  bc.set_mission { script = "Multiplayer.Episode.Mission2.Mission2", map_name = "F", system = "Multi1" }
  bc.set_team_mode(true)
  if bc.config.rule then
    bc.set_damage_rule(function(hit)
      if hit.team ~= nil and hit.team == hit.target_team then return false end
      if hit.team == 1 and hit.kind == "torpedo" and hit.target.class_name == "Galaxy" then return hit.damage * 1.5 end
    end)
  end
end)
bc.on("mission_start", function() bc.set_accepting(true) end)
bc.on("player_in_game", function(ev) bc.set_team(ev.player.id, ev.player.slot % 2) end)
`

// BenchmarkFireFight16 is the cost of a mission's damage rule in a
// 16-player fire fight: two teams of eight facing each other 50 units
// apart, every ship firing phasers, torpedoes and pulse at the one across
// once a second, over the in-memory network; one game tick (100 ms) a
// loop. "stock" runs no rule, "rule" the Convoy-like rule of fightMission.
// The hook's cost per hit is the difference of the two µs/tick over
// hits/tick; the clients' side and respawns are off the clock.
func BenchmarkFireFight16(b *testing.B) {
	for _, rule := range []bool{false, true} {
		name := "stock"
		if rule {
			name = "rule"
		}
		b.Run(name, func(b *testing.B) {
			fsys := fstest.MapFS{"fight/main.lua": {Data: []byte(fightMission)}}
			w, err := NewMatch(Options{Mode: "fight", FS: fsys, MaxPlayers: 16, Config: map[string]any{"rule": rule}})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			var bots []*Bot
			for i := range 16 {
				bot, err := w.Join(string(rune('A' + i)))
				if err != nil {
					b.Fatal(err)
				}
				bots = append(bots, bot)
			}
			classes := []int{3, 7} // Galaxy (team 0) against Vorcha (team 1): phasers, torpedoes, and the Vorcha's pulse
			pos := func(i int) [3]float32 { return [3]float32{float32(i/2) * 30, float32(i%2) * 50, 0} }
			spawn := func() {
				for i, bot := range bots {
					if !bot.alive() {
						if _, err := bot.Spawn(classes[i%2], pos(i)); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			volley := func() {
				for i, bot := range bots {
					enemy := bots[i^1]
					if bot.alive() && enemy.alive() {
						_, _ = bot.Fire(enemy, botpkg.AllWeapons)
					}
				}
			}
			spawn()
			hits0, ticks := len(w.hits), 0
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
				if ticks++; ticks%10 == 0 {
					spawn()
					volley()
				}
				if len(w.hits) > maxHits/2 {
					w.hits = w.hits[:0]
					hits0 = 0
				}
				b.StartTimer()
			}
			hits := len(w.hits) - hits0
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/tick")
			b.ReportMetric(float64(hits)/float64(b.N), "hits/tick")
			if errs := w.MissionErrors(); len(errs) > 0 {
				b.Fatalf("mission errors: %v", errs)
			}
		})
	}
}
