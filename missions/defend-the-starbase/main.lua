-- Defend the Starbase (Multiplayer.Episode.Mission5, missions.md 4.4):
-- team 0 = Attackers, team 1 = Defenders, and an AI Federation starbase
-- (species 30) the attackers must destroy before the time runs out. The
-- shared rules are in lib/stock.lua, the starbase's AI in lib/ai.lua.
local stock = require("stock")
local ai = require("ai")

local STARBASE_SPECIES = 30

local mode = stock.mode {
  script = "Multiplayer.Episode.Mission5.Mission5",
  map_name = "DTS",
  teams = true,
  -- The time limit is mandatory here: 20 minutes unless configured.
  defaults = { time_limit = 20 },
}
if mode.options.time_limit <= 0 then mode.options.time_limit = 20 end
-- Starbase damage scores too, so every ship enters the ledger.
mode.ledger_all_ships = true

local S = stock.state

local function is_starbase(ship)
  return ship.id == S.starbase_id
end

-- random_orientation is a uniformly random rotation (the stock script
-- gives the starbase a random orientation; Shoemake's method).
local function random_orientation()
  local u1, u2, u3 = bc.random(), bc.random(), bc.random()
  local a, b = math.sqrt(1 - u1), math.sqrt(u1)
  local t2, t3 = 2 * math.pi * u2, 2 * math.pi * u3
  return { b * math.cos(t3), a * math.sin(t2), a * math.cos(t2), b * math.sin(t3) } -- w, x, y, z
end

-- starbase_position is the stock placement (missions.md 4.4): a random
-- integer point of the cube [-150, 149]^3 free for 1.1 x the starbase's
-- radius, up to 100 tries; then, from the origin, random steps of up to
-- 20 per axis until a free point turns up.
local function starbase_position()
  local clearance = bc.ship_class(STARBASE_SPECIES).radius * 1.1
  for _ = 1, 100 do
    local p = { bc.random(-150, 149), bc.random(-150, 149), bc.random(-150, 149) }
    if bc.location_free(p, clearance) then return p end
  end
  local p = { 0, 0, 0 }
  for _ = 1, 10000 do
    if bc.location_free(p, clearance) then break end
    p = { p[1] + bc.random(-20, 20), p[2] + bc.random(-20, 20), p[3] + bc.random(-20, 20) }
  end
  return p
end

-- create_starbase builds the starbase (Mission5.CreateStarbase): a
-- FedStarbase named "Starbase" (the stock name is a localized string),
-- with collision damage off and a random orientation, whose AI waits 7 s
-- of game time and then attacks the ships of the attacker group.
local function create_starbase()
  S.starbase_dead = false
  local sb = bc.create_ship {
    class = STARBASE_SPECIES, name = "Starbase", position = starbase_position(),
    orientation = random_orientation(), collisions = false,
  }
  S.starbase_id = sb.id
  -- The FedStarbase hardpoint makes its phasers single-fire (one bank
  -- beams at a time); the data set does not carry that property.
  sb:set_single_fire(true, "phasers")
  -- The stock script seeds the group with the starbase's own name "so the
  -- AI has something on the list"; the AI never targets itself.
  ai.group_add("attackers", sb.name)
  ai.attach(sb, "starbase_attack", { targets = "attackers", delay = 7 })
end

mode.on_start = create_starbase

-- RestartGame: the engine has deleted the old starbase; build a new one,
-- then empty the attacker group (stock order: the seed goes too).
function mode.on_restart()
  create_starbase()
  ai.group_clear("attackers")
end

-- Any ship counts; the starbase (owner 0) is victim 0, so deaths[0] grows
-- (missions.md 4.5.2).
function mode.victim(ship)
  if ship.is_ship then return ship.owner_id end
  return 0
end

function mode.kill(K, V, kills_K)
  if K ~= 0 then
    if S.teams[K] ~= nil and not stock.same_team(K, V) then
      local t = S.teams[K]
      S.team_kills[t] = (S.team_kills[t] or 0) + 1
      return kills_K + 1
    end
  elseif S.teams[V] == 0 then
    -- An attacker died to no player (self-destruct, collision, the
    -- starbase's guns): a kill for the defenders.
    S.team_kills[1] = (S.team_kills[1] or 0) + 1
  end
  return kills_K
end

function mode.after_death(ship, K)
  if is_starbase(ship) then
    -- Scoring and the clock stop now; END_GAME(4) follows when the
    -- starbase object is deleted after its explosion.
    S.starbase_dead = true
    S.game_over = true
    bc.log.info("starbase destroyed", { killer = K })
  end
end

function mode.on_object_destroyed(obj)
  if S.starbase_dead and obj.id == S.starbase_id then
    stock.end_game(bc.END.STARBASE_DEAD)
  end
end

-- Who won: the attackers (team 0) when the starbase fell, the defenders
-- (team 1) when they reached the frag limit or held out until the time
-- ran out.
function mode.outcome(reason)
  if reason == bc.END.STARBASE_DEAD then
    return { winner_team = 0, why = "the starbase was destroyed" }
  elseif reason == bc.END.NUM_FRAGS_REACHED then
    return { winner_team = 1, why = "the defenders reached the frag limit" }
  elseif reason == bc.END.TIME_UP then
    return { winner_team = 1, why = "the starbase held until the time ran out" }
  end
end

-- The frag limit counts defender team kills; reason 2.
function mode.check_limits()
  local limit = mode.options.frag_limit
  if limit > 0 and (S.team_kills[1] or 0) >= limit then
    stock.end_game(bc.END.NUM_FRAGS_REACHED)
  end
end

-- The attacker group (Mission5.ObjectCreatedHandler / ObjectKilledHandler):
-- a ship of a team-0 player joins it when created; any exploding ship
-- leaves it, scoring over or not.
function mode.on_ship_created(ship)
  if ship.is_player_ship and S.teams[ship.owner_id] == 0 then
    ai.group_add("attackers", ship.name)
  end
end

bc.on("ship_destroyed", "defend-the-starbase", function(ev)
  ai.group_remove("attackers", ev.victim.name)
end)

stock.install(mode)
