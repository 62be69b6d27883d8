package missiontest

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"
)

// run runs a missions folder's tests and returns the report.
func run(t *testing.T, fsys fstest.MapFS) (Summary, string) {
	t.Helper()
	var out bytes.Buffer
	sum, err := (&Runner{FS: fsys, Out: &out}).Run()
	if err != nil {
		t.Fatal(err)
	}
	return sum, out.String()
}

// A test file has bc's data and constants; test.game refuses a misspelt
// field rather than running with a default, and takes nested config.
func TestTestFilesHaveBCAndGameChecksItsFields(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua": {Data: []byte(`bc.storage.lives = bc.config.lives; bc.storage.classes = bc.config.classes; bc.storage.team = bc.config.teams and bc.config.teams.red`)},
		"m/m_test.lua": {Data: []byte(`
test.case("bc", function()
  test.eq(bc.END.TIME_UP, 1)
  test.eq(bc.OP.END_GAME, 0x38)
  test.eq(bc.species[5].script, "Sovereign")
  test.eq(bc.ship_class("galor").name, "Galor")
  test.eq(#bc.ship_classes(), 23)
  test.eq(bc.host_id, 1)
end)
test.case("misspelt", function() test.game { confg = { lives = 1 } } end)
test.case("config", function()
  local g = test.game { config = { lives = 2, classes = { "Galaxy", "Akira" }, teams = { red = 0 } } }
  test.eq(g:storage(), { lives = 2, classes = { "Galaxy", "Akira" }, team = 0 })
end)
`)},
	})
	if sum.Passed != 2 || sum.Failed != 1 || !strings.Contains(out, `m/m_test.lua:10: test.game: unknown field "confg" (want mode, config, addons, storage, record)`) {
		t.Fatalf("%+v\n%s", sum, out)
	}
}

// test.game{storage = ...} starts a game as after a restart with that
// bc.storage; g:restart() restarts the server: bc.storage comes back
// through the storage file's format, bc.memory does not, the players are
// gone and mission_start runs again.
func TestSeedingStorageAndRestarting(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"koth/main.lua": {Data: []byte(`
local S, M = bc.storage, bc.memory
S.standings = S.standings or {}
bc.on("mission_load", function(ev) S.restored = ev.restored end)
bc.on("mission_start", function() S.starts = (S.starts or 0) + 1; M.guard = bc.create_ship { class = "Galor" }.id end)
bc.on("player_in_game", function(ev)
  M.holder = ev.player.id
  S.standings[ev.player.name] = (S.standings[ev.player.name] or 0) + 1
end)
`)},
		"koth/koth_test.lua": {Data: []byte(`
test.case("seeded", function()
  local g = test.game { storage = { standings = { Alice = 5 }, [2] = "two" } }
  test.eq(g:storage().restored, true)
  test.eq(g:storage()[2], "two", "number keys stay numbers, as from the file")
  g:join("Alice")
  test.eq(g:storage().standings.Alice, 6)
end)
test.case("restart", function()
  local g = test.game {}
  local alice = g:join("Alice")
  test.eq(g:memory().holder, alice.id)
  local guard = g:memory().guard
  test.eq(#g:ships(), 1)
  g:restart()
  test.eq(g:memory().holder, nil, "bc.memory starts empty")
  test.ok(g:memory().guard ~= nil)
  test.eq(#g:ships(), 1, "the guard made once more, not twice")
  local s = g:storage()
  test.eq(s.standings.Alice, 1)
  test.eq(s.starts, 2)
  test.eq(s.restored, true)
  test.ok(not pcall(alice.chat, alice, "hi"), "the old players are gone")
  local bob = g:join("Bob")
  test.eq(g:storage().standings.Bob, 1)
end)
`)},
	})
	if sum.Passed != 2 || sum.Failed != 0 {
		t.Fatalf("%+v\n%s", sum, out)
	}
}

// A failed g:reload() hands the case its error once: the runner does not
// report it again as a mission error the case did not look at.
func TestFailedReloadIsReportedOnce(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua": {Data: []byte(`if bc.storage.loaded then bc.on("player_joind", function() end) end bc.storage.loaded = true`)},
		"m/m_test.lua": {Data: []byte(`
test.case("a broken reload", function()
  local g = test.game {}
  local err = g:reload()
  test.ok(err and err:find('unknown event "player_joind"', 1, true), err)
end)
`)},
	})
	if sum.Passed != 1 || strings.Contains(out, "unknown event") {
		t.Fatalf("%+v\n%s", sum, out)
	}
}

// A mission that fails to load fails test.game with the mission's own
// words: no engine-internal "plugin/missions:" prefix.
func TestLoadErrorInTheMissionsWords(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua":   {Data: []byte(`bc.on("mission_start", function() bc.create_ship { class = "Starbase" } end)`)},
		"m/m_test.lua": {Data: []byte("test.case(\"load\", function()\n  test.game {}\nend)\n")},
	})
	want := `m/m_test.lua:2: test.game: mission "m": mission_start handler: m/main.lua:1: bc.create_ship: class: no ship class "Starbase" (did you mean CardStarbase or FedStarbase?`
	if sum.Failed != 1 || !strings.Contains(out, want) || strings.Contains(out, "plugin/") {
		t.Fatalf("%+v\n%s", sum, out)
	}
}

// Test bots fire torpedoes (TorpedoFire 0x19, each tube once reloaded)
// and pulse bolts (PulseFire 0x1A) as well as phasers, at a bot or any
// object; asking a class for weapons it lacks fails the case.
func TestBotsFireTorpedoesAndPulse(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua": {Data: []byte(`bc.on("mission_start", function() bc.memory.target = bc.create_ship { class = "CardFreighter", name = "Freighter", position = { 0, 60, 0 } }.id end)`)},
		"m/m_test.lua": {Data: []byte(`
local function count(hits, kind, shooter)
  local n = 0
  for _, h in ipairs(hits) do if h.kind == kind and h.shooter_id == shooter then n = n + 1 end end
  return n
end
test.case("torpedoes", function()
  local g = test.game()
  local a, b = g:join("A"), g:join("B")
  a:spawn("Sovereign", { 0, 0, 0 })
  b:spawn("Akira", { 0, 40, 0 })
  local n = a:fire(b, "torpedo")
  test.ok(n > 0, "tubes fired")
  test.eq(a:fire(b, "torpedo"), 0, "reloading")
  g:advance(4)
  test.eq(count(g:hits(), "torpedo", a.id), n)
  test.eq(a:last("torpedo_fire"), nil, "the shooter is not told its own torpedoes")
  test.eq(b:last("torpedo_fire").firing_player, a.id)
end)
test.case("pulse at a host ship", function()
  local g = test.game()
  local w = g:join("W")
  w:spawn("Warbird", { 0, 0, 0 })
  local f = g:memory().target
  test.ok(w:fire_at(f, "pulse") > 0)
  g:advance(4)
  test.ok(count(g:hits(), "pulse", w.id) > 0)
  test.ok(w:attack(f, 400, { "torpedo", "pulse" }) > 0)
  test.eq(g:ship(f).alive, false)
end)
test.case("a Bird of Prey has no phasers", function()
  local g = test.game()
  local k = g:join("K")
  k:spawn("BirdOfPrey")
  k:fire_at(g:memory().target)
end)
`)},
	})
	if sum.Passed != 2 || sum.Failed != 1 || !strings.Contains(out, "a BirdOfPrey has no phaser (it has: torpedo") {
		t.Fatalf("%+v\n%s", sum, out)
	}
}

// bc.stats works in tests: test.careers seeds careers, and in a game
// with record = true the matches the test played add to them (and to
// the match history, g:matches(), with the mission's outcome); without
// either, bc.stats is nil as on a server without a store.
func TestCareersInTests(t *testing.T) {
	sum, out := run(t, fstest.MapFS{
		"m/main.lua": {Data: []byte(`
bc.on("mission_load", function() bc.set_mission { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "M", system = "Multi1" } end)
bc.command("career", function(ev)
  local s = bc.stats(ev.player.id)
  if not s then return "none" end
  return ("%d matches %d kills %d wins %s %d"):format(s.matches, s.kills, s.wins, s.favourite_class, s.damage_dealt.total)
end)
bc.command("end", function(ev) bc.set_score(ev.player.id, 2, 0, 20); bc.end_game(bc.END.ITS_JUST_OVER, { winner = ev.player.id, why = "said so" }) end)
`)},
		"m/m_test.lua": {Data: []byte(`
local function ask(g, who)
  who:chat("!career")
  return who:last("chat").text
end
test.case("no store", function()
  local g = test.game()
  test.eq(ask(g, g:join("Alice")), "none")
end)
test.case("seeded", function()
  test.careers { Alice = { matches = 12, kills = 30, wins = 2, favourite_class = "Galor", damage_dealt = { torpedo = 100, phaser = 50 } } }
  local g = test.game()
  test.eq(ask(g, g:join("alice")), "12 matches 30 kills 2 wins Galor 150")
  test.eq(ask(g, g:join("Bob")), "0 matches 0 kills 0 wins  0")
end)
test.case("recorded", function()
  test.careers { Alice = { matches = 12, kills = 30 } }
  local g = test.game { record = true }
  local alice = g:join("Alice")
  alice:chat("!end")
  g:advance(1)
  test.eq(ask(g, alice), "13 matches 32 kills 1 wins  0")
  local ms = g:matches()
  test.eq(#ms, 1)
  test.eq(ms[1].winner_name, "Alice")
  test.eq(ms[1].why, "said so")
  test.eq(ms[1].players[1].kills, 2)
  test.eq(g:recording().winner_name, "Alice")
end)
test.case("a misspelt field", function() test.careers { Alice = { kils = 1 } } end)
`)},
	})
	if sum.Passed != 3 || sum.Failed != 1 || !strings.Contains(out, `Alice: unknown field "kils"`) {
		t.Fatalf("%+v\n%s", sum, out)
	}
}
