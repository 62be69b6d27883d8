-- Defend the Starbase (Multiplayer.Episode.Mission5, missions.md 4.4):
-- team 0 = Attackers, team 1 = Defenders, and an AI Federation starbase
-- (species 30) the attackers must destroy before the time runs out.
--
-- Engine support: this server cannot create AI ships yet. The starbase is
-- created through the hook create_starbase below, which calls
-- bc.create_ai_ship when the engine provides it; until then the mode logs
-- a warning and plays without a starbase (scoring, limits and the
-- defenders' time win still work). A starbase object the engine creates by
-- other means is recognised by species 30 with no owner.
local stock = require("stock")

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

local S = bc.storage
S.attackers = S.attackers or {}

local function is_starbase(obj)
  return obj.id == S.starbase_id or (obj.species == STARBASE_SPECIES and obj.owner_id == 0)
end

-- create_starbase is the hook for the AI starbase (missions.md 4.4): a
-- FedStarbase named "Starbase", no collision damage, random orientation,
-- at a free random point of the cube [-150, 149]^3, dormant for 7 s, then
-- the "starbase attack" AI against the attacker list.
local function create_starbase()
  S.starbase_dead = false
  S.attackers = {}
  if not bc.create_ai_ship then
    bc.log.warn("defend-the-starbase: this server cannot create the AI starbase yet (needs bc.create_ai_ship)")
    return
  end
  S.starbase_id = bc.create_ai_ship {
    species = STARBASE_SPECIES, name = "Starbase", collision_damage = false,
    random_orientation = true, placement_cube = { -150, 149 }, placement_tries = 100,
    clearance = 1.1, fallback_step = 20, ai = "StarbaseAttack", ai_delay = 7,
    targets = "attackers",
  }
end

mode.on_start = create_starbase
function mode.on_restart()
  if S.starbase_id and bc.delete_object then bc.delete_object(S.starbase_id) end
  S.starbase_id = nil
  create_starbase()
end

-- Any ship counts; the starbase (owner 0) and other non-player objects are
-- victim 0, so deaths[0] grows (missions.md 4.5.2).
function mode.victim(obj)
  if obj.is_ship then return obj.owner_id end
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

function mode.after_death(ship, K, V)
  if ship.is_player_ship then S.attackers[ship.name] = nil end
  if is_starbase(ship) then
    -- Scoring and the clock stop now; END_GAME(4) follows when the
    -- starbase object is deleted after its explosion.
    S.starbase_dead = true
    S.starbase_id = ship.id
    S.game_over = true
    bc.log.info("starbase destroyed", { killer = K })
  end
end

function mode.on_object_destroyed(obj)
  if S.starbase_dead and obj.id == S.starbase_id then
    stock.end_game(bc.END.STARBASE_DEAD)
  end
end

-- The frag limit counts defender team kills; reason 2.
function mode.check_limits()
  local limit = mode.options.frag_limit
  if limit > 0 and (S.team_kills[1] or 0) >= limit then
    stock.end_game(bc.END.NUM_FRAGS_REACHED)
  end
end

function mode.on_ship_created(ship)
  if ship.species == STARBASE_SPECIES and ship.owner_id == 0 then
    S.starbase_id = ship.id
  elseif ship.is_player_ship and S.teams[ship.owner_id] == 0 then
    -- The starbase AI's target list (used once the engine runs the AI).
    S.attackers[ship.name] = true
  end
end

stock.install(mode)
