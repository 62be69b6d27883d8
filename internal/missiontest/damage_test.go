package missiontest

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A damage rule scales one team's torpedoes on one ship, cancels friendly
// fire and sees every field of the hit; a failing rule leaves the hit as
// it was; ship:damage and ship:set_condition deal damage credited to a
// player, who gets the kill.
func TestDamageRules(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua": {Data: []byte(`
local M = bc.memory
bc.on("mission_load", function()
  bc.set_mission { script = "Multiplayer.Episode.Mission2.Mission2", map_name = "T", system = "Multi1" }
  bc.set_team_mode(true)
  bc.set_damage_rule(function(hit)
    M.last = { shooter = hit.shooter and hit.shooter.id, shooter_id = hit.shooter_id, team = hit.team, target = hit.target.id,
      target_id = hit.target_id, target_team = hit.target_team, kind = hit.kind, weapon = hit.weapon, weapon_name = hit.weapon_name,
      subsystem = hit.subsystem, damage = hit.damage }
    if M.broken then error("rule bug") end
    if hit.target_team ~= nil and hit.target_team == hit.team then return false end
    if hit.target.id == M.freighter and hit.team == 1 and hit.kind == "torpedo" then return hit.damage * 1.5 end
  end)
end)
bc.on("mission_start", function()
  M.freighter = bc.create_ship { class = "CardFreighter", name = "Freighter", team = 0, position = { 0, 40, 0 } }.id
end)
bc.on("ship_destroyed", function(ev) M.killed = { victim = ev.victim.id, killer = ev.killer_id, kind = ev.kind } end)
bc.command("team", function(ev) bc.set_team(ev.from, tonumber(ev.args[1])) end)
bc.command("hurt", function(ev) return tostring(bc.ship(M.freighter):damage { amount = tonumber(ev.args[1]), by = ev.from }) end)
bc.command("sensors", function(ev) return tostring(bc.ship(M.freighter):set_condition("sensor", 0.25, ev.from)) end)
bc.command("break", function() M.broken = true end)
`)},
		"m/m_test.lua": {Data: []byte(`
local function hits_on(g, id, since)
  local out = {}
  for _, h in ipairs(g:hits(since)) do if h.target == id then out[#out + 1] = h end end
  return out
end
test.case("team 2's torpedoes do half as much again to the freighter", function()
  local g = test.game()
  local kor, kirk = g:join("Kor"), g:join("Kirk")
  kor:chat("!team 1")
  kirk:chat("!team 0")
  kor:spawn("Vorcha", { 0, 0, 0 })
  kirk:spawn("Akira", { 40, 0, 0 })
  local f = g:memory().freighter
  -- Kirk is on the freighter's team: his torpedoes are cancelled.
  test.ok(kirk:fire_at(f, "torpedo") > 0)
  g:advance(4)
  test.eq(#hits_on(g, f), 0, "friendly torpedoes land nowhere")
  test.eq(g:memory().last.shooter_id, kirk.id)
  test.ok(kor:fire_at(f, "torpedo") > 0)
  g:advance(4)
  local hits = hits_on(g, f)
  test.ok(#hits > 0, "torpedo hits")
  local last = g:memory().last
  test.eq(last.shooter_id, kor.id)
  test.eq(last.team, 1)
  test.eq(last.target_team, 0)
  test.eq(last.target_id, 0)
  test.eq(last.kind, "torpedo")
  test.ok(last.subsystem ~= nil and last.weapon_name ~= "" and last.weapon ~= 0)
  test.near(hits[1].damage, last.damage * 1.5, 1e-3)
end)
test.case("a broken rule leaves the hits as they were", function()
  local g = test.game()
  local kor = g:join("Kor")
  kor:chat("!team 1")
  kor:chat("!break")
  kor:spawn("Vorcha", { 0, 0, 0 })
  test.ok(kor:fire_at(g:memory().freighter, "torpedo") > 0)
  g:advance(4)
  local hits = hits_on(g, g:memory().freighter)
  test.ok(#hits > 0)
  test.eq(hits[1].damage, g:memory().last.damage)
  local errs = g:errors()
  test.ok(#errs > 0 and errs[1]:find("(damage rule)", 1, true) and errs[1]:find("rule bug", 1, true), errs[1])
end)
test.case("a mission deals damage and credits the kill", function()
  local g = test.game()
  local kor = g:join("Kor")
  kor:chat("!sensors")
  test.eq(kor:last("chat").text, "true")
  local f = g:ship(g:memory().freighter)
  kor:chat("!hurt 100")
  test.eq(kor:last("chat").text, "true")
  local hits = hits_on(g, f.id)
  test.eq(#hits, 2)
  test.eq(hits[2].kind, "mission")
  test.eq(hits[2].shooter_id, kor.id)
  test.eq(hits[2].damage, 100)
  test.ok(g:ship(f.id).hull < 1)
  kor:chat("!hurt 1000000")
  test.eq(g:memory().killed, { victim = f.id, killer = kor.id, kind = "mission" })
  kor:chat("!hurt 1")
  test.eq(kor:last("chat").text, "false")
end)
`)},
	})
	if sum.Passed != 3 || sum.Failed != 0 {
		t.Fatalf("%+v\n%s", sum, out)
	}
	if strings.Contains(out, "FAIL") {
		t.Fatal(out)
	}
}
