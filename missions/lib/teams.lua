-- teams.lua: the rules Team Death-Match and Fed vs. NonFed share
-- (missions.md 4.2, 4.3): player ships only, kills across teams, the team
-- score limit.
local stock = require("stock")
local teams = {}

local S = stock.state

function teams.apply(mode)
  mode.teams = true

  function mode.victim(ship)
    if ship.is_player_ship then return ship.owner_id end
  end

  -- A kill counts only for a killer with a team against another team;
  -- team kills and suicides award nothing (the SCORE_CHANGE still carries
  -- K's unchanged total).
  function mode.kill(K, V, kills_K)
    if K ~= 0 and S.teams[K] ~= nil and not stock.same_team(K, V) then
      local t = S.teams[K]
      S.team_kills[t] = (S.team_kills[t] or 0) + 1
      return kills_K + 1
    end
    return kills_K
  end

  -- Any team score at limit x 10000 ends the game with reason 3.
  function mode.check_limits()
    local limit = mode.options.frag_limit
    if limit <= 0 then return end
    for t = 0, 1 do
      if (S.team_score[t] or 0) >= limit * 10000 then
        stock.end_game(bc.END.SCORE_LIMIT_REACHED)
        return
      end
    end
  end
  return mode
end

return teams
