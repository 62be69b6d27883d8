-- Team Death-Match (Multiplayer.Episode.Mission2, missions.md 4.2): two
-- teams ("Team 1" = 0, "Team 2" = 1) chosen freely on the ship-select
-- screen and announced with TEAM 0x41 on every spawn. Same-team damage
-- counts negative. The rules shared with fed-vs-nonfed are in
-- lib/teams.lua, everything else in lib/stock.lua.
local stock = require("stock")
local teams = require("teams")

local mode = teams.apply(stock.mode {
  script = "Multiplayer.Episode.Mission2.Mission2",
  map_name = "TDM",
})

stock.install(mode)
