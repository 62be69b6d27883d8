-- stock.lua: the rules every stock multiplayer mode shares (missions.md 3),
-- the Lua counterpart of the stock MissionShared.py. A mode builds on it
-- with stock.mode{...}, fills in its own rules (death filter, kill rule,
-- limits) and calls stock.install(mode). See deathmatch/main.lua.
--
-- The match's state lives in bc.memory (stock.state), so a reload keeps
-- every score and a restart of the server begins a new match, however the
-- host keeps bc.storage:
--   S.kills[id], S.deaths[id], S.scores[id]  player tables (never emptied)
--   S.teams[id]                              team modes: 0 or 1
--   S.team_kills[t], S.team_score[t]         team modes: t = 0, 1
--   S.ledger[object_id][player_id] = {shield_damage, hull_damage}
--   S.game_over, S.time_left
-- A mode keeps its own match state there too; what should outlive the
-- server (standings, records) goes in bc.storage. The time left and the
-- team scores go to the host's status with bc.status (stock.publish).
local stock = {}

local S = bc.memory
stock.state = S

-- trunc rounds toward zero, like Python's int() (missions.md 3.5).
local function trunc(x)
  if x >= 0 then return math.floor(x) end
  return math.ceil(x)
end
stock.trunc = trunc

-- sorted_keys returns the union of the keys of the given tables in
-- ascending order: the order the stock host's small-integer dictionaries
-- iterate in (missions.md 3.3, 3.5).
local function sorted_keys(...)
  local seen, out = {}, {}
  for i = 1, select("#", ...) do
    local t = select(i, ...)
    if t then
      for k in pairs(t) do
        if not seen[k] then
          seen[k] = true
          out[#out + 1] = k
        end
      end
    end
  end
  table.sort(out)
  return out
end
stock.sorted_keys = sorted_keys

-- options reads the [mission] table with the stock defaults
-- (missions.md 2.0, 3.2). overrides lets a mode change a default.
function stock.options(overrides)
  local c = bc.config
  local o = {
    system = c.system or "Multi1",
    time_limit = c.time_limit or -1,
    frag_limit = c.frag_limit or -1,
    -- missions.md 3.5: stock writes 0 as the killer's score when he is not
    -- in the victim's damage ledger.
    killer_score_quirk = c.stock_killer_score_quirk ~= false,
    -- missions.md 4.5.4: a stock server sent no SCORE_CHANGE for weapon
    -- kills; off by default, the scripts' intent is followed.
    skip_weapon_kill_score_change = c.stock_skip_weapon_kill_score_change == true,
    -- missions.md 4.2: after a restart a stock host puts everyone on team
    -- 0 until his next TEAM message; off keeps each player's team.
    teams_reset_on_restart = c.stock_teams_reset_on_restart ~= false,
  }
  for k, v in pairs(overrides or {}) do
    if c[k] == nil then o[k] = v end
  end
  if bc.system_index(o.system) == 0 then
    error(("mission option system = %q is not a stock system"):format(tostring(o.system)), 0)
  end
  return o
end

-- mode creates a mode description; the mode fills in its rules:
--   mode.victim(ship)        -> victim player id, or nil if the death does not count
--   mode.kill(K, V, kills_K) -> K's kill total after this death (update team kills here)
--   mode.check_limits()      -> end the game if a limit is reached
--   mode.ledger_all_ships    -> true: every ship scores damage, not only player ships
--   mode.on_start(), mode.on_restart(), mode.after_death(ship, K, V),
--   mode.on_ship_created(ship), mode.on_object_destroyed(object)   (optional)
function stock.mode(def)
  assert(def.script and def.map_name, "stock.mode needs script and map_name")
  def.options = stock.options(def.defaults)
  return def
end

-- same_team is the stock rule: both ids known and non-zero, both with a
-- team entry, and the entries equal (missions.md 3.4).
function stock.same_team(a, b)
  if a == 0 or b == 0 then return false end
  local ta, tb = S.teams[a], S.teams[b]
  return ta ~= nil and tb ~= nil and ta == tb
end

-- report hands a player's numbers to the engine for GameSpy \players\.
function stock.report(id)
  if bc.player(id) then
    bc.set_score(id, S.kills[id] or 0, S.deaths[id] or 0, S.scores[id] or 0)
  end
end

function stock.report_all()
  for _, p in ipairs(bc.players()) do stock.report(p.id) end
end

-- publish tells the host's status (admin API, console) the time left and,
-- in team modes, the team scores.
function stock.publish(mode)
  local st = {}
  if mode.options.time_limit > 0 then st.time_left = S.time_left end
  if mode.teams then
    st.teams = {}
    for t = 0, 1 do
      st.teams[t] = { kills = S.team_kills[t] or 0, score = S.team_score[t] or 0 }
    end
  end
  bc.status(st)
end

-- outcome is who won when the game ends with reason: the mode's own rule
-- (mode.outcome(reason)) if it has one, else in team modes the team with
-- the higher score and in a free-for-all the connected player with the
-- highest score; nobody on a tie. The stock END_GAME has no winner (a
-- stock client works it out from its scoreboard); the host's match
-- history, recording and careers keep it.
function stock.outcome(mode, reason)
  if not mode then return {} end
  if mode.outcome then return mode.outcome(reason) or {} end
  if mode.teams then
    local s0, s1 = S.team_score[0] or 0, S.team_score[1] or 0
    if s0 == s1 then return {} end
    return { winner_team = s0 > s1 and 0 or 1 }
  end
  local best, who, tie
  for _, id in ipairs(sorted_keys(S.scores)) do
    local sc = S.scores[id] or 0
    if bc.player(id) then
      if best == nil or sc > best then
        best, who, tie = sc, id, false
      elseif sc == best then
        tie = true
      end
    end
  end
  if who and not tie then return { winner = who } end
  return {}
end

-- end_game ends the game once (missions.md 3.6): END_GAME to everyone,
-- closed to new players, ships forgotten; the engine raises game_ended.
-- outcome ({winner_team, winner, why}) defaults to stock.outcome's.
function stock.end_game(reason, outcome)
  S.game_over = true
  if not bc.game_over() then
    outcome = outcome or stock.outcome(stock.installed, reason)
    bc.log.info("game over", { reason = reason, winner_team = outcome.winner_team, winner = outcome.winner })
    bc.end_game(reason, outcome)
  end
end

-- team_score_messages sends TEAM_SCORE for team 0 then team 1.
function stock.send_team_scores(send)
  for t = 0, 1 do
    send(bc.msg.team_score { team = t, kills = S.team_kills[t] or 0, score = S.team_score[t] or 0 })
  end
end

local function init_tables(mode)
  S.kills = S.kills or {}
  S.deaths = S.deaths or {}
  S.scores = S.scores or {}
  S.ledger = S.ledger or {}
  if mode.teams then
    S.teams = S.teams or {}
    S.team_kills = S.team_kills or { [0] = 0, [1] = 0 }
    S.team_score = S.team_score or { [0] = 0, [1] = 0 }
  else
    S.teams = S.teams or {}
  end
end

-- mission_init builds the MISSION_INIT a joiner gets (missions.md 2.3).
function stock.mission_init(mode)
  local o = mode.options
  local m = {
    -- player_limit is left out: bc.msg.mission_init announces the server's
    -- enforced limit (server.max_players).
    system = bc.system_index(o.system),
    frag_limit = o.frag_limit,
  }
  if o.time_limit > 0 then
    m.time_limit = o.time_limit
    m.end_time = (S.time_left or 0) + trunc(bc.game_time())
  end
  return bc.msg.mission_init(m)
end

-- join_sync is the host's answer to the joiner's 0x2A, to him only, before
-- the engine replicates objects (missions.md 3.3).
function stock.join_sync(mode, id)
  bc.send(id, stock.mission_init(mode))
  if not mode.teams then
    for _, p in ipairs(sorted_keys(S.kills, S.deaths, S.scores)) do
      bc.send(id, bc.msg.score { player = p, kills = S.kills[p] or 0, deaths = S.deaths[p] or 0, score = S.scores[p] or 0 })
    end
    return
  end
  for _, p in ipairs(sorted_keys(S.kills, S.deaths, S.scores, S.teams)) do
    bc.send(id, bc.msg.score_init {
      player = p, kills = S.kills[p] or 0, deaths = S.deaths[p] or 0, score = S.scores[p] or 0,
      team = S.teams[p] or bc.INVALID_TEAM,
    })
  end
  stock.send_team_scores(function(b) bc.send(id, b) end)
end

-- add_damage is the damage ledger (missions.md 3.4).
function stock.add_damage(mode, ev)
  local F, target = ev.shooter_id, ev.target
  if F == 0 or not target or not target.is_ship then return end
  if not mode.ledger_all_ships and not target.is_player_ship then return end
  local ship = bc.ship_of(F)
  local ac = ship and ship.class or 0
  local row = bc.modifier[ac]
  local d = ev.damage * (row and row[target.class] or 1.0)
  if mode.teams and stock.same_team(F, target.owner_id) then d = -d end
  local l = S.ledger[target.id]
  if not l then
    l = {}
    S.ledger[target.id] = l
  end
  local e = l[F]
  if not e then
    e = { 0, 0 }
    l[F] = e
  end
  if ev.hull_hit then e[2] = e[2] + d else e[1] = e[1] + d end
end

-- death is the death processing skeleton (missions.md 3.5).
function stock.death(mode, ev)
  if S.game_over then return end
  local X = ev.victim
  if not X then return end
  local V = mode.victim(X)
  if V == nil then return end
  local K = ev.killer_id or 0
  local kills_K = mode.kill(K, V, S.kills[K] or 0)
  local deaths_V = (S.deaths[V] or 0) + 1
  local killer_score, killer_hit, extras = 0, false, {}
  local ledger = S.ledger[X.id] or {}
  for _, P in ipairs(sorted_keys(ledger)) do
    local e = ledger[P]
    local s = (e[1] + e[2]) / 10.0
    S.scores[P] = trunc((S.scores[P] or 0) + s)
    local T = mode.teams and S.teams[P]
    if T then
      S.team_score[T] = trunc((S.team_score[T] or 0) + s)
    end
    if P == K then
      killer_score, killer_hit = S.scores[P], true
    else
      extras[#extras + 1] = { player = P, score = S.scores[P] }
    end
  end
  if K ~= 0 then S.kills[K] = kills_K end
  S.deaths[V] = deaths_V
  local o = mode.options
  if K ~= 0 and not killer_hit and not o.killer_score_quirk then
    killer_score = S.scores[K] or 0
  end
  if not (o.skip_weapon_kill_score_change and K ~= 0 and ev.cause == "weapon") then
    bc.broadcast(bc.msg.score_change {
      killer = K, killer_kills = kills_K, killer_score = killer_score,
      victim = V, victim_deaths = deaths_V, extras = extras,
    })
  end
  S.ledger[X.id] = nil
  if mode.teams then stock.send_team_scores(bc.broadcast) end
  stock.report_all()
  stock.publish(mode)
  if mode.after_death then mode.after_death(X, K, V) end
  if not S.game_over then mode.check_limits() end
end

-- team_message handles a client's TEAM 0x41 (missions.md 2.10): stored,
-- then echoed unchanged to every client, the sender included.
local function team_message(ev)
  local m = bc.parse.team(ev.payload)
  -- Hardening beyond stock: the id must be the sender's and the team 0/1.
  if not m or m.player ~= ev.from or (m.team ~= 0 and m.team ~= 1) then
    bc.log.debug("TEAM message ignored", { from = ev.from })
    return
  end
  local payload = ev.payload
  local want = S.assigned and S.assigned[m.player]
  if want ~= nil and want ~= m.team then
    -- The server balanced the teams for this match: the assignment holds.
    m.team = want
    payload = bc.msg.team { player = m.player, team = want }
  end
  S.teams[m.player] = m.team
  bc.set_team(m.player, m.team)
  bc.broadcast(payload)
end

-- assign applies the server's balanced teams ([ratings] balance): the
-- tables, every client's (TEAM 0x41 from the host), and the team each
-- player is held to until the next restart.
local function assign(ev)
  S.assigned = {}
  for id, team in pairs(ev.teams) do
    S.assigned[id] = team
    S.teams[id] = team
    bc.broadcast(bc.msg.team { player = id, team = team })
  end
  stock.report_all()
end

-- Messages only a host sends (missions.md 1.4): a client sending one is
-- dropped; the stock host would have applied it to its own tables.
local host_only = {
  [bc.OP.MISSION_INIT] = true, [bc.OP.SCORE_CHANGE] = true, [bc.OP.SCORE] = true,
  [bc.OP.RESTART_GAME] = true, [bc.OP.SCORE_INIT] = true, [bc.OP.TEAM_SCORE] = true,
}
local warned = {}

local function restart(mode)
  for _, t in ipairs { S.kills, S.deaths, S.scores } do
    for k in pairs(t) do t[k] = 0 end
  end
  S.ledger = {}
  S.assigned = nil
  if mode.teams and mode.options.teams_reset_on_restart then
    -- Stock quirk (missions.md 4.2): everyone is on team 0 until his next
    -- TEAM message ([mission] stock_teams_reset_on_restart, default on).
    for k in pairs(S.teams) do
      S.teams[k] = 0
      bc.set_team(k, 0)
    end
  elseif mode.teams then
    -- Teams kept: each player's team is told to everyone again, as his
    -- own TEAM message would be (clients set the scoreboard from it).
    for _, k in ipairs(sorted_keys(S.teams)) do
      if bc.player(k) then
        bc.set_team(k, S.teams[k])
        bc.broadcast(bc.msg.team { player = k, team = S.teams[k] })
      end
    end
  end
  if mode.teams then
    S.team_kills = { [0] = 0, [1] = 0 }
    S.team_score = { [0] = 0, [1] = 0 }
  end
  S.game_over = false
  if mode.options.time_limit > 0 then S.time_left = mode.options.time_limit * 60 end
  if mode.on_restart then mode.on_restart() end
  stock.report_all()
  stock.publish(mode)
end

-- install registers the mode's handlers. Every registration carries the
-- id "stock", so running it again (a reload) replaces rather than adds.
function stock.install(mode)
  local o = mode.options
  stock.installed = mode
  init_tables(mode)

  bc.on("mission_load", "stock", function()
    bc.set_mission {
      script = mode.script, map_name = mode.map_name, system = o.system,
      time_limit = o.time_limit, frag_limit = o.frag_limit,
    }
    bc.set_team_mode(mode.teams and true or false)
  end)

  -- Mission start (missions.md 3.2): open to players, start the clock.
  bc.on("mission_start", "stock", function()
    S.game_over = false
    if o.time_limit > 0 then S.time_left = o.time_limit * 60 end
    if mode.on_start then mode.on_start() end
    stock.publish(mode)
    bc.set_accepting(true)
  end)

  bc.on("player_joined", "stock", function(ev) stock.join_sync(mode, ev.player.id) end)
  if mode.teams then bc.on("teams_balanced", "stock", assign) end

  -- The table entry follows the sync, so a joiner never gets a row for
  -- himself unless his id played before (missions.md 3.3).
  bc.on("player_in_game", "stock", function(ev)
    local id = ev.player.id
    if S.kills[id] == nil then S.kills[id] = 0 end
    if S.deaths[id] == nil then S.deaths[id] = 0 end
    if mode.teams and S.teams[id] ~= nil then bc.set_team(id, S.teams[id]) end
    stock.report(id)
  end)

  bc.on("weapon_hit", "stock", function(ev) stock.add_damage(mode, ev) end)
  bc.on("ship_destroyed", "stock", function(ev) stock.death(mode, ev) end)

  bc.on("script_message", "stock", function(ev)
    local op = ev.opcode
    if op == bc.OP.TEAM and mode.teams then
      team_message(ev)
      return true
    end
    if op == bc.OP.END_GAME then
      -- Stock Mission5 clients send it when the starbase goes (4.5.1).
      bc.log.debug("END_GAME from a client ignored", { from = ev.from })
      return true
    end
    if host_only[op] then
      local key = ev.from * 256 + op
      if not warned[key] then
        warned[key] = true
        bc.log.warn("host-only script message from a client dropped", { from = ev.from, opcode = op })
      end
      return true
    end
  end)

  -- The 1-second countdown (missions.md 3.6). The automatic restart after
  -- END_GAME is the server's rule for every mode ([mission] restart_after).
  bc.on("second", "stock", function()
    if S.game_over then return end
    if o.time_limit <= 0 or not S.time_left then return end
    S.time_left = S.time_left - 1
    if S.time_left <= 0 then
      S.time_left = 0
      stock.end_game(bc.END.TIME_UP)
    end
    stock.publish(mode)
  end)

  bc.on("game_ended", "stock", function() S.game_over = true end)

  bc.on("game_restarted", "stock", function() restart(mode) end)

  bc.on("ship_created", "stock", function(ev)
    if mode.on_ship_created then mode.on_ship_created(ev.ship) end
  end)
  bc.on("object_destroyed", "stock", function(ev)
    if mode.on_object_destroyed then mode.on_object_destroyed(ev.object) end
  end)
end

return stock
