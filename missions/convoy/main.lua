-- Convoy: team 0 (a client's "Team 1") escorts a freighter the host flies
-- across the map; team 1 ("Team 2") must destroy it before it gets
-- through. Not a stock mode: clients play it as Team Death-Match
-- (Mission2), and the host adds
--   * each team's own classes (bc.set_ship_rules),
--   * a damage rule: team 1's torpedoes do torpedo_bonus (1.5x) to the
--     freighter, and team 0 cannot hurt it (bc.set_damage_rule),
--   * the freighter's progress in chat every progress_every seconds,
--   * a winner on record: team 1 when the freighter dies (its killer
--     credited), team 0 when it arrives or the time runs out (bc.end_game),
--   * teams kept across restarts (stock_teams_reset_on_restart = false),
--   * a welcome with a returning player's career (bc.stats).
-- README.md explains the rules and the options; convoy_test.lua plays it.
local stock = require("stock")
local teams = require("teams")

local c = bc.config
local opt = {
  route = c.route or { { 0, 0, 0 }, { 0, 1800, 0 } }, -- the freighter's waypoints, world units
  speed = c.freighter_speed,                           -- world units a second (nil: its top speed, 3)
  hull = c.freighter_hull or 1,                        -- the hull it starts with, 0..1
  torpedo_bonus = c.torpedo_bonus or 1.5,
  progress_every = c.progress_every or 30,             -- seconds between progress lines
  classes = {
    [0] = c.team0_classes or { "Akira", "Ambassador", "Galaxy", "Nebula", "Sovereign" }, -- "Team 1": the escort
    [1] = c.team1_classes or { "BirdOfPrey", "Vorcha", "Warbird", "Keldon", "Galor" },    -- "Team 2": the raiders
  },
}
local ESCORT, RAIDERS = 0, 1

local mode = teams.apply(stock.mode {
  script = "Multiplayer.Episode.Mission2.Mission2",
  map_name = "Convoy",
  defaults = { time_limit = 15 },
})
-- A player keeps his side from one round to the next unless the host
-- asks for the stock quirk.
if c.stock_teams_reset_on_restart == nil then mode.options.teams_reset_on_restart = false end

local S, M = stock.state, bc.memory -- M.freighter, M.leg, M.next_progress

local function say(text) bc.broadcast(bc.msg.chat { sender = bc.host_id, text = text }) end
local function tell(id, text) bc.send(id, bc.msg.chat { sender = bc.host_id, text = text }) end

-- The freighter: a host ship on the escort's team, flying the route.
local function launch()
  local f = bc.create_ship { class = "CardFreighter", name = "Freighter", team = ESCORT, position = opt.route[1] }
  M.freighter, M.leg, M.greeted = f.id, 2, {}
  M.next_progress = bc.game_time() + opt.progress_every
  if opt.hull < 1 then f:set_condition("hull", opt.hull) end
  f:move_to(opt.route[2], opt.speed, 10)
end

local function freighter()
  local f = M.freighter and bc.ship(M.freighter)
  if f and f:alive() then return f end
end

-- How far along the route it is, 0..1.
local function progress(f)
  local total, done = 0, 0
  for i = 2, #opt.route do
    local a, b = opt.route[i - 1], opt.route[i]
    local len = math.sqrt((b[1] - a[1]) ^ 2 + (b[2] - a[2]) ^ 2 + (b[3] - a[3]) ^ 2)
    total = total + len
    if i < M.leg then done = done + len elseif i == M.leg then done = done + math.max(len - f:distance(b), 0) end
  end
  return total > 0 and done / total or 1
end

bc.on("mission_load", "convoy", function()
  local all = {}
  for t = 0, 1 do for _, name in ipairs(opt.classes[t]) do all[#all + 1] = name end end
  bc.set_ship_rules { classes = all, teams = { [ESCORT] = opt.classes[ESCORT], [RAIDERS] = opt.classes[RAIDERS] } }
  -- The damage rule runs for every weapon hit: keep it short.
  bc.set_damage_rule(function(hit)
    if hit.target.id ~= M.freighter then return end
    if hit.team == ESCORT then return false end -- the escort cannot hurt its own charge
    if hit.team == RAIDERS and hit.kind == "torpedo" then return hit.damage * opt.torpedo_bonus end
  end)
end)

mode.on_start = launch
mode.on_restart = launch

-- The freighter counts as a kill for whoever destroys it (victim 0, as a
-- host ship); the players' own deaths are Team Death-Match's.
function mode.victim(ship)
  if ship.is_player_ship then return ship.owner_id end
  if ship.id == M.freighter then return 0 end
end
mode.ledger_all_ships = true

function mode.after_death(ship, K)
  if ship.id ~= M.freighter then return end
  local who = K ~= 0 and bc.player(K)
  local why = who and ("the freighter was destroyed by " .. who.name) or "the freighter was destroyed"
  say(why:sub(1, 1):upper() .. why:sub(2) .. ". Team 2 wins!")
  stock.end_game(bc.END.ITS_JUST_OVER, { winner_team = RAIDERS, why = why })
end

-- The escort wins when the freighter arrives, or when the time runs out.
function mode.outcome(reason)
  if reason == bc.END.TIME_UP then return { winner_team = ESCORT, why = "the freighter held out until the time ran out" } end
  return {}
end

bc.on("second", "convoy", function()
  local f = freighter()
  if S.game_over or not f then return end
  local to = opt.route[M.leg]
  if f:distance(to) <= 12 then
    if M.leg < #opt.route then
      M.leg = M.leg + 1
      f:move_to(opt.route[M.leg], opt.speed, 10)
    else
      say("The freighter got through. Team 1 wins!")
      stock.end_game(bc.END.ITS_JUST_OVER, { winner_team = ESCORT, why = "the freighter got through" })
      return
    end
  end
  if bc.game_time() >= (M.next_progress or 0) then
    M.next_progress = bc.game_time() + opt.progress_every
    say(("Freighter: %d%% of the way, hull %d%%."):format(math.floor(progress(f) * 100), math.floor((f:hull() or 0) * 100)))
  end
end)

-- A returning player hears his record once per match.
bc.on("ship_created", "convoy", function(ev)
  local ship = ev.ship
  if not ship.is_player_ship then return end
  local id = ship.owner_id
  if M.greeted[id] then return end
  local s = bc.stats(id)
  if s and s.matches > 0 then
    M.greeted[id] = true
    tell(id, ("Welcome back: %d matches, %d wins, %d kills."):format(s.matches, s.wins, s.kills))
  end
end)

stock.install(mode)
