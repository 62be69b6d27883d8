-- A recorded match (test.game{record = true}) reads back with the score
-- table and the kill list the game itself reported. Run by
-- `bcserver test-missions missions`.

test.case("a recorded match reads back with its scores and kills", function()
  local g = test.game { record = true, config = { wave_delay = 5, restart_after = -1 } }
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:chat("good luck, Bob")
  alice:spawn("Sovereign", { 0, 0, 0 })
  bob:spawn("Akira", { 0, 60, 0 })
  g:advance(6)
  local raider
  for _, s in ipairs(g:ships()) do
    if s.host and s.alive then raider = s end
  end
  test.ok(raider, "the first raider came")
  -- The stock weapon model takes minutes to wear a ship down: the raider
  -- and Bob are worn down (hull low, shields gone) so the match plays out
  -- in seconds.
  local function wear(ship_id)
    g:set_condition(ship_id, "Hull", 0.05)
    g:set_condition(ship_id, "Shield Generator", 0)
  end
  g:advance(10)
  bob:chat("raider closing", true)
  wear(raider)
  alice:attack(raider)
  g:advance(2)
  if not bob:alive() then bob:spawn("Akira", { 40, 60, 0 }) end
  wear(bob:ship())
  alice:kill(bob)
  g:advance(2)
  bob:spawn("Akira", { -40, 60, 0 })
  g:advance(1)
  alice:self_destruct()
  bob:self_destruct()
  g:advance(1)
  test.ok(g:game_over(), "every player ship lost ends the game")

  local rec = g:recording()
  test.ok(rec, "the match was recorded")
  test.eq(rec.reason, "its_just_over")
  test.eq(rec.mode, "survival")
  -- The score table: what the engine reports for each player.
  test.eq(#rec.players, 2)
  for _, b in ipairs({ alice, bob }) do
    local want = b:player()
    local got
    for _, p in ipairs(rec.players) do
      if p.id == b.id then got = p end
    end
    test.eq({ got.name, got.kills, got.deaths, got.score }, { want.name, want.kills, want.deaths, want.score }, b.name)
  end
  -- The kill list: every explosion the players were told of, in order.
  local told = alice:messages("object_exploding")
  test.eq(#rec.kills, #told)
  for i, m in ipairs(told) do
    test.eq({ rec.kills[i].victim_ship, rec.kills[i].killer_id }, { m.dst, m.firing_player }, "kill " .. i)
  end
  test.eq(rec.kills[1].victim_host or rec.kills[2].victim_host, true, "the raider is among them")
  test.eq(rec.chat[1].text, "good luck, Bob")
end)
