-- Death-Match: the stock free-for-all (Multiplayer.Episode.Mission1,
-- missions.md 4.1). The shared rules are in lib/stock.lua.
local stock = require("stock")

local mode = stock.mode {
  script = "Multiplayer.Episode.Mission1.Mission1",
  map_name = "DM",
  teams = false,
}
local S = stock.state

-- Only player ships count; the victim is the ship's owner.
function mode.victim(ship)
  if ship.is_player_ship then return ship.owner_id end
end

-- Every kill by a player counts, his own ship included: there is no
-- friendly fire in a free-for-all.
function mode.kill(K, V, kills_K)
  if K ~= 0 then return kills_K + 1 end
  return kills_K
end

-- The "frag limit" is a score limit of limit x 10000 points, reached by
-- any player; it ends with reason 3 (missions.md 3.6).
function mode.check_limits()
  local limit = mode.options.frag_limit
  if limit <= 0 then return end
  for _, score in pairs(S.scores) do
    if score >= limit * 10000 then
      stock.end_game(bc.END.SCORE_LIMIT_REACHED)
      return
    end
  end
end

stock.install(mode)
