-- ai.lua: AI for host ships (bc.create_ship), written in plain Lua on the
-- public API and driven by the game tick. A mission attaches a behaviour to
-- a ship; every behaviour decides what its ship does with the ship's
-- orders (move_to, face, set_speed, fire_at, stop_firing). The stock
-- behaviours are here; a mod registers its own with ai.behaviour(name, def).
-- missions/survival/README.md is the tutorial.
--
-- All AI state is plain data in bc.memory.ai, keyed by ship id, so a
-- reload carries every ship's brain over, and a restart of the server
-- (which makes the ships anew) starts without stale brains:
--   S.ai.brains[id] = { behaviour = name, born = game time, next = game time, ... }
--   S.ai.groups[name] = { [ship name] = true }   the stock ObjectGroup
local ai = {}

local S = bc.memory
S.ai = S.ai or {}
S.ai.brains = S.ai.brains or {}
S.ai.groups = S.ai.groups or {}

local behaviours = {}

-- ai.behaviour registers a behaviour: def.start(ship, brain) runs once
-- when it is attached, def.think(ship, brain, now) whenever the game time
-- reaches brain.next (set brain.next to the next time it should run; by
-- default it runs every tick). brain is the ship's plain-data table.
function ai.behaviour(name, def)
  assert(type(name) == "string" and type(def) == "table" and type(def.think) == "function",
    "ai.behaviour(name, { think = function(ship, brain, now) ... end })")
  behaviours[name] = def
end

-- ai.attach gives a ship a behaviour with its parameters (plain data,
-- copied into the brain); a ship has one behaviour at a time.
function ai.attach(ship, name, params)
  local def = behaviours[name]
  assert(def, "ai.attach: no behaviour " .. tostring(name))
  local brain = { behaviour = name, born = bc.game_time(), next = 0 }
  for k, v in pairs(params or {}) do brain[k] = v end
  S.ai.brains[ship.id] = brain
  if def.start then def.start(ship, brain) end
  return brain
end

function ai.detach(ship) S.ai.brains[ship.id] = nil end

function ai.brain(ship) return S.ai.brains[ship.id] end

-- Groups: named sets of ship names (the stock scripts' ObjectGroup).
function ai.group(name)
  local g = S.ai.groups[name]
  if not g then
    g = {}
    S.ai.groups[name] = g
  end
  return g
end

function ai.group_add(name, ship_name) ai.group(name)[ship_name] = true end

function ai.group_remove(name, ship_name) ai.group(name)[ship_name] = nil end

function ai.group_clear(name) S.ai.groups[name] = {} end

-- One look at the ships per tick, shared by every brain that thinks in
-- it: bc.ships() and each ship's position are read once.
local view = { tick = 0, seen = -1, ships = nil, pos = {} }

-- ai.ships returns the live ships (handles) of this tick.
function ai.ships()
  if view.seen ~= view.tick then
    view.seen, view.ships, view.pos = view.tick, bc.ships(), {}
  end
  return view.ships
end

-- ai.position returns a ship's position, read once per tick. view.pos is
-- keyed by -id: the runtime keeps positive integer keys below 2^26 in a
-- table's array part, filled with nils up to the key, and host ship ids
-- only grow (from 4096), so keying a table made every tick by id would
-- allocate that many slots every tick (docs/lua-api.md, "The sandbox").
function ai.position(ship)
  ai.ships()
  local p = view.pos[-ship.id]
  if not p then
    p = ship:position()
    view.pos[-ship.id] = p
  end
  return p
end

-- ai.group_ships returns the live ships whose names are in the group, in
-- id order, leaving out the asking ship itself (the stock
-- GetActiveObjectTupleInSet).
function ai.group_ships(name, except)
  local g, out = ai.group(name), {}
  for _, s in ipairs(ai.ships()) do
    if g[s.name] and s ~= except then out[#out + 1] = s end
  end
  return out
end

-- ai.enemies returns the live ships of other teams than ship's (or, with
-- brain.enemy_team set, of that team), nearest first.
function ai.enemies(ship, brain)
  local out, dist, p = {}, {}, ai.position(ship)
  for _, s in ipairs(ai.ships()) do
    local t = s.team
    local hostile = brain.enemy_team and t == brain.enemy_team or (not brain.enemy_team and t ~= ship.team and t ~= nil)
    if s ~= ship and hostile then
      local q = ai.position(s)
      local dx, dy, dz = q[1] - p[1], q[2] - p[2], q[3] - p[3]
      out[#out + 1] = s
      dist[s] = dx * dx + dy * dy + dz * dz
    end
  end
  table.sort(out, function(a, b) return dist[a] < dist[b] end)
  return out
end

-- The tick runs every brain that is due; brains of ships that are gone go.
bc.on("tick", "ai", function(ev)
  view.tick = view.tick + 1
  local now = ev.game_time
  for id, brain in pairs(S.ai.brains) do
    local ship = bc.ship(id)
    if not ship or not ship:alive() then
      S.ai.brains[id] = nil
    elseif now >= (brain.next or 0) then
      local def = behaviours[brain.behaviour]
      if def then def.think(ship, brain, now) end
    end
  end
end)

bc.on("ship_destroyed", "ai", function(ev) S.ai.brains[ev.victim.id] = nil end)

---------------------------------------------------------------------------
-- Stock behaviours.

-- stay: hold position (the stock PlainAI "Stay": speed 0, no turning).
ai.behaviour("stay", {
  start = function(ship) ship:stop() end,
  think = function(ship, brain, now) brain.next = now + 5 end,
})

-- starbase_attack: the stock Mission5 starbase AI (simulation.md 3.6,
-- AI/Compound/StarbaseAttack.py). Dormant for brain.delay seconds of game
-- time (7); then, while its sensors work, every 3 s it adds every ship of
-- the group brain.targets to its weapon systems' target lists (the weapon
-- systems choose and rotate banks themselves); with its sensors disabled
-- it stops firing, until they are repaired.
ai.behaviour("starbase_attack", {
  start = function(ship, brain)
    ship:stop()
    brain.delay = brain.delay or 7
    brain.focus = "wait"
  end,
  think = function(ship, brain, now)
    if now < brain.born + brain.delay then
      brain.next = brain.born + brain.delay
      return
    end
    local sensors = ship:subsystem("sensor")
    if sensors and sensors.disabled then
      -- Priority 1, "SensorsDead": Attack loses focus and stops firing.
      if brain.focus ~= "stay" then ship:stop_firing() end
      brain.focus = "stay"
      return -- checked every tick: the stock condition is event-driven
    end
    -- Priority 2, "Attack": on gaining focus it runs at once, then every 3 s.
    if brain.focus ~= "attack" or now >= (brain.attack_at or 0) then
      brain.focus = "attack"
      brain.attack_at = now + 3
      for _, t in ipairs(ai.group_ships(brain.targets, ship)) do
        if not t:cloaked() then ship:fire_at(t) end
      end
    end
  end,
})

-- attack: pick the nearest enemy (other team, or brain.enemy_team), close
-- to brain.range world units (default 50), keep the nose on it and fire
-- everything; re-pick every brain.think_every seconds (2).
ai.behaviour("attack", {
  start = function(ship, brain)
    brain.range = brain.range or 50
    brain.think_every = brain.think_every or 2
    -- Spread the thinking of ships made together over the period.
    brain.next = bc.game_time() + bc.random() * brain.think_every
  end,
  think = function(ship, brain, now)
    brain.next = now + brain.think_every
    local target = bc.ship(brain.target or 0)
    if not target or not target:alive() then
      target = ai.enemies(ship, brain)[1]
      if not target then
        ship:stop()
        brain.target = nil
        return
      end
      ship:stop_firing()
      brain.target = target.id
    end
    if ship:distance(target) > brain.range then
      ship:move_to(target, nil, brain.range * 0.8)
    else
      ship:face(target)
      ship:set_speed(0)
    end
    ship:fire_at(target)
  end,
})

-- patrol: fly brain.waypoints ({x, y, z} points) in a loop; when an enemy
-- comes within brain.sight (150), switch to attack.
ai.behaviour("patrol", {
  start = function(ship, brain)
    brain.sight = brain.sight or 150
    brain.leg = 1
  end,
  think = function(ship, brain, now)
    brain.next = now + 1
    local e = ai.enemies(ship, brain)[1]
    if e and ship:distance(e) <= brain.sight then
      ai.attach(ship, "attack", { enemy_team = brain.enemy_team, range = brain.range })
      return
    end
    local wp = brain.waypoints and brain.waypoints[brain.leg]
    if not wp then return end
    if ship:distance(wp) < 10 then
      brain.leg = brain.leg % #brain.waypoints + 1
      wp = brain.waypoints[brain.leg]
    end
    ship:move_to(wp)
  end,
})

return ai
