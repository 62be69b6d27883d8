---@meta bc
-- LuaLS annotations for the bcserver mission API (docs/lua-api.md).
-- This file is never run: point your editor's Lua language server at this
-- folder (see lua/types/README.md) and `bc.` completes with types.

---@alias bc.Event
---| "mission_load"     # the mission's state is ready (first load and every reload)
---| "mission_start"    # first load only: open the game, start clocks
---| "mission_reload"   # a new version replaced the old one; bc.storage carried over
---| "mission_unload"   # this version is being replaced or the server stops
---| "second"           # every second of real time
---| "timer"            # a timer made with bc.timer fired
---| "player_connected" # a connect was accepted; checksums begin
---| "checksum_failed"  # a client failed file validation
---| "player_joined"    # NewPlayerInGame 0x2A: send the join sync from here
---| "player_in_game"   # the player is announced and receives broadcasts
---| "player_left"      # the player is gone
---| "script_message"   # a message >= 0x2B from a client (not chat); return true when handled
---| "chat"             # a chat or team chat line; return false to stop the relay
---| "tick"             # every game tick (~100 ms)
---| "ship_requested"   # a player picked a ship the rules allow, before the host accepts it; return false, reason to refuse
---| "ship_created"     # a ship now exists
---| "ship_damaged"     # a ship took damage (weapon hit or collision)
---| "ship_destroyed"   # a ship exploded (the stock "object exploding")
---| "object_destroyed" # an object is gone
---| "weapon_fired"     # a player fired
---| "weapon_hit"       # a weapon hit a ship (damage model)
---| "game_ended"       # END_GAME was sent
---| "game_restarted"   # RESTART_GAME was sent
---| "teams_balanced"   # the server assigned teams from ratings: {teams = {[player id] = team}}
---| "violation"        # a player's message broke a fair-play rule; return "log", "drop", "notify", "kick" or "ban" to decide
---| string             # a custom event "namespace:name" (bc.emit)

---@class bc.Player
---@field id integer       network player id (2, 3, ...; the host is 1); reused after a player leaves
---@field uid integer      identity for the life of the process: never reused, kept on a rejoin (same name and IP within 5 minutes)
---@field slot integer     0-based player slot
---@field name string
---@field state "checksum"|"loading"|"in-game"|"rejected"|"unknown"
---@field in_game boolean
---@field team integer?    engine team (set with bc.set_team), nil for none
---@field ship_id integer  object id of the current ship, 0 for none
---@field kills integer    as last reported with bc.set_score (counts and points, no unit)
---@field deaths integer
---@field score integer
---@field account string? the account the player logged in to ([accounts]); nil for a guest
---@field scored false?   false while a protected name is not logged in: the points do not count

---A handle on a ship (or any object): the fields never change, the
---methods read the ship as it is now; orders work on host ships only.
---Handles compare equal when they name the same object; keep ship.id,
---not handles, in bc.storage.
---@class bc.Ship
---@field id integer            network object id
---@field is_ship boolean
---@field is_player_ship boolean the current ship of a player
---@field is_torpedo boolean
---@field is_host boolean       made by the mission with bc.create_ship
---@field owner_id integer      owner's player id, 0 for host ships
---@field owner_slot integer
---@field species integer       SpeciesToShip index (bc.species)
---@field class integer         damage-modifier class (bc.modifier; 1 for every stock ship)
---@field class_name string?    ship data class name ("Sovereign")
---@field name string
---@field set string            star-system set
---@field team integer?         the owner's team (player ship) or the create_ship team (host ship)
local Ship = {}
---@return boolean alive exists and has not exploded
function Ship:alive() end
---@return number[]? position {x, y, z}, world units
function Ship:position() end
---@return number[] velocity {x, y, z}, world units per second
function Ship:velocity() end
---@return number speed along the nose, world units per second (negative: astern)
function Ship:speed() end
---@return number[]? forward unit vector {x, y, z}
function Ship:forward() end
---@return number[]? up unit vector {x, y, z}
function Ship:up() end
---@return number? hull condition 0..1
function Ship:hull() end
---@return {front: number, rear: number, top: number, bottom: number, left: number, right: number}? shields each 0..1
function Ship:shields() end
---@return bc.Subsystem[]? subsystems in wire order
function Ship:subsystems() end
---@param name_or_type string a subsystem name (any case) or type ("sensor", "shield", "phaser", ...)
---@return bc.Subsystem?
function Ship:subsystem(name_or_type) end
---@param other bc.Ship|number[] a ship or a point {x, y, z}
---@return number? distance world units
function Ship:distance(other) end
---@return number radius bounding radius estimate, world units
function Ship:radius() end
---@return boolean cloaked its owner last reported the cloak on
function Ship:cloaked() end
---@param group bc.WeaponGroup?
---@return integer[] ids the host ship's target list
function Ship:targets(group) end
---Host ships: fly to a point or close on a ship.
---@param target bc.Ship|number[]
---@param speed number? world units per second (default: top speed)
---@param arrival number? stop within this many world units (default 5)
---@return boolean taken
function Ship:move_to(target, speed, arrival) end
---Host ships: turn the nose toward a point or ship and hold it.
---@param target bc.Ship|number[]
---@return boolean taken
function Ship:face(target) end
---@param direction number[] {x, y, z}
---@return boolean taken
function Ship:set_heading(direction) end
---@param speed number world units per second, clamped to the class's top speed
---@return boolean taken
function Ship:set_speed(speed) end
---@return boolean taken
function Ship:stop() end
---Host ships: put a ship on the target lists of the weapon systems of `group` (nil = all).
---@param target bc.Ship
---@param group bc.WeaponGroup?
---@return boolean taken false when the ship is gone or has no such weapons
function Ship:fire_at(target, group) end
---@param group bc.WeaponGroup?
---@return boolean taken
function Ship:stop_firing(group) end
---@param on boolean one bank at a time
---@param group bc.WeaponGroup?
---@return boolean taken
function Ship:set_single_fire(on, group) end
---Any ship: its own damage and durability factors (nil removes them); they go with the ship.
---@param factors bc.Modifiers?
function Ship:set_modifiers(factors) end
---Every factor in force for the ship: its own × its class's × its team's (1 where none is set).
---@return bc.Modifiers
function Ship:modifiers() end
---Any ship: deal damage as a weapon would (health updates, weapon_hit kind "mission", kill credit to by).
---@param spec {amount: number, subsystem: string?, by: integer?} hit points; a subsystem name or type (default the hull); the player credited
---@return boolean taken false when the ship is gone or not modelled
function Ship:damage(spec) end
---Any ship: set a subsystem ("hull" too) to a fraction of its maximum; a fall is damage credited to by, a rise a repair.
---@param subsystem string name or type
---@param fraction number 0..1
---@param by integer?
---@return boolean taken
function Ship:set_condition(subsystem, fraction, by) end
---Host ships: blow it up (the stock death sequence, no killer).
---@return boolean taken
function Ship:destroy() end
---Host ships: delete it on every client at once (DestroyObject).
---@return boolean taken
function Ship:remove() end

---@alias bc.WeaponGroup "phasers"|"pulse"|"torpedoes"|"tractors"

---@class bc.Subsystem
---@field name string
---@field type string          subsystems.json type, or the system kind ("phaser system")
---@field id integer           subsystem object id
---@field condition number     0..1
---@field hit_points number
---@field max_hit_points number
---@field disabled boolean     below its disabled percentage
---@field critical boolean     its loss destroys the ship
---@field parent string?       the system a bank or tube belongs to

---@class bc.ShipSpec
---@field class string|integer  class name or species index
---@field name string?          1..64 bytes (default: the class name)
---@field team integer?         0..255
---@field position number[]?    {x, y, z} world units
---@field orientation number[]? quaternion {w, x, y, z}
---@field collisions boolean?   false: no collision damage

---@class bc.ShipClass
---@field name string
---@field flyable boolean   offered on the stock ship-select screen (species 1..15)
---@field species integer
---@field faction string
---@field radius number      world units
---@field hull number        hit points
---@field mass number
---@field max_speed number   world units per second
---@field max_accel number   world units per second²
---@field max_turn number    radians per second
---@field stationary boolean
---@field phasers integer
---@field torpedo_tubes integer
---@field pulse_weapons integer

---@alias bc.Object bc.Ship

---@class bc.LoadEvent
---@field mode string
---@field version integer
---@field reload boolean
---@field restored boolean  bc.storage was read back from the last run (first load after a restart)
---@field config table

---@class bc.ReloadEvent
---@field version integer
---@field previous_version integer
---@field suspended boolean  the previous version had been suspended for its errors

---@class bc.UnloadEvent
---@field reason "reload"|"shutdown"

---@class bc.TimerEvent
---@field name string
---@field id integer

---@class bc.PlayerEvent
---@field player bc.Player

---@class bc.ChecksumFailedEvent: bc.PlayerEvent
---@field round integer
---@field file string
---@field reason string

---@class bc.PlayerLeftEvent: bc.PlayerEvent
---@field reason "quit"|"timeout"|"kicked"|"rejected"|"overflow"|"shutdown"
---@field was_in_game boolean

---@class bc.ScriptMessageEvent: bc.PlayerEvent
---@field from integer    sender's player id
---@field opcode integer  first byte
---@field payload string  the whole message
---@field name string?     the type's name, when the data pack declares it (messages.json)
---@field fields table<string, number|string>?  its fields decoded by the declared layout

---@class bc.ChatEvent: bc.PlayerEvent
---@field from integer
---@field team boolean    team chat (0x2D)
---@field text string
---@field payload string  the message as received (and relayed)

---@class bc.TickEvent
---@field dt number        seconds since the last tick
---@field game_time number seconds of the game clock

---@class bc.ShipCreatedEvent
---@field ship bc.Object

---@class bc.ShipDestroyedEvent
---@field victim bc.Ship
---@field killer bc.Ship?    the ship that dealt the lethal damage
---@field killer_id integer  firing player, 0 for none (host ships included)
---@field cause "weapon"|"collision"|"self_destruct"|"environment"
---@field lifetime number  seconds the explosion lasts
---@field weapon integer  object id of the bank, cannon or tube whose hit killed, 0 for none
---@field weapon_name string  its subsystem name, "" for none
---@field kind "phaser"|"pulse"|"torpedo"|"collision"|"self_destruct"|""  what killed

---@class bc.ObjectDestroyedEvent
---@field object bc.Object

---@class bc.WeaponFiredEvent
---@field shooter bc.Player
---@field shooter_id integer
---@field opcode integer  0x07 StartFiring, 0x1A PulseFire, 0x19 TorpedoFire
---@field weapon integer  the weapon system (0x07), cannon (0x1A) or tube (0x19): object id
---@field target integer  target object id, 0 for none
---@field kind "phaser"|"pulse"|"torpedo"|"tractor"|""  the kind of weapon ("" when the ship data does not say)

---@class bc.ShipDamagedEvent
---@field ship bc.Ship
---@field attacker bc.Ship?    the other ship
---@field attacker_id integer  its player, 0 for none
---@field cause "weapon"|"collision"|"environment"
---@field damage number        hit points before shields
---@field hull_hit boolean
---@field kind "phaser"|"pulse"|"torpedo"|"collision"

---@class bc.WeaponHitEvent
---@field target bc.Ship
---@field shooter bc.Ship?    the firing ship
---@field shooter_id integer  0 for a host ship
---@field damage number     hit points before shields (one impact, or one beam quantum)
---@field absorbed number   what the shield facing took
---@field hull_hit boolean  whether the hull lost condition
---@field weapon integer    object id of the bank, cannon or tube
---@field weapon_name string  its subsystem name
---@field kind "phaser"|"pulse"|"torpedo"|"mission"

---@class bc.GameEndedEvent
---@field reason integer
---@field winner_team integer? the outcome bc.end_game gave: the winning team
---@field winner integer?      the winning player's id
---@field winner_name string?
---@field why string?
---@field teams table<integer, {kills: integer, score: integer}>?

---@class bc.CommandEvent
---@field player bc.Player
---@field from integer     the player's id
---@field name string      the command, lower case
---@field args string[]    the arguments: split on blanks, "double quotes" group
---@field text string      the rest of the line as typed
---@field team boolean     said in team chat

---@class bc.json
local json = {}
---Encode a value as JSON text: 1..n tables are arrays, others objects, {} is {}.
---@param v any
---@return string? text, string? error
function json.encode(v) end
---Decode JSON text; null becomes nil.
---@param text string
---@return any value, string? error
function json.decode(text) end

---@class bc.Writer
local Writer = {}
---@param v integer 0..255
---@return bc.Writer
function Writer:u8(v) end
---@param v integer -128..127
---@return bc.Writer
function Writer:i8(v) end
---@param v integer 0..65535
---@return bc.Writer
function Writer:u16(v) end
---@param v integer -32768..32767
---@return bc.Writer
function Writer:i16(v) end
---@param v integer
---@return bc.Writer
function Writer:i32(v) end
---@param v integer 0..4294967295
---@return bc.Writer
function Writer:u32(v) end
---@param v number
---@return bc.Writer
function Writer:f32(v) end
---@param v number
---@return bc.Writer
function Writer:f64(v) end
---@param v boolean one packed bit (five share a byte)
---@return bc.Writer
function Writer:bit(v) end
---@param ... boolean
---@return bc.Writer
function Writer:bits(...) end
---@param s string u16 length + bytes
---@return bc.Writer
function Writer:str16(s) end
---@param s string u8 length + bytes
---@return bc.Writer
function Writer:str8(s) end
---@param s string bytes verbatim
---@return bc.Writer
function Writer:raw(s) end
---@param v number CompressedFloat16
---@return bc.Writer
function Writer:cf16(v) end
---@return integer
function Writer:len() end
---@return string
function Writer:bytes() end

---@class bc.Reader
local Reader = {}
---@return integer
function Reader:u8() end
---@return integer
function Reader:i8() end
---@return integer
function Reader:u16() end
---@return integer
function Reader:i16() end
---@return integer
function Reader:u32() end
---@return integer
function Reader:i32() end
---@return number
function Reader:f32() end
---@return number
function Reader:f64() end
---@return number
function Reader:cf16() end
---@return boolean
function Reader:bit() end
---@return string
function Reader:str16() end
---@return string
function Reader:str8() end
---@param n integer? bytes (default: the rest)
---@return string
function Reader:raw(n) end
---@return integer
function Reader:remaining() end
---@return integer
function Reader:pos() end

---@class bc.ScoreEntry
---@field player integer
---@field score integer

---@class bc.msg
local msg = {}
---@param m {sender: integer, text: string, team: boolean?}
---@return string
function msg.chat(m) end
---@param m {player_limit: integer?, system: integer, time_limit: integer?, end_time: integer?, frag_limit: integer?}
---@return string
function msg.mission_init(m) end
---@param m {killer: integer?, killer_kills: integer?, killer_score: integer?, victim: integer, victim_deaths: integer, extras: bc.ScoreEntry[]?}
---@return string
function msg.score_change(m) end
---@param m {player: integer, kills: integer?, deaths: integer?, score: integer?}
---@return string
function msg.score(m) end
---@param reason integer|{reason: integer}
---@return string
function msg.end_game(reason) end
---@return string
function msg.restart_game() end
---@param m {player: integer, kills: integer?, deaths: integer?, score: integer?, team: integer?}
---@return string
function msg.score_init(m) end
---@param m {team: integer, kills: integer?, score: integer?}
---@return string
function msg.team_score(m) end
---@param m {player: integer, team: integer}
---@return string
function msg.team(m) end

---@class bc.parse
local parse = {}
---@param b string
---@return {sender: integer, text: string, team: boolean}?, string?
function parse.chat(b) end
---@param b string
---@return {player_limit: integer, system: integer, time_limit: integer, end_time: integer?, frag_limit: integer}?, string?
function parse.mission_init(b) end
---@param b string
---@return {killer: integer, killer_kills: integer, killer_score: integer, victim: integer, victim_deaths: integer, extras: bc.ScoreEntry[]}?, string?
function parse.score_change(b) end
---@param b string
---@return {player: integer, kills: integer, deaths: integer, score: integer}?, string?
function parse.score(b) end
---@param b string
---@return {reason: integer}?, string?
function parse.end_game(b) end
---@param b string
---@return table?, string?
function parse.restart_game(b) end
---@param b string
---@return {player: integer, kills: integer, deaths: integer, score: integer, team: integer}?, string?
function parse.score_init(b) end
---@param b string
---@return {team: integer, kills: integer, score: integer}?, string?
function parse.team_score(b) end
---@param b string
---@return {player: integer, team: integer}?, string?
function parse.team(b) end

---@class bc.log
local log = {}
---@param msg any
---@param fields table?
function log.debug(msg, fields) end
---@param msg any
---@param fields table?
function log.info(msg, fields) end
---@param msg any
---@param fields table?
function log.warn(msg, fields) end
---@param msg any
---@param fields table?
function log.error(msg, fields) end

---@class bc.Species
---@field index integer
---@field constant string
---@field script string?
---@field side string
---@field class integer
---@field flyable boolean

---@class bc.MissionInfo
---@field script string?     Settings script name, e.g. "Multiplayer.Episode.Mission1.Mission1"
---@field map_name string?   GameSpy map name
---@field system string?     star system, e.g. "Multi1"
---@field time_limit integer? minutes, -1 none
---@field frag_limit integer? -1 none

---@class bc
---@field mode string          the mission folder
---@field version integer      1 on first load, +1 per reload
---@field host_id integer      1
---@field storage table        plain data kept across reloads and, with [lua] storage_dir, restarts
---@field memory table         plain data kept across reloads only: empty after a restart
---@field config table         the [mission] options
---@field msg bc.msg
---@field parse bc.parse
---@field log bc.log
---@field json bc.json
---@field species table<integer, bc.Species> SpeciesToShip, index 0..45
---@field systems string[]     stock systems, index 1..9
---@field modifier number[][]  damage modifier [attacker class][victim class], 0-based
---@field OP {CHAT: integer, TEAM_CHAT: integer, MISSION_INIT: integer, SCORE_CHANGE: integer, SCORE: integer, END_GAME: integer, RESTART_GAME: integer, SCORE_INIT: integer, TEAM_SCORE: integer, TEAM: integer, MAX_MESSAGE_TYPES: integer}
---@field END {ITS_JUST_OVER: integer, TIME_UP: integer, NUM_FRAGS_REACHED: integer, SCORE_LIMIT_REACHED: integer, STARBASE_DEAD: integer, BORG_DEAD: integer, ENTERPRISE_DEAD: integer}
---@field INVALID_TEAM integer 255
---@field NO_LIMIT integer     255
bc = {}

---Register a handler. With an id, registering again replaces it in place.
---@param event bc.Event
---@param id_or_fn string|function
---@param fn function?
---@return string id
function bc.on(event, id_or_fn, fn) end
---Call the handlers of a custom event ("namespace:name") now, in order.
---@param name string
---@param payload any
function bc.emit(name, payload) end
---Register the chat command !name; a string the handler returns is sent to the player.
---@param name string 1..24 of a-z 0-9 _ -
---@param handler fun(ev: bc.CommandEvent): string?
---@param help string? shown by !help
function bc.command(name, handler, help) end
---@param event bc.Event
---@param id string
---@return boolean removed
function bc.off(event, id) end

---Career statistics (docs/lua-api.md, "Career statistics").
---@class bc.Damage
---@field phaser number
---@field pulse number
---@field torpedo number
---@field collision number
---@field other number
---@field total number

---@class bc.Stats
---@field identity string        the stable id: the name, case-folded
---@field names string[]         every spelling used, latest first
---@field matches integer
---@field kills integer
---@field deaths integer
---@field assists integer
---@field score integer
---@field best_score integer
---@field seconds_played number
---@field wins integer matches won (the winning team, or the winner, of bc.end_game's outcome)
---@field damage_dealt bc.Damage
---@field damage_taken bc.Damage
---@field favourite_class string  the class flown longest ("" for none)
---@field classes table<string, number> seconds flown per class

---A player's career over every recorded match; nil without [store] path or
---while it is being read (just after a join).
---@param player integer|string  a player id, or a name
---@return bc.Stats?
function bc.stats(player) end

---@class bc.Rating
---@field rating number      Glicko-2 rating (1500 at the start)
---@field deviation number   rating deviation (350 at the start)
---@field volatility number
---@field matches integer    rated matches in this season
---@field family "ffa"|"team"
---@field season string

---A player's skill rating in the running mode's family (free-for-all or
---team) and season; nil without accounts and [ratings], or for a guest.
---@param player integer a player id
---@return bc.Rating?
function bc.rating(player) end

---Assigns the teams from the players' ratings now (the smallest gap
---between the teams' rating sums); false when the server has no ratings.
---@return boolean
function bc.balance_teams() end

---The modes the missions folder has.
---@return string[]
function bc.modes() end

---Switches the game mode (when the match ends, or at once with now).
---@param mode string
---@param opts {system: string?, time_limit: integer?, frag_limit: integer?, now: boolean?}?
function bc.set_mode(mode, opts) end

---Advances the [[rotation]] (at the match end, or at once with now);
---without a rotation the running mode starts a new match.
---@param now boolean?
function bc.next_match(now) end

---The rotation's steps and the index (1-based) of the running one.
---@return table[] steps, integer current
function bc.rotation() end

---@return bc.Player[]
function bc.players() end
---@param id integer
---@return bc.Player?
function bc.player(id) end
---@param uid integer
---@return bc.Player? the connected player with this uid
function bc.player_by_uid(uid) end
---@param id integer
---@param team integer? nil for none
function bc.set_team(id, team) end
---@param id integer
---@param kills integer
---@param deaths integer
---@param score integer
function bc.set_score(id, kills, deaths, score) end
---@param id integer
---@param reason ("kicked"|"timeout"|"refused"|"full")?
function bc.kick(id, reason) end

---@param id integer
---@return bc.Ship?
function bc.object(id) end
---@return bc.Ship[]
function bc.objects() end
---@param id integer
---@return bc.Ship? ship a ship (a wreck included), nil for anything else
function bc.ship(id) end
---@return bc.Ship[] ships every live ship, player and host ships alike
function bc.ships() end
---@param player_id integer
---@return bc.Ship?
function bc.ship_of(player_id) end

---Make a host ship; capped by [lua] max_ships. Staged while a version loads.
---@param spec bc.ShipSpec
---@return bc.Ship
function bc.create_ship(spec) end
---@param class string|integer class name (any case) or species index; an unknown one is an error listing the classes
---@return bc.ShipClass
function bc.ship_class(class) end
---Every class the server has ship data for: a list in species order (ipairs), not a table keyed by species; each entry's species field gives its index.
---@return bc.ShipClass[]
function bc.ship_classes() end

---@class bc.ShipRules
---@field classes (string|integer)[]?                 every player's classes; nil: any
---@field teams table<integer, (string|integer)[]>?  a team's list replaces classes for its players

---Set the classes players may fly, enforced by the host (nil: any class). Staged while a version loads.
---@param rules bc.ShipRules?
function bc.set_ship_rules(rules) end
---The rules in force, as class names; nil when any class is allowed.
---@return bc.ShipRules?
function bc.ship_rules() end
---Whether the rules let a player fly a class; when not, also the line he would read.
---@param player_id integer
---@param class string|integer
---@return boolean allowed
---@return string? why
function bc.ship_allowed(player_id, class) end

---@class bc.Modifiers
---@field damage_dealt number?      the damage of every weapon hit the ship deals
---@field shield_damage number?     what its shield facings lose for what they absorb
---@field hull_damage number?       what its hull loses
---@field subsystem_damage number?  what its other subsystems lose
---@field collision_damage number?  the collision damage it takes
---@field shield_recharge number?   its shields' regeneration
---@field repair_rate number?       its repair teams' work

---@class bc.ModifierRules
---@field classes table<string|integer, bc.Modifiers>?  by class name or species index
---@field teams table<integer, bc.Modifiers>?           by team (bc.set_team)

---@class bc.Hit
---@field shooter bc.Ship? the firing ship (nil when gone)
---@field shooter_id integer its player (0: a host ship)
---@field team integer? the shooter's team
---@field target bc.Ship
---@field target_id integer the target's owner (0: a host ship)
---@field target_team integer?
---@field kind string "phaser", "pulse" or "torpedo"
---@field weapon integer the bank, cannon or tube
---@field weapon_name string
---@field subsystem string? the target's subsystem nearest where it lands
---@field damage number hit points after the shooter's damage_dealt

---One rule the host asks for every weapon hit before it lands: return the damage to deal (0 or false cancels, nil leaves it). nil removes it. The hit table is reused: do not keep it.
---@param rule (fun(hit: bc.Hit): (number|boolean|nil))?
function bc.set_damage_rule(rule) end

---Set damage and durability factors by class and by team (nil: none); 0..1000, 0 turns a step off. Staged while a version loads.
---@param rules bc.ModifierRules?
function bc.set_modifiers(rules) end
---The class and team factors in force (only those set).
---@return bc.ModifierRules
function bc.modifiers() end

---@class bc.ShipRequestEvent
---@field player bc.Player
---@field ship_id integer      the object id the ship would have
---@field species integer
---@field class_name string?
---@field name string          the ship's name
---@field team integer?        the player's team (bc.set_team)
---@param point number[] {x, y, z}
---@param radius number world units
---@return boolean free no live ship touches the sphere
function bc.location_free(point, radius) end
---math.random's contract on the mission's seedable generator.
---@param m integer?
---@param n integer?
---@return number
function bc.random(m, n) end

---@return bc.Writer
function bc.writer() end
---@param bytes string
---@return bc.Reader
function bc.reader(bytes) end
---Reliable, to one player (joining or in game).
---@param id integer
---@param bytes string
---@return boolean sent
function bc.send(id, bytes) end
---Reliable, to every in-game player (the stock "NoMe" group).
---@param bytes string
function bc.broadcast(bytes) end
---@param id integer
---@param bytes string
function bc.send_except(id, bytes) end
---@param team integer
---@param bytes string
---@return integer sent
function bc.send_team(team, bytes) end

---@class bc.Outcome
---@field reason integer? bc.END.* (in the one-table form)
---@field winner_team integer? the winning team
---@field winner integer? the winning player's id
---@field why string? how it was won, at most 128 bytes
---@field teams table<integer, {kills: integer, score: integer}>? default: the last bc.status teams

---END_GAME to everyone; the outcome (who won, why) goes into the match history, the recording and the careers.
---@param reason integer|bc.Outcome bc.END.*, or {reason = ..., winner_team = ..., ...}
---@param outcome bc.Outcome?
function bc.end_game(reason, outcome) end
function bc.restart_game() end
---@return boolean
function bc.game_over() end
---@param open boolean
function bc.set_accepting(open) end
---@return boolean
function bc.accepting() end
---@param on boolean
function bc.set_team_mode(on) end
---@class bc.TeamStatus
---@field kills integer?
---@field score integer?

---@class bc.Status
---@field time_left integer? seconds left in the match; nil without a time limit
---@field teams table<integer, bc.TeamStatus>? team modes: the score of each team

--- What the host's status (admin API, console) shows beyond the engine's
--- view; each call replaces the whole status.
---@param s bc.Status
function bc.status(s) end
---@return bc.MissionInfo
function bc.mission() end
---@param m bc.MissionInfo
function bc.set_mission(m) end
---@return number seconds of the synchronised game clock
function bc.game_time() end
---@return number wall-clock seconds (Unix time); advances inside a call
function bc.clock() end
---@param name string
---@return integer index 1..9, 0 if not a stock system
function bc.system_index(name) end

---Call fn once, on the first tick at or after `seconds` from now.
---@param seconds number >= 0
---@param fn function
---@return integer id
function bc.after(seconds, fn) end
---Call fn every `seconds`.
---@param seconds number >= 0.1 ([lua] min_period)
---@param fn function
---@return integer id
function bc.every(seconds, fn) end
---@param name string
---@param seconds number
---@param rep boolean? repeat every `seconds`
---@return integer id
function bc.timer(name, seconds, rep) end
---@param id integer
---@return boolean cancelled false if no such timer was pending
function bc.cancel(id) end
