-- Convoy's rules, played by scripted players on the real engine
-- (bcserver test-missions missions/convoy).

-- join brings a player in on a team (TEAM 0x41, as a stock client does
-- before it spawns) and flies a ship.
local function join(g, name, team, class, pos)
  local b = g:join(name)
  b:team(team)
  b:spawn(class, pos)
  return b
end

-- hits lists the weapon hits of one shooter on one object.
local function hits(g, shooter, target)
  local out = {}
  for _, h in ipairs(g:hits()) do
    if h.shooter_id == shooter.id and h.target == target then out[#out + 1] = h end
  end
  return out
end

test.case("team 2's torpedoes do half as much again to the freighter; the escort's do nothing", function()
  local g = test.game()
  local kirk = join(g, "Kirk", 0, "Akira", { 60, 0, 0 })
  local kor = join(g, "Kor", 1, "Vorcha", { -60, 0, 0 })
  local f = g:memory().freighter
  test.ok(g:ship(f).alive, "the freighter flies")
  test.ok(kirk:fire_at(f, "torpedo") > 0)
  g:advance(8)
  test.eq(#hits(g, kirk, f), 0, "the escort's torpedoes land nowhere")
  -- What a Vorcha's torpedo does to a ship that is not the freighter.
  kirk:move({ -60, 40, 0 })
  test.ok(kor:fire_at(kirk, "torpedo") > 0)
  g:advance(6)
  local plain = hits(g, kor, kirk:ship())
  test.ok(#plain > 0, "torpedo hits on Kirk")
  g:advance(41) -- the tubes reload
  local p = g:ship(f).position -- the freighter has moved on: close in
  kor:move({ p[1] - 50, p[2], p[3] })
  test.ok(kor:fire_at(f, "torpedo") > 0)
  g:advance(8)
  local boosted = hits(g, kor, f)
  test.ok(#boosted > 0, "torpedo hits on the freighter")
  test.near(boosted[1].damage, plain[1].damage * 1.5, 1e-3)
end)

test.case("the freighter dies, its killer is credited and team 2 wins, on record", function()
  local g = test.game { record = true, config = { freighter_hull = 0.05 } }
  join(g, "Kirk", 0, "Akira", { 60, 0, 0 })
  local kor = join(g, "Kor", 1, "Vorcha", { -60, 0, 0 })
  local f = g:memory().freighter
  kor:attack(f, 300, "torpedo")
  test.eq(kor:last("end_game").reason, bc.END.ITS_JUST_OVER)
  test.eq(kor:last("chat").text, "The freighter was destroyed by Kor. Team 2 wins!")
  test.eq(kor:player().kills, 1)
  g:advance(1) -- the recording ends at the next tick
  local rec = g:recording()
  test.eq(rec.winner_team, 1)
  test.eq(rec.why, "the freighter was destroyed by Kor")
  local kill = rec.kills[#rec.kills]
  test.eq({ kill.victim, kill.killer, kill.victim_host }, { "Freighter", "Kor", true })
  local m = g:matches()[1]
  test.eq(m.winner_team, 1)
  test.ok(m.teams[1].kills >= 1, "team 2's kill in the team scores")
end)

test.case("the freighter gets through: team 1 wins", function()
  local g = test.game { record = true, config = { route = { { 0, 0, 0 }, { 0, 25, 0 } } } }
  join(g, "Kirk", 0, "Akira", { 60, 0, 0 })
  g:advance(20)
  test.ok(g:game_over(), "the game ended")
  test.eq(g:recording().winner_team, 0)
  test.eq(g:recording().why, "the freighter got through")
end)

test.case("each side flies its own classes", function()
  local g = test.game()
  local kirk = g:join("Kirk")
  kirk:team(0)
  local id, why = kirk:spawn("Vorcha")
  test.eq(id, nil)
  test.ok(why:find("not allowed on your team", 1, true), why)
end)

test.case("progress in chat; time up: team 1 wins; teams kept across the restart", function()
  local g = test.game { record = true, config = { time_limit = 1, restart_after = 5, progress_every = 30 } }
  local kor = join(g, "Kor", 1, "Vorcha", { -60, 0, 0 })
  g:advance(31)
  local line = kor:last("chat").text
  test.ok(line:match("^Freighter: %d+%% of the way, hull 100%%%.$"), line)
  local first = g:memory().freighter
  g:advance(30)
  test.eq(kor:last("end_game").reason, bc.END.TIME_UP)
  g:advance(1)
  test.eq(g:recording().winner_team, 0)
  g:advance(5) -- restart_after
  test.ok(kor:last("restart_game"), "restarted")
  test.eq(kor:player().team, 1, "Kor is still on team 1 (Team 2)")
  local second = g:memory().freighter
  test.ok(second ~= first and g:ship(second).alive, "a new freighter")
end)

test.case("a returning player hears his record", function()
  test.careers { Kor = { matches = 5, wins = 2, kills = 9 } }
  local g = test.game()
  local kor = join(g, "Kor", 1, "Vorcha", { -60, 0, 0 })
  test.eq(kor:last("chat").text, "Welcome back: 5 matches, 2 wins, 9 kills.")
end)
