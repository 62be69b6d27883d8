package gamespy

// Fixed values of the basic section (gamespy.md 2.1).
const (
	// GameName is the stock `gamename`, also used in heartbeats.
	GameName = "bcommander"
	// GameVersion is the stock `gamever` of query replies. (The client's
	// master-server login says 1.6 instead; that is not the server's business.)
	GameVersion = "60"
)

// Game modes reported as `gamemode` (gamespy.md 2.1).
const (
	// ModeOpenPlaying means a game is running and can be joined.
	ModeOpenPlaying = "openplaying"
	// ModeSettings means the host is in the setup screen.
	ModeSettings = "settings"
)

// Stock "no limit" values (gamespy.md 2.1).
const (
	// NoTimeLimit is the `timelimit` of a game without a time limit.
	NoTimeLimit = -1
	// NoFragLimit is the `fraglimit` the stock server reports without a
	// frag limit.
	NoFragLimit = -2
)

// DefaultHostEntry is the `player_0` name the stock dedicated server lists
// for itself (gamespy.md 2.1).
const DefaultHostEntry = "Dedicated Server"

// ServerInfo is the snapshot a [Responder] reports. The engine fills it in
// from its own state each time a query needs it (see [Options].Info).
//
// String values are sent as they are, except that a backslash, which would
// end the value early on the wire, is replaced by '/', NUL bytes are dropped
// (the stock server works on C strings) and each value is cut to
// [MaxValueLen] bytes so that any single key fits in one datagram.
type ServerInfo struct {
	// Hostname feeds `hostname`. It is sent with a `*` prefix when
	// Password is set, as the stock server does (gamespy.md 2.1, 5).
	Hostname string
	// MissionScript feeds `missionscript`, the mission module, e.g.
	// "Multiplayer.Episode.Mission1.Mission1".
	MissionScript string
	// MapName feeds `mapname`, the short mission name, e.g. "DM".
	MapName string
	// NumPlayers feeds `numplayers`: connected players, the dedicated host
	// itself not counted (normally len(Players)).
	NumPlayers int
	// MaxPlayers feeds `maxplayers`.
	MaxPlayers int
	// GameMode feeds `gamemode`: [ModeOpenPlaying] or [ModeSettings].
	GameMode string
	// TimeLimit feeds `timelimit`, in minutes; [NoTimeLimit] (-1) for none.
	TimeLimit int
	// FragLimit feeds `fraglimit`; [NoFragLimit] (-2) for none, as stock.
	FragLimit int
	// System feeds `system`, the star-system script, e.g. "Multi1".
	System string
	// Password feeds `password` (0/1) and the `*` prefix of `hostname`.
	Password bool
	// Location feeds `location`, an integer region; the stock dedicated
	// server sent 1.
	Location int
	// Players feeds `player_N`, one per connected player, in order. The
	// host entry ([Options].HostEntry) is listed before them unless
	// disabled, so by default Players[0] is reported as `player_1`.
	Players []string
}
