-- The tutorial mode, tested the way the tutorial's last step shows.

test.case("the last player with lives left wins the round", function()
  local g = test.game { config = { lives = 1, restart_after = 10 } }
  local alice, bob, carol = g:join("Alice"), g:join("Bob"), g:join("Carol")
  alice:spawn("Sovereign")
  bob:spawn("Akira")
  carol:spawn("Galaxy")
  alice:kill(bob)
  test.ok(not g:game_over(), "two players still have lives")
  carol:self_destruct()
  test.ok(g:game_over(), "one player left")
  local lines = {}
  for _, m in ipairs(alice:messages("chat")) do lines[#lines + 1] = m.text end
  test.eq(lines[#lines], "Alice is the last ship standing!")
  test.eq(alice:last("end_game").reason, 0)
  alice:clear()
  g:advance(10)
  test.ok(alice:last("restart_game"), "a new round after restart_after")
  test.eq(alice:last("chat").text, "New round!")
end)

test.case("a player who leaves loses his lives", function()
  local g = test.game { config = { lives = 1 } }
  local alice, bob, carol = g:join("Alice"), g:join("Bob"), g:join("Carol")
  bob:spawn("Akira")
  bob:self_destruct()
  test.ok(not g:game_over(), "Alice and Carol still fly")
  carol:leave()
  test.ok(g:game_over(), "Alice is the last one")
  test.eq(alice:last("chat").text, "Alice is the last ship standing!")
end)
