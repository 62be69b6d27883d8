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

-- Attackers fly 250 units out: the FedStarbase is about 200 across.
local RANGE = 250

-- starts_from lists the StartFiring messages a bot got for the starbase's
-- "Phasers" system (id + 5): one each time the AI adds a target
-- (simulation.md 3.6).
local function starts_from(bot, sb)
  local out = {}
  for _, m in ipairs(bot:messages("start_firing")) do
    if m.weapon == sb.id + 5 then out[#out + 1] = m end
  end
  return out
end

-- beams_of groups the starbase's weapon hits (each 0.53-s quantum is one)
-- from the since-th hit on into beams: a run of hits from one bank.
local function beams_of(g, sb, since)
  local out = {}
  for _, h in ipairs(g:hits(since)) do
    if h.shooter == sb.id then
      local last = out[#out]
      if last and last.weapon == h.weapon and h.at - last.stop < 1 then
        last.stop, last.damage, last.n = h.at, last.damage + h.damage, last.n + 1
      else
        out[#out + 1] = { weapon = h.weapon, target = h.target, start = h.at, stop = h.at, damage = h.damage, n = 1 }
      end
    end
  end
  return out
end

-- dealt sums the damage a ship's weapons dealt to target.
local function dealt(g, shooter, target)
  local sum = 0
  for _, h in ipairs(g:hits()) do
    if h.shooter == shooter and h.target == target then sum = sum + h.damage end
  end
  return sum
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
  -- Worn down to 2,200 hull points, so two Sovereigns' phasers finish it
  -- within the test.
  g:set_condition(sb, "Hull", 0.01)
  alice:spawn("Sovereign", near(sb, 0, RANGE, 0))
  bob:spawn("Sovereign", near(sb, 0, -RANGE, 0))
  carol:spawn("Akira", near(sb, RANGE, 0, 0))
  -- Alice softens it up, Bob finishes it.
  alice:fire_at(sb)
  g:advance(6)
  alice:stop_firing()
  test.ok(dealt(g, alice:ship(), sb.id) > 0, "Alice's phasers hit")
  bob:attack(sb)
  test.ok(not starbase(g), "the starbase exploded")
  local sc = carol:last("score_change")
  test.eq(sc.killer, bob.id, "the last shot's owner")
  test.eq(sc.killer_kills, 1)
  -- The ledger pays each contributor its damage / 10, truncated
  -- (missions.md 3.4-3.5).
  local a, b = math.floor(dealt(g, alice:ship(), sb.id) / 10), math.floor(dealt(g, bob:ship(), sb.id) / 10)
  test.eq(sc.killer_score, b)
  test.eq(sc.victim, 0, "the starbase has no owner")
  test.eq(sc.victim_deaths, 1)
  test.eq(sc.extras, { { player = alice.id, score = a } })
  local ts = carol:messages("team_score")
  local t0 = ts[#ts - 1]
  test.eq(t0.team, 0)
  test.eq(t0.kills, 1)
  test.ok(math.abs(t0.score - (a + b)) <= 1, "the attackers' team score")
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
  alice:spawn("Sovereign", near(sb, 0, RANGE, 0))
  carol:spawn("Sovereign", near(sb, 0, -RANGE, 0))
  g:advance(6.5)
  test.eq(#starts_from(carol, sb), 0, "dormant for 7 s")
  test.eq(#beams_of(g, sb), 0, "no hits while dormant")
  g:advance(1)
  local starts = starts_from(carol, sb)
  test.eq(#starts, 1, "StartFiring once awake, naming the Phasers system")
  test.eq(starts[1].target, alice:ship(), "at the attacker")
  test.eq(#carol:messages("pulse_fire"), 0, "phasers are never sent as 0x1A")
  g:advance(30)
  -- Single fire: one bank beams at a time; a beam runs until the bank's
  -- charge (up to 4.0, drained at 1/s) is spent, then the next bank that
  -- bears takes over. The first damage lands 1.156 s after the start.
  local beams = beams_of(g, sb)
  test.ok(#beams >= 3, "the starbase keeps firing as its banks allow")
  test.ok(beams[1].start >= 7 + 1.1 and beams[1].start <= 7.5 + 1.3, "the first quantum 1.156 s after the start")
  for i, b in ipairs(beams) do
    test.eq(b.target, alice:ship(), "never at a defender")
    test.ok(b.stop - b.start <= 4, "a beam lasts at most the bank's 4 s of charge")
    if i > 1 then
      test.ok(b.start > beams[i - 1].stop, "one bank at a time")
    end
  end
  g:advance(23)
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
  test.eq(#starts_from(carol, new), 0, "the attacker list is empty after a restart")
end)

test.case("a starbase with disabled sensors stops firing until they are repaired", function()
  local g = test.game {}
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Sovereign", near(sb, 0, RANGE, 0))
  g:advance(9)
  test.ok(#beams_of(g, sb) >= 1, "firing")
  g:set_condition(sb, "Sensor Array", 0.4) -- below its 50 % disabled level
  carol:clear()
  g:advance(4) -- the AI notices at its next update and stops the system
  local stops = carol:messages("stop_firing")
  test.ok(#stops >= 1 and stops[1].weapon == sb.id + 5, "StopFiring for the Phasers system")
  local n = #g:hits()
  g:advance(20)
  test.eq(#beams_of(g, sb, n + 1), 0, "silent while the sensors are down")
  g:set_condition(sb, "Sensor Array", 1)
  g:advance(5)
  test.ok(#beams_of(g, sb, n + 1) >= 1, "firing again")
end)

test.case("an attacker killed by the starbase is a defender kill; the frag limit ends with reason 2", function()
  local g = test.game { config = { frag_limit = 1 } }
  local alice, carol = g:join("Alice"), g:join("Carol")
  alice:team(0)
  carol:team(1)
  local sb = starbase(g)
  alice:spawn("Shuttle", near(sb, 0, RANGE, 0))
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
  alice:spawn("Sovereign", near(sb, 0, RANGE, 0))
  g:advance(9)
  test.ok(#beams_of(g, sb) >= 1, "firing")
  test.eq(g:reload(), nil, "the reload succeeded")
  -- The new version's AI (its brain and group carried in bc.memory)
  -- takes on an attacker who arrives after the reload.
  alice:self_destruct()
  local bob = g:join("Bob")
  bob:team(0)
  bob:spawn("Sovereign", near(sb, 0, -RANGE, 0))
  local n = #g:hits()
  g:advance(20)
  test.eq(starbase(g).id, sb.id, "the same starbase")
  local at_bob = 0
  for _, b in ipairs(beams_of(g, sb, n + 1)) do
    if b.target == bob:ship() then at_bob = at_bob + 1 end
  end
  test.ok(at_bob >= 1, "the starbase fires at the new attacker")
end)
