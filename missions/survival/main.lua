-- Survival: a co-op mode beyond stock. Every player flies for one side
-- against waves of AI ships of rising strength; each wave cleared scores a
-- bonus; the game is over when every player ship is dead at once. Written
-- only against the public Lua API (docs/lua-api.md) and lib/; README.md
-- is the tutorial that builds it.
local stock = require("stock")
local ai = require("ai")

local PLAYERS, RAIDERS = 0, 1

-- 1. The mode: a free-for-all to stock clients (Mission1's scoreboard),
-- with the stock scoring rules of lib/stock.lua.
local mode = stock.mode {
  script = "Multiplayer.Episode.Mission1.Mission1",
  map_name = "Survival",
  teams = false,
}
mode.ledger_all_ships = true -- damage to the raiders scores

local S = stock.state
local R = bc.storage -- the record, which outlives the server
local c = bc.config
local opt = {
  wave_delay = c.wave_delay or 15,         -- seconds between waves
  max_wave_ships = c.max_wave_ships or 8,  -- raiders in one wave at most
  spawn_distance = c.spawn_distance or 250, -- world units from the players
  wave_bonus = c.wave_bonus or 1000,       -- points x wave number per survivor
}

-- Raider classes by tier: each tier is stronger than the one before.
local TIERS = {
  { "Marauder", "BirdOfPrey" },
  { "Galor", "Vorcha" },
  { "Keldon", "Warbird" },
  { "CardHybrid", "KessokHeavy" },
}

local M = bc.memory -- host ship ids: kept over a reload, not over a restart
S.wave = S.wave or 0
M.raiders = M.raiders or {}  -- [ship id] = true while the wave lives
R.best_wave = R.best_wave or 0

local function say(text)
  bc.broadcast(bc.msg.chat { sender = bc.host_id, text = text })
end

-- 2. Who is flying: the live player ships, and where they are.
local function player_ships()
  local out = {}
  for _, s in ipairs(bc.ships()) do
    if s.is_player_ship then out[#out + 1] = s end
  end
  return out
end

local function centre(ships)
  local x, y, z = 0, 0, 0
  for _, s in ipairs(ships) do
    local p = s:position()
    x, y, z = x + p[1], y + p[2], z + p[3]
  end
  local n = math.max(#ships, 1)
  return { x / n, y / n, z / n }
end

-- 3. A wave: more and stronger raiders every time, on a ring around the
-- players, each with the stock-like "attack" AI.
local function start_wave()
  local players = player_ships()
  if #players == 0 then return end
  S.wave = S.wave + 1
  local n = S.wave
  local count = math.min(opt.max_wave_ships, 1 + math.floor(n / 2))
  local tier = TIERS[math.min(#TIERS, 1 + math.floor((n - 1) / 3))]
  local c0 = centre(players)
  M.raiders = {}
  for k = 1, count do
    local angle = 2 * math.pi * (k / count + bc.random())
    local pos = {
      c0[1] + opt.spawn_distance * math.cos(angle),
      c0[2] + opt.spawn_distance * math.sin(angle),
      c0[3] + bc.random(-30, 30),
    }
    local class = tier[bc.random(#tier)]
    local ship = bc.create_ship { class = class, name = ("Raider %d-%d"):format(n, k), team = RAIDERS, position = pos }
    M.raiders[ship.id] = true
    ai.attach(ship, "attack", { enemy_team = PLAYERS, range = 45 })
  end
  say(("Wave %d: %d %s"):format(n, count, count == 1 and "raider" or "raiders"))
end

local function raiders_left()
  local n = 0
  for _ in pairs(M.raiders) do n = n + 1 end
  return n
end

-- 4. Clearing a wave: every player still flying gets the bonus.
local function wave_cleared()
  local bonus = opt.wave_bonus * S.wave
  for _, s in ipairs(player_ships()) do
    local id = s.owner_id
    S.scores[id] = (S.scores[id] or 0) + bonus
    bc.broadcast(bc.msg.score { player = id, kills = S.kills[id] or 0, deaths = S.deaths[id] or 0, score = S.scores[id] })
  end
  R.best_wave = math.max(R.best_wave, S.wave)
  stock.report_all()
  say(("Wave %d cleared: %d points to every survivor"):format(S.wave, bonus))
  S.next_wave = bc.game_time() + opt.wave_delay
end

-- 5. Deaths, with the stock rules: a raider is victim 0, a player the
-- ship's owner; a player's kill counts.
function mode.victim(ship)
  if ship.is_player_ship then return ship.owner_id end
  if ship.is_ship then return 0 end
end

function mode.kill(K, _, kills_K)
  if K ~= 0 then return kills_K + 1 end
  return kills_K
end

function mode.after_death(ship)
  if M.raiders[ship.id] then
    M.raiders[ship.id] = nil
    if raiders_left() == 0 then wave_cleared() end
  elseif ship.is_player_ship and S.wave > 0 and #player_ships() == 0 then
    say(("Every ship is lost on wave %d"):format(S.wave))
    R.best_wave = math.max(R.best_wave, S.wave - 1)
    stock.end_game(bc.END.ITS_JUST_OVER, { why = ("every ship lost on wave %d"):format(S.wave) })
  end
end

function mode.check_limits() end

-- 6. Everyone is on the players' side; the first wave comes once someone
-- flies, the next ones after a pause.
bc.on("player_in_game", "survival", function(ev) bc.set_team(ev.player.id, PLAYERS) end)

bc.on("ship_created", "survival", function(ev)
  if ev.ship.is_player_ship then bc.set_team(ev.ship.owner_id, PLAYERS) end
end)

bc.on("second", "survival", function()
  if S.game_over or raiders_left() > 0 then return end
  if not S.next_wave then
    if #player_ships() > 0 then S.next_wave = bc.game_time() + opt.wave_delay end
    return
  end
  if bc.game_time() >= S.next_wave then
    S.next_wave = nil
    start_wave()
  end
end)

function mode.on_restart()
  S.wave, M.raiders, S.next_wave = 0, {}, nil
end

stock.install(mode)
