-- Fed vs. NonFed Death Match (Multiplayer.Episode.Mission3,
-- missions.md 4.3): Team Death-Match with team 0 "Federation" and team 1
-- "Non-Federation". The stock client offers team 0 only Federation ships
-- (species 1-5 and 15) and team 1 the rest (6-14); the stock host does not
-- check, and neither do we by default. With the mission option
-- check_faction_ships = true a mismatch is logged.
local stock = require("stock")
local teams = require("teams")

local mode = teams.apply(stock.mode {
  script = "Multiplayer.Episode.Mission3.Mission3",
  map_name = "FvN",
})

local S = stock.state

function mode.on_ship_created(ship)
  if not bc.config.check_faction_ships or not ship.is_player_ship then return end
  local team = S.teams[ship.owner_id]
  local sp = bc.species[ship.species]
  if team == nil or not sp then return end
  local fed = sp.side == "Federation"
  if (team == 0) ~= fed then
    bc.log.warn("ship outside the team's faction", { player = ship.owner_id, team = team, species = sp.constant })
  end
end

stock.install(mode)
