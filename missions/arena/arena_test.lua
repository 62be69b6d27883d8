-- Tests of the arena, played by bots through the real engine
-- (docs/testing-missions.md). Bots announce their team before each spawn,
-- as stock Team Death-Match clients do.

local function join(g, name, team)
  local b = g:join(name)
  b:team(team)
  return b
end

test.case("each team flies its own classes; a refused ship is seen by nobody", function()
  local g = test.game {}
  local alice, bob = join(g, "Alice", 0), join(g, "Bob", 1)
  bob:spawn("Vorcha")
  bob:clear()
  local id, why = alice:spawn("Warbird")
  test.eq(id, nil, "Team 1 may not fly a Warbird")
  test.eq(why, "The Warbird is not allowed on your team. You may fly: Akira, Galaxy, Nebula, Sovereign.")
  test.eq(alice:last("chat").text, "[server] " .. why)
  test.ok(alice:last("object_exploding"), "Alice's client is sent back to ship select")
  test.eq(bob:messages("object_created"), {}, "Bob never sees the Warbird")
  test.ok(alice:spawn("Galaxy"), "Alice picks again")
  test.eq(#bob:messages("object_created"), 1)
  local _, no = bob:spawn("Sovereign")
  test.eq(no, "The Sovereign is not allowed on your team. You may fly: BirdOfPrey, Vorcha, Warbird, Keldon.")
  test.eq(#g:ships(), 2)
end)

test.case("two against two: a full team refuses a third pilot", function()
  local g = test.game {}
  local a, b, c = join(g, "A", 0), join(g, "B", 0), join(g, "C", 0)
  test.ok(a:spawn("Akira"))
  test.ok(b:spawn("Galaxy"))
  local id, why = c:spawn("Nebula")
  test.eq(id, nil)
  test.eq(why, "Team 1 is full (2 of 2). Pick the other team.")
  c:team(1)
  test.ok(c:spawn("Keldon"), "C joins Team 2")
  -- A pilot's own respawn does not count against his team.
  a:self_destruct()
  g:advance(10)
  test.ok(a:spawn("Sovereign"))
end)

test.case("kills are scored as Team Death-Match and told by weapon", function()
  local g = test.game {}
  local alice, bob, carol = join(g, "Alice", 0), join(g, "Bob", 1), join(g, "Carol", 1)
  alice:spawn("Sovereign")
  bob:spawn("BirdOfPrey")
  carol:spawn("Vorcha", { 0, 45, 0 })
  alice:kill(bob)
  local sc = bob:last("score_change")
  test.eq(sc.killer, alice.id)
  test.eq(sc.killer_kills, 1)
  local ts = bob:messages("team_score")
  test.eq(ts[#ts - 1].team, 0)
  test.eq(ts[#ts - 1].kills, 1, "Team 1 has the kill")
  -- A ram ends with one ship destroyed; whose depends on the collision
  -- model, the board's line on who.
  test.ok(alice:ram(carol, 50) > 0)
  local want = alice:alive() and "Alice: 1 collision, 1 phaser" or "Alice: 1 phaser; Carol: 1 collision"
  bob:chat("!kills")
  test.eq(bob:last("chat").text, want)
end)

test.case("the standings outlive a restart of the server; the match does not", function()
  local g = test.game { config = { time_limit = 1, restart_after = 0 } }
  local alice, bob = join(g, "Alice", 0), join(g, "Bob", 1)
  alice:spawn("Sovereign")
  bob:spawn("BirdOfPrey")
  -- Worn down so the kill lands well inside the minute (stock beams take
  -- longer than that to wear a full ship down).
  g:set_condition(bob:ship(), "Hull", 0.1)
  g:set_condition(bob:ship(), "Shield Generator", 0)
  alice:kill(bob)
  g:advance(61)
  test.eq(alice:last("end_game").reason, bc.END.TIME_UP)
  test.eq(alice:last("chat").text, "Team 1 wins the arena.")
  alice:chat("!standings")
  test.eq(alice:last("chat").text, "1. Alice 1/1 won, 1 kills; 2. Bob 0/1 won, 0 kills")

  g:restart()
  test.eq(g:memory().by_how, {}, "the board starts empty")
  local dave = join(g, "Dave", 0)
  dave:chat("!standings")
  test.eq(dave:last("chat").text, "1. Alice 1/1 won, 1 kills; 2. Bob 0/1 won, 0 kills")
  dave:chat("!kills")
  test.eq(dave:last("chat").text, "No kills yet this match.")
  test.eq(g:memory().team_kills[0], 0, "the old match was cleared")
  test.eq(g:game_over(), false)
end)

test.case("a reload keeps the rules and the board", function()
  local g = test.game {}
  local alice, bob = join(g, "Alice", 0), join(g, "Bob", 1)
  alice:spawn("Sovereign")
  bob:spawn("Warbird")
  alice:kill(bob)
  test.eq(g:reload(), nil)
  test.eq(g:memory().by_how[alice.id].phaser, 1)
  local _, why = bob:spawn("Galaxy")
  test.ok(why, "still refused after the reload")
end)

test.case("the classes come from [mission]", function()
  local g = test.game { config = { team0_classes = { "Shuttle" }, team1_classes = { "Galor" }, team_size = 1 } }
  local alice = join(g, "Alice", 0)
  local _, why = alice:spawn("Galaxy")
  test.eq(why, "The Galaxy is not allowed on your team. You may fly: Shuttle.")
  test.ok(alice:spawn("Shuttle"))
  local bob = join(g, "Bob", 0)
  local _, full = bob:spawn("Shuttle")
  test.eq(full, "Team 1 is full (1 of 1). Pick the other team.")
end)

test.case("a team's damage factors come from [mission] and reach the host's model", function()
  -- The same duel twice, the second with Team 2's weapons at 2x and Team
  -- 1's hull at 0.5x: Bob's beams deal twice the damage, and Alice's hull
  -- (shields down) loses the same.
  local function duel(config)
    local g = test.game { config = config }
    local alice, bob = join(g, "Alice", 0), join(g, "Bob", 1)
    alice:spawn("Sovereign", { 0, 0, 0 })
    bob:spawn("Warbird", { 0, 40, 0 })
    g:set_condition(alice:ship(), "Shield Generator", 0)
    g:set_condition(alice:ship(), "Repair", 0) -- no repairs meanwhile
    bob:fire(alice)
    g:advance(4)
    bob:stop_firing()
    local dealt = 0
    for _, h in ipairs(g:hits()) do
      if h.target == alice:ship() then dealt = dealt + h.damage end
    end
    return dealt, 1 - g:ship(alice:ship()).hull
  end
  local dealt, lost = duel({})
  test.ok(dealt > 0 and lost > 0, "Bob's beams hit Alice's hull")
  local dealt2, lost2 = duel({ team1_damage_dealt = 2, team0_hull_damage = 0.5 })
  test.near(dealt2, 2 * dealt, 1e-3, "twice the damage")
  test.near(lost2, lost, 1e-4, "half of it on the hull")
end)
