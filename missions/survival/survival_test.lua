-- Tests of the survival mode, run by `bcserver test-missions missions`.

local function raiders(g)
  local out = {}
  for _, s in ipairs(g:ships()) do
    if s.host and s.alive then out[#out + 1] = s end
  end
  return out
end

test.case("waves of raiders come once someone flies, stronger each time", function()
  local g = test.game { config = { wave_delay = 5 } }
  local alice = g:join("Alice")
  g:advance(10)
  test.eq(#raiders(g), 0, "no wave before anyone flies")
  alice:spawn("Sovereign", { 0, 0, 0 })
  g:advance(6)
  local wave = raiders(g)
  test.eq(#wave, 1, "wave 1: one raider")
  test.eq(wave[1].team, 1)
  test.ok(alice:last("chat").text:find("Wave 1", 1, true))
  local oc = alice:last("object_created")
  test.eq(oc.opcode, 0x02, "raiders are host objects")
  -- The raider closes in and opens fire.
  g:advance(20)
  local fire = 0
  for _, m in ipairs(alice:messages()) do
    if (m.type == "start_firing" or m.type == "pulse_fire" or m.type == "torpedo_fire") and m.target == alice:ship() then fire = fire + 1 end
  end
  test.ok(fire > 0, "the raider fires at the player")
  local r = g:ship(wave[1].id)
  test.ok(r.position[1] * r.position[1] + r.position[2] * r.position[2] < 250 * 250, "it came closer")
  -- Alice destroys it (worn down first: hull at 2 %, shields down, so she
  -- outlasts its guns): a stock kill for her, the wave bonus, then wave 2.
  g:set_condition(r, "Hull", 0.02)
  g:set_condition(r, "Shield Generator", 0)
  alice:attack(r)
  local sc = alice:last("score_change")
  test.eq(sc.killer, alice.id)
  test.eq(sc.victim, 0, "a raider has no owner")
  test.ok(alice:last("chat").text:find("Wave 1 cleared", 1, true))
  local row = alice:last("score")
  test.eq(row.player, alice.id)
  test.eq(row.score, sc.killer_score + 1000, "damage score plus the wave bonus")
  g:advance(6)
  test.eq(#raiders(g), 2, "wave 2: two raiders")
  test.eq(g:storage().best_wave, 1)
end)

test.case("the game is over when every player ship is dead", function()
  local g = test.game { config = { wave_delay = 2, restart_after = 5 } }
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:spawn("Akira")
  bob:spawn("Akira")
  g:advance(3)
  test.eq(#raiders(g), 1)
  alice:self_destruct()
  test.eq(bob:last("end_game"), nil, "Bob still flies")
  bob:self_destruct()
  test.eq(bob:last("end_game").reason, 0, "all ships lost")
  test.ok(bob:last("chat").text:find("lost on wave 1", 1, true))
  test.eq(#raiders(g), 0, "the raiders go with the game")
  g:advance(6)
  test.ok(bob:last("restart_game"), "a new game")
  test.eq(g:memory().wave, 0)
end)
