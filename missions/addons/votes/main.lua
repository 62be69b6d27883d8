-- votes: players vote to kick a griefer, change the mode or the star
-- system, restart the match, move the rotation on or balance the teams;
-- and the server restarts the match on a schedule with a countdown in
-- chat. Configured, not coded: load it next to any mode with
--   [game] addons = ["votes"]
-- and set its keys in [mission.votes] (README: "Running a community
-- server"). Every vote is logged (who, what, the tally).

local C = bc.config.votes or {}
local M = bc.memory

local quorum     = tonumber(C.quorum) or 0.5      -- share of the players in game who must say yes
local min_voters = tonumber(C.min_voters) or 2    -- and at least this many yes votes
local duration   = tonumber(C.duration) or 30     -- seconds a vote stays open
local cooldown   = tonumber(C.cooldown) or 120    -- seconds before one player calls another vote
local kind_wait  = tonumber(C.kind_cooldown) or 60 -- seconds between two votes of one kind
local mode_now   = C.mode_now == true             -- a mode or system vote switches at once (else at the match end)
local immune     = { admin = true, moderator = true }

local allowed = {}
for _, k in ipairs(C.kinds or { "kick", "mode", "system", "restart", "next", "balance" }) do allowed[k] = true end

M.last_by = M.last_by or {}     -- uid -> clock of his last vote call
M.last_kind = M.last_kind or {} -- kind -> clock of its last vote

local function say(text) bc.broadcast(bc.msg.chat { sender = bc.host_id, text = text }) end

local function in_game()
  local n = 0
  for _, p in ipairs(bc.players()) do if p.in_game then n = n + 1 end end
  return n
end

local function find_player(ref)
  local id = tonumber(ref)
  if id then return bc.player(id) end
  local want = ref:lower()
  for _, p in ipairs(bc.players()) do
    if p.name:lower() == want then return p end
  end
end

-- what each kind of vote does when it passes
local act = {
  kick = function(v)
    local p = bc.player_by_uid(v.target_uid)
    if p then bc.kick(p.id) end
  end,
  mode = function(v) bc.set_mode(v.arg, { now = mode_now }) end,
  system = function(v) bc.set_mode(bc.mode, { system = v.arg, now = mode_now }) end,
  restart = function() bc.restart_game() end,
  ["next"] = function() bc.next_match(true) end,
  balance = function()
    if not bc.balance_teams() then say("this server has no ratings to balance by") end
  end,
}

local function finish(passed, why)
  local v = M.vote
  if not v then return end
  M.vote = nil
  if v.timer then bc.cancel(v.timer) end
  bc.log.info(passed and "vote passed" or "vote failed",
    { kind = v.kind, arg = v.arg or "", by = v.by, yes = v.yes_n, no = v.no_n, why = why })
  say(("vote %s %s: %s (%d yes, %d no)"):format(v.kind, v.arg or "", passed and "passed" or "failed", v.yes_n, v.no_n))
  if passed then act[v.kind](v) end
end

local function tally()
  local v = M.vote
  if not v then return end
  local voters = math.max(in_game() - (v.target_uid and 1 or 0), 1)
  local need = math.max(min_voters, math.ceil(voters * quorum))
  if v.yes_n >= need and v.yes_n > v.no_n then
    finish(true, "quorum")
  elseif v.no_n > voters - need then
    finish(false, "cannot reach the quorum")
  end
end

local function cast(p, yes)
  local v = M.vote
  if not v then return "no vote is open" end
  if v.target_uid == p.uid then return "you cannot vote on your own kick" end
  local prev = v.ballots[p.uid]
  if prev ~= nil then
    if prev == yes then return nil end
    if prev then v.yes_n = v.yes_n - 1 else v.no_n = v.no_n - 1 end
  end
  v.ballots[p.uid] = yes
  if yes then v.yes_n = v.yes_n + 1 else v.no_n = v.no_n + 1 end
  tally()
end

local usage = "!vote kick <name> | mode <mode> | system <1-9|name> | restart | next | balance; then !yes or !no"

local function start(p, kind, arg)
  if M.vote then return ("a vote is open: %s %s; !yes or !no"):format(M.vote.kind, M.vote.arg or "") end
  if not kind or not act[kind] then return usage end
  if not allowed[kind] then return "votes to " .. kind .. " are off here" end
  local now = bc.clock()
  if M.last_by[p.uid] and now - M.last_by[p.uid] < cooldown then
    return ("wait %d s before calling another vote"):format(cooldown - (now - M.last_by[p.uid]))
  end
  if M.last_kind[kind] and now - M.last_kind[kind] < kind_wait then
    return ("wait %d s before another %s vote"):format(kind_wait - (now - M.last_kind[kind]), kind)
  end
  local v = { kind = kind, by = p.name, ballots = {}, yes_n = 0, no_n = 0 }
  if kind == "kick" then
    local t = arg and find_player(arg)
    if not t then return "no player " .. (arg or "") end
    if t.role and immune[t.role] then return t.name .. " cannot be voted out" end
    if t.uid == p.uid then return "you cannot vote yourself out" end
    v.target_uid, v.arg = t.uid, t.name
  elseif kind == "mode" then
    local ok = false
    for _, m in ipairs(bc.modes()) do if m == arg then ok = true end end
    if not ok then return "modes: " .. table.concat(bc.modes(), ", ") end
    v.arg = arg
  elseif kind == "system" then
    local i = tonumber(arg) or (arg and bc.system_index(arg)) or 0
    if i < 1 or i > #bc.systems then return "systems: 1-" .. #bc.systems .. " (" .. table.concat(bc.systems, ", ") .. ")" end
    v.arg = bc.systems[i]
  end
  M.last_by[p.uid], M.last_kind[kind] = now, now
  M.vote = v
  bc.log.info("vote started", { kind = kind, arg = v.arg or "", by = p.name })
  say(("%s calls a vote: %s %s - !yes or !no within %d s"):format(p.name, kind, v.arg or "", duration))
  v.timer = bc.after(duration, function() v.timer = nil; finish(false, "time up") end)
  cast(p, true)
end

bc.command("vote", function(ev)
  local kind, arg = ev.args[1], ev.args[2]
  if kind == "yes" or kind == "no" then return cast(ev.player, kind == "yes") end
  return start(ev.player, kind, arg)
end, "start a vote: " .. usage)
bc.command("yes", function(ev) return cast(ev.player, true) end, "vote yes")
bc.command("no", function(ev) return cast(ev.player, false) end, "vote no")

-- A kick vote's target who leaves ends it.
bc.on("player_left", "votes", function(ev)
  if M.vote and M.vote.target_uid == ev.player.uid then finish(false, "the player left") end
end)

-- Scheduled restarts: restart_at = "HH:MM" (UTC, daily) and/or
-- restart_every = minutes, each with a countdown in chat.
local warn_at = { 300, 60, 30, 10 }
local every = tonumber(C.restart_every)
local at_h, at_m
if type(C.restart_at) == "string" then
  at_h, at_m = C.restart_at:match("^(%d%d?):(%d%d)$")
  at_h, at_m = tonumber(at_h), tonumber(at_m)
end

local function next_restart(now)
  local best
  if every and every > 0 then
    M.every_from = M.every_from or now
    local n = math.floor((now - M.every_from) / (every * 60)) + 1
    best = M.every_from + n * every * 60
  end
  if at_h then
    local day = math.floor(now / 86400) * 86400
    local t = day + at_h * 3600 + at_m * 60
    if t <= now then t = t + 86400 end
    if not best or t < best then best = t end
  end
  return best
end

if every or at_h then
  bc.on("second", "votes:restart", function()
    local now = bc.clock()
    M.restart_due = M.restart_due or next_restart(now)
    if not M.restart_due then return end
    local left = math.floor(M.restart_due - now + 0.5)
    for _, w in ipairs(warn_at) do
      if left == w and M.warned ~= w then
        M.warned = w
        say(("scheduled restart in %s"):format(w >= 60 and (math.floor(w / 60) .. " min") or (w .. " s")))
      end
    end
    if left <= 0 then
      M.restart_due, M.warned = nil, nil
      bc.log.info("scheduled restart", {})
      say("scheduled restart now")
      bc.restart_game()
    end
  end)
end
