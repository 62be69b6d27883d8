---@meta test
-- LuaLS annotations for the mission test API (docs/testing-missions.md):
-- the globals a *_test.lua file sees when `bcserver test-missions` runs it.
-- This file is never run. Test files also have `bc` with the API's data and
-- constants (bc.END, bc.OP, bc.species, bc.systems, bc.modifier,
-- bc.INVALID_TEAM, bc.NO_LIMIT, bc.host_id, bc.ship_classes(),
-- bc.ship_class()), but none of its functions that act on a game.

---@class test.GameOptions
---@field mode string?       the mode folder (default: the folder the test file is in)
---@field config table?      the [mission] table (bc.config)
---@field addons string[]?   folders under addons/ to load after the mode
---@field storage table?     bc.storage as the last run left it: the game starts as after a restart

---A message a bot received: type and opcode always, the fields of its kind
---(bc.parse's names for script messages).
---@class test.Message
---@field type string        "chat", "team_chat", "mission_init", "score_change", "score", "score_init", "team_score", "team", "end_game", "restart_game", "object_exploding", "object_created", "start_firing", "stop_firing", "pulse_fire", "torpedo_fire", "destroy_object", "explosion", "state_update", "python_event", or "0x1E" ...
---@field opcode integer
---@field raw string         the bytes
---@field sender integer?    chat: the sender's player id (1 = the host)
---@field text string?       chat
---@field team integer|boolean? team chat flag, or a team number (team, score_init)
---@field killer integer?    score_change
---@field killer_kills integer?
---@field killer_score integer?
---@field victim integer?
---@field victim_deaths integer?
---@field extras {player: integer, score: integer}[]?
---@field player integer?    score, score_init, team
---@field kills integer?
---@field deaths integer?
---@field score integer?
---@field reason integer?    end_game: a bc.END value
---@field player_limit integer? mission_init
---@field system integer?
---@field time_limit integer?
---@field frag_limit integer?
---@field end_time integer?
---@field src integer?       object_exploding: the attacker's ship, 0 for none
---@field dst integer?       object_exploding: the ship that dies
---@field firing_player integer? object_exploding: the killer's player id, 0 for none; pulse_fire, torpedo_fire: the firing player (0 for a host ship)
---@field lifetime number?   object_exploding: seconds
---@field id integer?        object_created, destroy_object: the object id
---@field owner integer?     object_created: the owner's player id (0: a host object)
---@field owner_slot integer?
---@field species integer?
---@field name string?
---@field weapon integer?    start_firing, stop_firing: the phaser system's object id; pulse_fire, torpedo_fire: the cannon's or tube's
---@field target integer?    start_firing, pulse_fire, torpedo_fire: the target's object id

---@class test.PlayerRow
---@field id integer
---@field name string
---@field kills integer
---@field deaths integer
---@field score integer
---@field team integer?

---@class test.ShipRow
---@field id integer
---@field name string
---@field species integer
---@field owner integer      player id, 0 for a host ship
---@field team integer?
---@field host boolean       a host ship (bc.create_ship)
---@field alive boolean
---@field position number[]? {x, y, z}
---@field forward number[]?
---@field hull number?       0..1

---A game under test: the real engine with the mission loaded.
---@class test.Game
local Game = {}
---A player joins as a stock client does; in the game when it returns.
---@param name string
---@return test.Bot
function Game:join(name) end
---Run the game for this long: ticks, timers, second events, restarts.
---@param seconds number
function Game:advance(seconds) end
---A copy of the mission's bc.storage.
---@return table
function Game:storage() end
---A copy of the mission's bc.memory.
---@return table
function Game:memory() end
---Restart the server: bc.storage comes back as from its storage file, bc.memory does not, every player is gone, mission_start runs.
function Game:restart() end
---@return boolean
function Game:game_over() end
---@return {script: string, map_name: string, system: string, time_limit: integer, frag_limit: integer}
function Game:mission() end
---Whether the mission is running (false once suspended).
---@return boolean
function Game:loaded() end
---The mission's errors so far; calling it tells the runner the case expects them.
---@return string[]
function Game:errors() end
---The server's whole log.
---@return string
function Game:log() end
---Reload the mission from its folder.
---@return string? err
function Game:reload() end
---Every ship the server models, host ships included.
---@return test.ShipRow[]
function Game:ships() end
---@param id integer
---@return test.ShipRow?
function Game:ship(id) end
---Set a subsystem's condition by hand (0..1).
---@param id integer
---@param subsystem string
---@param fraction number
function Game:set_condition(id, subsystem, fraction) end
---The weapon hits the host applied, from the since-th on (default all).
---@param since integer?
---@return test.Hit[]
function Game:hits(since) end
---With test.game{record = true}: the match history, newest first, as GET /api/v1/matches has it.
---@return table[]
function Game:matches() end
---With test.game{record = true}: the last match recorded to its end, read back from its file, or nil.
---@return table?
function Game:recording() end

---One weapon hit the host applied (weapon_hit).
---@class test.Hit
---@field at number          seconds of game time
---@field shooter integer?   the firing ship's object id
---@field shooter_id integer the firing player, 0 for a host ship
---@field target integer     the ship hit
---@field weapon integer     the bank, cannon or tube
---@field weapon_name string
---@field kind "phaser"|"pulse"|"torpedo"
---@field damage number      hit points before shields
---@field absorbed number    what the shield facing took
---@field hull_hit boolean

---A scripted player.
---@class test.Bot
---@field id integer      the player id the mission sees
---@field name string
local Bot = {}
---Fly a new ship (a respawn when it has one). A ship the host refuses gives nil and the host's chat line.
---@param class string|integer class name (any case) or species index
---@param position number[]? {x, y, z}; default: 60 world units apart per slot
---@return integer? ship_id
---@return string? refused
function Bot:spawn(class, position) end
---Place the ship, facing the direction given (default +y).
---@param position number[]
---@param forward number[]?
function Bot:move(position, forward) end
---Turn toward the other bot's ship and fire at it: the phaser system (StartFiring 0x07), each reloaded torpedo tube (TorpedoFire 0x19), each pulse cannon (PulseFire 0x1A), as `weapons` says (default "phaser"); returns what fired (phaser banks bearing ahead, torpedoes, bolts).
---@param other test.Bot
---@param weapons (string|string[])? "phaser", "torpedo", "pulse", comma-separated or a list, or "all"
---@return integer fired
function Bot:fire(other, weapons) end
---Stop the phaser system (StopFiring 0x08).
function Bot:stop_firing() end
---Fire, advancing 0.6 s a step, until the other ship explodes; returns the steps.
---@param other test.Bot
---@param max_shots integer?
---@param weapons (string|string[])?
---@return integer
function Bot:kill(other, max_shots, weapons) end
---Turn toward any object (a host ship, or a bot's ship) and fire at it; returns what fired (the phaser banks that bear ahead, torpedoes, bolts).
---@param id integer|test.ShipRow|test.Bot
---@param weapons (string|string[])?
---@return integer fired
function Bot:fire_at(id, weapons) end
---Fire volleys 0.6 s apart until the object is destroyed; returns what fired in all.
---@param id integer|test.ShipRow|test.Bot
---@param max_volleys integer?
---@param weapons (string|string[])?
---@return integer
function Bot:attack(id, max_volleys, weapons) end
---Ram the other ship, a second apart; returns the rams made.
---@param other test.Bot
---@param times integer?
---@return integer
function Bot:ram(other, times) end
---Announce a team (TEAM 0x41), as a stock client does before each spawn in the team modes.
---@param team integer
function Bot:team(team) end
function Bot:self_destruct() end
---@param text string
---@param team boolean?
function Bot:chat(text, team) end
function Bot:leave() end
---@return boolean
function Bot:alive() end
---@return integer ship_id 0 for none
function Bot:ship() end
---@return test.PlayerRow?
function Bot:player() end
---@param type string?
---@return test.Message[]
function Bot:messages(type) end
---@param type string
---@return test.Message?
function Bot:last(type) end
function Bot:clear() end

---@class test
test = {}
---Register a case.
---@param name string
---@param fn fun()
function test.case(name, fn) end
---A new game running a mode.
---@param options test.GameOptions?
---@return test.Game
function test.game(options) end
---Seed careers for the case's games from now on: bc.stats of these players starts from them.
---@param careers table<string, {matches: integer?, kills: integer?, deaths: integer?, assists: integer?, score: integer?, best_score: integer?, wins: integer?, seconds_played: number?, damage_dealt: table?, damage_taken: table?, favourite_class: string?, classes: table<string, number>?}>
function test.careers(careers) end
---Equal (tables compared deeply).
---@param got any
---@param want any
---@param msg string?
function test.eq(got, want, msg) end
---@param value any
---@param msg string?
function test.ok(value, msg) end
---@param got number
---@param want number
---@param eps number?
---@param msg string?
function test.near(got, want, eps, msg) end
---@param msg string?
function test.fail(msg) end
