-- Tests of the deathmatch mode, run by `bcserver test-missions missions`
-- against the real engine with scripted players (docs/testing-missions.md).

test.case("a phaser kill scores for the shooter", function()
  local g = test.game { config = { frag_limit = 2 } }
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:spawn("Sovereign")
  bob:spawn("Akira")
  alice:kill(bob)
  local sc = bob:last("score_change")
  test.eq(sc.killer, alice.id, "killer")
  test.eq(sc.victim, bob.id, "victim")
  test.eq(sc.killer_kills, 1, "kills")
  test.ok(sc.killer_score > 0, "the damage scored")
  test.eq(alice:player().score, sc.killer_score, "GameSpy score")
  test.eq(alice:player().kills, 1, "GameSpy kills")
  test.eq(bob:player().deaths, 1, "GameSpy deaths")
  test.eq(g:memory().kills[alice.id], 1, "bc.memory")
end)

test.case("ramming kills are credited to the rammer", function()
  local g = test.game {}
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:spawn("Sovereign")
  bob:spawn("Akira")
  alice:ram(bob, 30)
  test.ok(not bob:alive(), "the Akira gave way")
  local sc = alice:last("score_change")
  test.eq(sc.killer, alice.id)
  test.eq(sc.victim_deaths, 1)
end)

test.case("a self-destruct is a death and nobody's kill", function()
  local g = test.game {}
  local alice, bob = g:join("Alice"), g:join("Bob")
  bob:spawn("Akira")
  bob:self_destruct()
  local sc = alice:last("score_change")
  test.eq(sc.killer, 0)
  test.eq(sc.victim, bob.id)
  test.eq(sc.victim_deaths, 1)
end)

test.case("the frag limit ends the game and the server restarts it", function()
  local g = test.game { config = { frag_limit = 1, restart_after = 5 } }
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:spawn("Sovereign")
  bob:spawn("Akira")
  alice:kill(bob)
  -- One kill is not 10000 points: keep killing until the limit.
  for _ = 1, 100 do -- bounded: a broken limit fails here, not at the file timeout
    if g:game_over() then break end
    bob:spawn("Akira")
    alice:kill(bob)
  end
  test.ok(g:game_over(), "the frag limit was reached within 100 kills")
  test.eq(bob:last("end_game").reason, 3, "END_GAME: score limit reached")
  bob:clear()
  g:advance(5)
  test.ok(bob:last("restart_game"), "RESTART_GAME after restart_after")
  test.eq(g:memory().kills[alice.id], 0, "tables zeroed")
end)

test.case("a late joiner gets the scores", function()
  local g = test.game {}
  local alice, bob = g:join("Alice"), g:join("Bob")
  bob:spawn("Akira")
  bob:self_destruct()
  local carol = g:join("Carol")
  local rows = carol:messages("score")
  test.eq(#rows, 2, "one row per player before him")
  test.eq(rows[2].player, bob.id)
  test.eq(rows[2].deaths, 1)
end)

test.case("a restart of the server begins a new match", function()
  local g = test.game { config = { frag_limit = 2 } }
  local alice, bob = g:join("Alice"), g:join("Bob")
  alice:spawn("Sovereign")
  bob:spawn("Akira")
  alice:kill(bob)
  -- As a host with [lua] storage_dir restarts it: bc.storage comes back,
  -- the match (bc.memory) does not.
  g:restart()
  local carol = g:join("Carol")
  test.eq(#carol:messages("score"), 0, "no score rows from the last run")
  test.eq(g:memory().kills, { [carol.id] = 0 }, "no kills from the last run")
end)
