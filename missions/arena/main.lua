-- Arena: a class-restricted two-against-two. Not a stock mode: stock
-- clients play it as Team Death-Match (Mission2: the team toggle on the
-- ship-select screen, the team scoreboard), and the host adds the rules a
-- custom ruleset needs:
--   * which ships each team may fly, enforced by the host (bc.set_ship_rules);
--   * at most team_size players flying per team (a ship_requested veto);
--   * damage and durability factors per team, from [mission];
--   * a "kills by weapon" board for the match (!kills);
--   * standings by player name that outlive restarts of the server (!standings).
-- Written only against the public API (docs/lua-api.md) and lib/;
-- README.md explains the rules and the options.
local stock = require("stock")
local teams = require("teams")

local c = bc.config
local opt = {
  team_size = c.team_size or 2,
  classes = {
    [0] = c.team0_classes or { "Akira", "Galaxy", "Nebula", "Sovereign" },   -- "Team 1" on the client
    [1] = c.team1_classes or { "BirdOfPrey", "Vorcha", "Warbird", "Keldon" }, -- "Team 2"
  },
}
local TEAM_NAME = { [0] = "Team 1", [1] = "Team 2" }

-- The scoring is Team Death-Match's (lib/teams.lua on lib/stock.lua), so
-- the stock scoreboard shows it; its match tables are stock.state.
local mode = teams.apply(stock.mode {
  script = "Multiplayer.Episode.Mission2.Mission2",
  map_name = "Arena",
  defaults = { time_limit = 10 },
})

-- What outlives the server (bc.storage) and what belongs to the running
-- game (bc.memory): after a restart the board starts empty by itself.
local R, M, S = bc.storage, bc.memory, stock.state
R.standings = R.standings or {} -- [name] = { matches, wins, kills }
M.by_how = M.by_how or {}       -- [player id] = { [how] = kills } this match

local function tell(id, text) bc.send(id, bc.msg.chat { sender = bc.host_id, text = text }) end
local function say(text) bc.broadcast(bc.msg.chat { sender = bc.host_id, text = text }) end

-- 1. Ship rules: each team flies its own classes. Set on every load, so a
-- reload applies an edited list; the host enforces them (a refused ship is
-- seen by nobody, its pilot reads why and picks again).
local function all_classes()
  local seen, out = {}, {}
  for t = 0, 1 do
    for _, name in ipairs(opt.classes[t]) do
      if not seen[name] then
        seen[name] = true
        out[#out + 1] = name
      end
    end
  end
  return out
end

bc.on("mission_load", "arena", function()
  bc.set_ship_rules { classes = all_classes(), teams = { [0] = opt.classes[0], [1] = opt.classes[1] } }
end)

-- 2. Two against two: a ship for a team that already has team_size
-- pilots flying is refused. Stock clients announce their team (TEAM 0x41,
-- lib/stock.lua calls bc.set_team) before their ship, so ev.team is set.
local function flying(team, except)
  local n = 0
  for _, s in ipairs(bc.ships()) do
    if s.is_player_ship and s.team == team and s.owner_id ~= except then n = n + 1 end
  end
  return n
end

bc.on("ship_requested", "arena", function(ev)
  if ev.team == nil then return false, "Pick a team first." end
  if flying(ev.team, ev.player.id) >= opt.team_size then
    return false, ("%s is full (%d of %d). Pick the other team."):format(TEAM_NAME[ev.team], opt.team_size, opt.team_size)
  end
end)

-- 3. Kills by how, for this match: ship_destroyed names what killed
-- (kind: phaser, pulse, torpedo, collision, self_destruct).
local function how(ev)
  if ev.kind ~= "" then return ev.kind end
  return ev.cause
end

bc.on("ship_destroyed", "arena", function(ev)
  local K = ev.killer_id
  if bc.game_over() or K == 0 or not ev.victim.is_player_ship or K == ev.victim.owner_id then return end
  local row = M.by_how[K] or {}
  M.by_how[K] = row
  local h = how(ev)
  row[h] = (row[h] or 0) + 1
end)

-- 4. Evening out the fleets: damage and durability factors per team from
-- [mission] (docs/lua-api.md "Damage and durability modifiers"); the host's
-- combat model applies them, so every client sees the result. Set on every
-- load, next to the ship rules.
local FACTORS = { "damage_dealt", "hull_damage", "shield_recharge" }

local function team_factors(t)
  local f, any = {}, false
  for _, k in ipairs(FACTORS) do
    local v = c[("team%d_%s"):format(t, k)]
    if v ~= nil then
      f[k], any = v, true
    end
  end
  return any and f or nil
end

bc.on("mission_load", "arena-modifiers", function()
  local teams_f = {}
  local any = false
  for t = 0, 1 do
    local f = team_factors(t)
    if f then
      teams_f[t], any = f, true
    end
  end
  bc.set_modifiers(any and { teams = teams_f } or nil)
end)

bc.command("kills", function(ev)
  local lines = {}
  for _, p in ipairs(bc.players()) do
    local row = M.by_how[p.id]
    if row then
      local parts = {}
      for h, n in pairs(row) do parts[#parts + 1] = ("%d %s"):format(n, h) end
      table.sort(parts)
      lines[#lines + 1] = p.name .. ": " .. table.concat(parts, ", ")
    end
  end
  if #lines == 0 then return "No kills yet this match." end
  return table.concat(lines, "; ")
end, "kills this match, by how: !kills")

-- 4. Standings by name, across matches and restarts.
local function standing(name)
  local s = R.standings[name]
  if not s then
    s = { matches = 0, wins = 0, kills = 0 }
    R.standings[name] = s
  end
  return s
end

bc.on("game_ended", "arena", function()
  local a, b = S.team_score[0] or 0, S.team_score[1] or 0
  local winner = a > b and 0 or b > a and 1 or nil
  for _, p in ipairs(bc.players()) do
    local t = S.teams[p.id]
    if p.in_game and t ~= nil then
      local s = standing(p.name)
      s.matches = s.matches + 1
      s.kills = s.kills + (S.kills[p.id] or 0)
      if t == winner then s.wins = s.wins + 1 end
    end
  end
  say(winner and (TEAM_NAME[winner] .. " wins the arena.") or "The arena ends in a draw.")
end)

bc.command("standings", function()
  local names = {}
  for name in pairs(R.standings) do names[#names + 1] = name end
  if #names == 0 then return "No matches played yet." end
  table.sort(names, function(x, y)
    local sx, sy = R.standings[x], R.standings[y]
    if sx.wins ~= sy.wins then return sx.wins > sy.wins end
    return x < y
  end)
  local out = {}
  for i = 1, math.min(5, #names) do
    local s = R.standings[names[i]]
    out[#out + 1] = ("%d. %s %d/%d won, %d kills"):format(i, names[i], s.wins, s.matches, s.kills)
  end
  return table.concat(out, "; ")
end, "the best five by matches won: !standings")

-- 5. A new match after a restart of the server. The standings came back
-- from the storage file (ev.restored); the stock match tables did too, but
-- their player and ship ids mean nothing now, so the match starts afresh.
bc.on("mission_load", "arena-restored", function(ev)
  M.restored = ev.restored
end)

function mode.on_start()
  if M.restored then bc.restart_game() end
end

function mode.on_restart()
  M.by_how = {}
end

bc.on("player_in_game", "arena", function(ev)
  tell(ev.player.id, ("Arena %dv%d. %s flies %s; %s flies %s. !kills, !standings"):format(
    opt.team_size, opt.team_size,
    TEAM_NAME[0], table.concat(opt.classes[0], ", "), TEAM_NAME[1], table.concat(opt.classes[1], ", ")))
end)

stock.install(mode)
