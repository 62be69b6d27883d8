-- Tests of Defend the Starbase (stock Mission5, missions.md 4.4), run by
-- `bcserver test-missions missions` against the real engine with scripted
-- players (docs/testing-missions.md).

-- starbase returns the game's starbase (the only host ship of species 30).
local function starbase(g)
  for _, s in ipairs(g:ships()) do
    if s.species == 30 and s.host and s.alive then return s end
  end
end

-- near places a point off the starbase's centre.
local function near(sb, dx, dy, dz)
  local p = sb.position
  return { p[1] + dx, p[2] + dy, p[3] + dz }
end

-- beams_from lists the BeamFire messages a bot got from the starbase's banks.
local function beams_from(bot, sb)
  local out = {}
  for _, m in ipairs(bot:messages("beam_fire")) do
    if m.weapon >= sb.id + 6 and m.weapon <= sb.id + 13 then out[#out + 1] = m end
  end
  return out
end

test.case("the starbase is a host object at a free random point, announced with ObjCreate 0x02", function()
  local g = test.game {}
  local alice = g:join("Alice")
  local sb = starbase(g)
  test.ok(sb, "a starbase at mission start")
  test.eq(sb.name, "Starbase")
  test.eq(sb.owner, 0, "no owner: not a player ship")
  test.ok(sb.id < 0x3FFFFFFF, "id outside every player block")
  for i = 1, 3 do
    test.ok(sb.position[i] >= -150 and sb.position[i] <= 149, "inside the placement cube")
  end
  local oc = alice:messages("object_created")
  test.eq(#oc, 1, "replicated to the joiner")
  test.eq(oc[1].opcode, 0x02, "ObjCreate, not ObjCreateTeam")
  test.eq(oc[1].id, sb.id)
  test.eq(oc[1].owner_slot, 15, "the host slot, no player's")
  test.eq(oc[1].species, 30)
end)

test.case("attackers destroy the starbase: stock scores, then END_GAME 4 once it is deleted", function()
  local g = test.game { config = { time_limit = 10 } }
  local alice, bob, carol = g:join("Alice"), g:join("Bob"), g:join("Carol")
  alice:team(0)
  bob:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Sovereign", near(sb, 0, 60, 0))
  bob:spawn("Sovereign", near(sb, 0, -60, 0))
  carol:spawn("Akira", near(sb, 60, 0, 0))
  -- Alice softens it up, Bob lands the last shot.
  local alice_beams = 0
  for _ = 1, 20 do
    alice_beams = alice_beams + alice:fire_at(sb)
    g:advance(0.6)
  end
  local bob_beams = bob:attack(sb)
  test.ok(not starbase(g), "the starbase exploded")
  local sc = carol:last("score_change")
  test.eq(sc.killer, bob.id, "the last shot's owner")
  test.eq(sc.killer_kills, 1)
  -- Every beam hit for 300 (a Sovereign bank at under 70 units); the
  -- ledger pays damage / 10.
  test.eq(sc.killer_score, bob_beams * 30)
  test.eq(sc.victim, 0, "the starbase has no owner")
  test.eq(sc.victim_deaths, 1)
  test.eq(sc.extras, { { player = alice.id, score = alice_beams * 30 } })
  local ts = carol:messages("team_score")
  test.eq(ts[#ts - 1], { type = "team_score", opcode = 0x40, team = 0, kills = 1, score = (alice_beams + bob_beams) * 30, raw = ts[#ts - 1].raw })
  test.eq(carol:last("end_game"), nil, "no END_GAME while the starbase explodes")
  test.ok(not g:game_over())
  g:advance(10)
  test.eq(carol:last("end_game").reason, 4, "END_GAME: starbase destroyed")
  -- A later joiner gets the row for id 0 (the starbase's death).
  g:advance(30) -- the automatic restart
  local dave = g:join("Dave")
  local rows = dave:messages("score_init")
  test.eq(rows[1].player, 0)
  test.eq(rows[1].deaths, 0, "zeroed by the restart, kept as a row")
  test.eq(rows[1].team, 255)
  test.ok(starbase(g), "a new starbase after the restart")
end)

test.case("the starbase holds fire 7 s, then beams the attackers one bank at a time; time runs out for the defenders", function()
  local g = test.game { config = { time_limit = 1, restart_after = 5 } }
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Sovereign", near(sb, 0, 80, 0))
  carol:spawn("Sovereign", near(sb, 0, -80, 0))
  g:advance(6.5)
  test.eq(#beams_from(carol, sb), 0, "dormant for 7 s")
  g:advance(1)
  local beams = beams_from(carol, sb)
  test.eq(#beams, 1, "one beam once awake")
  test.eq(beams[1].target, alice:ship(), "at the attacker")
  -- A bank beams for 4 s (its charge of 4 at 1/s) and single fire lets
  -- no other bank start meanwhile; then the next bank that bears takes
  -- over, or the same one once recharged (6 s at 0.5/s).
  local starts, seen = { 7.5 }, 1
  for t = 8.5, 31.5 do
    g:advance(1)
    local n = #beams_from(carol, sb)
    if n > seen then
      test.eq(n, seen + 1, "one new beam in a second at most")
      starts[#starts + 1], seen = t, n
    end
  end
  test.ok(#starts >= 3, "the starbase keeps firing as its banks allow")
  for i = 2, #starts do
    test.ok(starts[i] - starts[i - 1] >= 4, "a beam starts no sooner than 4 s after the last")
  end
  for _, b in ipairs(beams_from(carol, sb)) do
    test.eq(b.target, alice:ship(), "never at a defender")
  end
  g:advance(30)
  test.eq(carol:last("end_game").reason, 1, "time up: the defenders win")
  local gone = carol:last("destroy_object")
  test.eq(gone and gone.id, sb.id, "the starbase is deleted with the game")
  carol:clear()
  g:advance(5)
  test.ok(carol:last("restart_game"), "restarted")
  local new = starbase(g)
  test.ok(new and new.id ~= sb.id, "a new starbase")
  test.eq(carol:last("object_created").id, new.id, "announced to everyone")
  g:advance(10)
  test.eq(#beams_from(carol, new), 0, "the attacker list is empty after a restart")
end)

test.case("a starbase with disabled sensors stops firing until they are repaired", function()
  local g = test.game {}
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Sovereign", near(sb, 0, 80, 0))
  g:advance(8)
  test.ok(#beams_from(carol, sb) >= 1, "firing")
  g:set_condition(sb, "Sensor Array", 0.4) -- below its 50 % disabled level
  g:advance(6) -- the beam on now runs dry
  carol:clear()
  g:advance(20)
  test.eq(#beams_from(carol, sb), 0, "silent while the sensors are down")
  g:set_condition(sb, "Sensor Array", 1)
  g:advance(1)
  test.ok(#beams_from(carol, sb) >= 1, "firing again")
end)

test.case("an attacker killed by the starbase is a defender kill; the frag limit ends with reason 2", function()
  local g = test.game { config = { frag_limit = 1 } }
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Shuttle", near(sb, 0, 80, 0))
  for _ = 1, 60 do
    if not alice:alive() then break end
    g:advance(1)
  end
  test.ok(not alice:alive(), "the starbase killed the shuttle")
  local sc = carol:last("score_change")
  test.eq(sc.killer, 0)
  test.eq(sc.victim, alice.id)
  local ts = carol:messages("team_score")
  test.eq(ts[#ts].team, 1)
  test.eq(ts[#ts].kills, 1, "a kill for the defenders")
  test.eq(carol:last("end_game").reason, 2, "frag limit reached")
end)

test.case("a reload keeps the starbase and its mind", function()
  local g = test.game {}
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Sovereign", near(sb, 0, 80, 0))
  g:advance(8)
  test.ok(#beams_from(carol, sb) >= 1, "firing")
  test.eq(g:reload(), nil, "the reload succeeded")
  -- The new version's AI (its brain and group carried in bc.storage)
  -- takes on an attacker who arrives after the reload.
  alice:self_destruct()
  local bob = g:join("Bob")
  bob:team(0)
  bob:spawn("Sovereign", near(sb, 0, -80, 0))
  carol:clear()
  g:advance(20)
  test.eq(starbase(g).id, sb.id, "the same starbase")
  local at_bob = 0
  for _, b in ipairs(beams_from(carol, sb)) do
    if b.target == bob:ship() then at_bob = at_bob + 1 end
  end
  test.ok(at_bob >= 1, "the starbase fires at the new attacker")
end)
