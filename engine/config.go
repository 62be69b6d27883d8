package engine

import (
	"fmt"
	"time"

	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// MaxSlots is the size of the stock player-slot table (handshake.md 1),
// and the highest player limit a host may configure.
const MaxSlots = 16

// StockMaxPlayers is the player limit of a stock dedicated server: the
// stock menus offer 2..8 and dedicated hosts send 8 in MISSION_INIT
// (missions.md 2.3).
const StockMaxPlayers = 8

// Mission describes the running mission as the join handshake and the
// server browser report it. The mission layer may change it at run time.
type Mission struct {
	// Script is the mission module announced in Settings, e.g.
	// "Multiplayer.Episode.Mission1.Mission1" (missions.md 3.1).
	Script string
	// MapName is the short name GameSpy reports as mapname, e.g. "DM".
	MapName string
	// System is the star-system script, e.g. "Multi1" (GameSpy `system`).
	System string
	// TimeLimit in minutes, -1 for none; FragLimit, -1 for none.
	TimeLimit, FragLimit int
}

// Config is the runtime configuration of a Game.
type Config struct {
	ServerName string
	// MaxPlayers caps the players connected at once (joining or in game),
	// 1..16 (default 8 as stock; more than 8 is beyond what stock menus
	// offer). It is also the player limit missions announce in MISSION_INIT.
	// A joiner beyond it gets the connect reply and then the stock "server
	// full" boot (reason 3, handshake.md 2.1).
	MaxPlayers int
	// Password, when set, must be in the connect request (compared with only
	// A..Z case-insensitive, as stock); a wrong or missing one is refused
	// with boot reason 2. Browsers show the server as locked.
	Password string
	// Bans are fixed ban entries (IPv4 patterns with 255 as a wildcard
	// octet, or "name:<player>"); BanFile is the ban list the server keeps,
	// changed at run time with Game.Ban and Game.Unban ("" for none).
	Bans            []string
	BanFile         string
	Mission         Mission
	CollisionDamage bool
	// JoinInProgress admits players while a game runs; when false only an
	// open lobby (no game running, e.g. after END_GAME until a restart)
	// admits them.
	JoinInProgress bool
	// Manifest is what clients' checksum responses are checked against;
	// nil means the embedded vanilla 1.1 manifest.
	Manifest   *checksum.Manifest
	Validation checksum.Mode
	// RequireFiles fails a client that lacks a file or subdirectory of the
	// manifest in rounds 0-3. Stock passes such a client and fails only a
	// file both sides have with different content (handshake.md 2.4), so
	// this stricter rule is off by default.
	RequireFiles bool
	// Push is the rule for checksum round 0xFF (mods.md 5.10): off (the
	// default: any well-formed response passes), verify (a client whose
	// Scripts/Multiplayer differs from PushTree gets 0x22) or push (the
	// differing files are sent to it, one 0x25 per 0x27, before Settings).
	Push checksum.PushMode
	// PushTree is the reference and, in push mode, the source of round
	// 0xFF; required unless Push is off.
	PushTree *checksum.PushTree
	// PushLimits bound one join's push; over them the join is verified.
	PushLimits checksum.PushLimits
	// PushFirstAck, PushAck and PushTotal bound the wait for the 0x27 of
	// the first file (a person answers the client's dialog), of each later
	// file, and the whole push (defaults 180 s, 60 s, 10 min).
	PushFirstAck, PushAck, PushTotal time.Duration
	// SpeciesTables are the stock FileHashes of the compiled species
	// tables the ship data was built from, by file name
	// ("SpeciesToShip.pyc"); with Push off a client whose round-0xFF
	// response differs is logged (mods.md 7.3).
	SpeciesTables map[string]uint32
	// ScriptMessages is the mod's declared script messages (a pack's
	// messages.json, mods.md 6.5): decoded for missions, checked, and
	// applied or forwarded by their policy. nil declares none: every
	// script message goes to the mission as bytes.
	ScriptMessages *scriptmsg.Table
	// RoundTimeout bounds each checksum round; a stock client with no
	// matching files sends nothing at all (handshake.md 2.3, 4).
	RoundTimeout time.Duration
	// JoinTimeout bounds the wait for the client's NewPlayerInGame after
	// Settings.
	JoinTimeout time.Duration
	// RejectLinger is how long a peer that failed validation may stay
	// before it is booted. The stock client leaves by itself once it has
	// the 0x22/0x23 reply and the stock host never boots it
	// (handshake.md 2.4); this only ends a client that does neither (the
	// 45 s timeout ends a silent one).
	RejectLinger time.Duration
	// TickInterval is the game tick (StateUpdates, mission ticks).
	TickInterval time.Duration
	// TickPhase shifts the game's tick grid: the games of one process are
	// spread over the interval so their ticks (the costliest moment of a
	// game) do not all fall on the same millisecond and hold up each
	// other's relays.
	TickPhase time.Duration
	Transport bcnet.Config
	// Ships is the ship data the host models ships with; nil means the
	// embedded vanilla 1.1 data.
	Ships *ships.Registry
	// SpoofLimit boots a player after this many messages acting on
	// someone else's objects within 10 s (0 disables booting; such
	// messages are always dropped).
	SpoofLimit int
	// FlowRate and FlowBurst limit the game messages one player may send
	// per second; beyond them messages are dropped (throttled). A player
	// still over the limit after FlowBoot of throttling is booted.
	FlowRate  float64
	FlowBurst float64
	FlowBoot  time.Duration
	// FlowBytes and FlowByteBurst limit the bytes of game messages one
	// player may send per second in the same way (0 = no byte limit).
	FlowBytes, FlowByteBurst float64
	// JoinsPerAddress caps the players from one IP address that may be
	// joining (holding a slot, not in the game yet) at once; the next one
	// gets the "server full" boot and can retry. 0 (the default) = no cap:
	// players behind one NAT join together, and a connect that never
	// answers holds no slot anyway (Verified).
	JoinsPerAddress int
	// Answers bounds the bytes a process sends to addresses that are not
	// players (GameSpy replies, refusals); the games of one process share
	// it. nil gives the game a budget of its own.
	Answers *bcnet.AnswerBudget
	// ExplosionRadius and ExplosionDamage are the values of the Explosion
	// 0x29 sent for a weapon kill. The stock values are not settled
	// (simulation.md 15: 50.0, 10.1 and 5997.8 were seen); clients apply
	// the area damage locally, so small values are the safe choice.
	ExplosionRadius float32
	ExplosionDamage float32
	// Integrity is the policy for ships whose integrity hash differs from
	// the reference of their species; IntegrityHashes are known reference
	// hashes by species (default: the captured stock ones).
	Integrity       IntegrityPolicy
	IntegrityHashes map[int]uint16
	// NoWeaponDamage turns the host-side weapon damage model off.
	NoWeaponDamage bool
	// CollisionPowerPlant puts the power plant in every collision
	// contact's hit set, as the stock code reads; off by default, since
	// the measurements contradict it (world.Options.CollisionPowerPlant,
	// simulation.md 15).
	CollisionPowerPlant bool
	// FairPlay is the fair-play rules' configuration (README, "Fair
	// play"): on by default, violations logged and dropped.
	FairPlay fairplay.Config
}

// DefaultFlowBytes is the default byte rate a player may send: a stock
// client in battle sends a few kB a second (StateUpdates of 20..90 bytes,
// 10..30 a second, and events), 32 KiB leaves ample room.
const DefaultFlowBytes = 32 << 10

// DefaultConfig returns the configuration of a stock-like deathmatch server.
func DefaultConfig() Config {
	return Config{
		ServerName: "bcserver",
		MaxPlayers: StockMaxPlayers,
		Mission: Mission{
			Script:    "Multiplayer.Episode.Mission1.Mission1",
			MapName:   "DM",
			System:    "Multi1",
			TimeLimit: -1,
			FragLimit: -1,
		},
		CollisionDamage: true,
		JoinInProgress:  true,
		Validation:      checksum.ModeVerified,
		RoundTimeout:    30 * time.Second,
		JoinTimeout:     60 * time.Second,
		RejectLinger:    45 * time.Second,
		PushLimits:      checksum.DefaultPushLimits(),
		PushFirstAck:    DefaultPushFirstAck,
		PushAck:         DefaultPushAck,
		PushTotal:       DefaultPushTotal,
		TickInterval:    100 * time.Millisecond,
		SpoofLimit:      20,
		FlowRate:        400,
		FlowBurst:       800,
		FlowBoot:        5 * time.Second,
		FlowBytes:       DefaultFlowBytes,
		FlowByteBurst:   2 * DefaultFlowBytes,
		ExplosionRadius: 10.1,
		ExplosionDamage: 50,
		Integrity:       IntegrityLog,
		IntegrityHashes: world.StockIntegrityHashes(),
		FairPlay:        fairplay.DefaultConfig(),
	}
}

// Validate checks the configuration and fills zero durations with defaults.
func (c *Config) Validate() error {
	d := DefaultConfig()
	if c.MaxPlayers < 1 || c.MaxPlayers > MaxSlots {
		return fmt.Errorf("max_players %d: must be 1..%d", c.MaxPlayers, MaxSlots)
	}
	if c.Mission.Script == "" {
		return fmt.Errorf("mission script is empty")
	}
	if len(c.Mission.Script) > 0xFFFF {
		return fmt.Errorf("mission script name too long")
	}
	for _, p := range []struct {
		v  *time.Duration
		dv time.Duration
	}{{&c.RoundTimeout, d.RoundTimeout}, {&c.JoinTimeout, d.JoinTimeout}, {&c.RejectLinger, d.RejectLinger}, {&c.TickInterval, d.TickInterval},
		{&c.PushFirstAck, d.PushFirstAck}, {&c.PushAck, d.PushAck}, {&c.PushTotal, d.PushTotal}} {
		if *p.v <= 0 {
			*p.v = p.dv
		}
	}
	if c.FairPlay == (fairplay.Config{}) {
		// A configuration built before the rules existed: the defaults.
		c.FairPlay = fairplay.DefaultConfig()
	}
	if err := c.FairPlay.Validate(); err != nil {
		return fmt.Errorf("fair play: %w", err)
	}
	switch {
	case c.Push != checksum.PushOff && c.PushTree == nil:
		return fmt.Errorf("push mode %s needs a client scripts folder (or a manifest with a Scripts/Multiplayer round, for verify)", c.Push)
	case c.Push == checksum.PushPush && !c.PushTree.CanPush():
		return fmt.Errorf("push mode push needs the files themselves: a client scripts folder, not only a manifest")
	}
	return nil
}
