-- Last ship standing: every player starts with a few lives; lose them all
-- and you are out. The last player with lives left wins the round, and a
-- new round starts a few seconds later. Built step by step in the
-- tutorial of docs/lua-api.md.
local LIVES = bc.config.lives or 3
local SYSTEM = bc.config.system or "Multi1"
local S = bc.memory           -- kept across reloads, not restarts
S.lives = S.lives or {}       -- player id -> lives left
S.kills = S.kills or {}
S.deaths = S.deaths or {}

-- say sends a chat line from the server to everyone in the game.
local function say(text)
  bc.broadcast(bc.msg.chat { sender = bc.host_id, text = text })
end

local function name(id)
  local p = bc.player(id)
  return p and p.name or ("player " .. id)
end

-- Clients only know the stock missions, so announce the free-for-all one:
-- they build its scoreboard, which the SCORE messages below fill in.
bc.on("mission_load", function()
  bc.set_mission { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "LSS", system = SYSTEM }
  bc.set_team_mode(false)
end)

bc.on("player_joined", function(ev)
  local id = ev.player.id
  bc.send(id, bc.msg.mission_init { system = bc.system_index(SYSTEM) })
  for pid, kills in pairs(S.kills) do
    bc.send(id, bc.msg.score { player = pid, kills = kills, deaths = S.deaths[pid] or 0, score = kills * 1000 })
  end
end)

bc.on("player_in_game", function(ev)
  local id = ev.player.id
  S.kills[id] = S.kills[id] or 0
  S.deaths[id] = S.deaths[id] or 0
  if S.lives[id] == nil then S.lives[id] = LIVES end
  bc.send(id, bc.msg.chat { sender = bc.host_id, text = ("Last ship standing: %d lives each."):format(LIVES) })
end)

-- check_winner ends the round when one player (or nobody) has lives left.
local function check_winner()
  if S.round_over then return end
  local alive, total = {}, 0
  for id, n in pairs(S.lives) do
    total = total + 1
    if n > 0 then alive[#alive + 1] = id end
  end
  if total < 2 or #alive > 1 then return end
  S.round_over = true
  if #alive == 1 then
    say(name(alive[1]) .. " is the last ship standing!")
  else
    say("Nobody survived.")
  end
  -- The server restarts the game [mission] restart_after seconds later.
  -- The winner goes into the match history and the recording.
  if #alive == 1 then
    bc.end_game(bc.END.ITS_JUST_OVER, { winner = alive[1], why = "last ship standing" })
  else
    bc.end_game(bc.END.ITS_JUST_OVER, { why = "nobody survived" })
  end
end

bc.on("player_left", function(ev)
  S.lives[ev.player.id] = nil
  check_winner()
end)

bc.on("ship_destroyed", function(ev)
  local ship = ev.victim
  if S.round_over or not ship.is_player_ship then return end
  local V, K = ship.owner_id, ev.killer_id
  if (S.lives[V] or 0) == 0 then return end -- already out: a spectator's ship
  S.lives[V] = S.lives[V] - 1
  S.deaths[V] = (S.deaths[V] or 0) + 1
  if K ~= 0 and K ~= V and (S.lives[K] or 0) > 0 then
    S.kills[K] = (S.kills[K] or 0) + 1
  end
  bc.broadcast(bc.msg.score_change {
    killer = K, killer_kills = S.kills[K] or 0, killer_score = (S.kills[K] or 0) * 1000,
    victim = V, victim_deaths = S.deaths[V],
  })
  if S.lives[V] == 0 then say(name(V) .. " is out.") end
  check_winner()
end)

bc.on("game_restarted", function()
  S.round_over = false
  for id in pairs(S.lives) do S.lives[id] = LIVES end
  for id in pairs(S.kills) do S.kills[id], S.deaths[id] = 0, 0 end
  say("New round!")
end)
