package engine

import (
	"slices"
	"time"

	"github.com/bcserver/bcserver/engine/scriptmsg"
)

// Event is something the engine reports to missions and plugins. Each
// event type has a stable Name used for subscriptions (and by Lua's bc.on).
// The world's events (ship_created, ship_destroyed, object_destroyed,
// weapon_hit) are defined in engine/world and travel on the same bus.
type Event interface{ Name() string }

// Event names.
const (
	EvPlayerConnected = "player_connected"
	EvChecksumFailed  = "checksum_failed"
	EvPlayerJoined    = "player_joined"
	EvPlayerInGame    = "player_in_game"
	EvPlayerLeft      = "player_left"
	EvScriptMessage   = "script_message"
	EvTick            = "tick"
	EvWeaponFired     = "weapon_fired"
	EvGameEnded       = "game_ended"
	EvGameRestarted   = "game_restarted"
)

// PlayerConnected: a connect was accepted and answered (the client's
// datagrams carry the id of its connect reply, so it is a real client at
// its address), the player has its slot, and the checksum exchange is
// under way.
type PlayerConnected struct{ Player *Player }

// ChecksumFailed: a client failed file validation and was told so; a
// stock client then leaves by itself.
type ChecksumFailed struct {
	Player *Player
	Round  uint8
	File   string
	Reason string
}

// PlayerJoined is raised when the client's NewPlayerInGame (0x2A) arrives,
// before the engine replicates objects and announces the player: a mission
// sends its join sync (MissionInit, score rows) to Player from here, so it
// reaches the client in the stock order (missions.md 3.3).
type PlayerJoined struct{ Player *Player }

// PlayerInGame follows PlayerJoined once the player is announced (0x17) and
// receives broadcasts; missions create their table entries here.
type PlayerInGame struct{ Player *Player }

// LeaveReason says why a player left.
type LeaveReason string

// Leave reasons.
const (
	LeaveQuit     LeaveReason = "quit"
	LeaveTimeout  LeaveReason = "timeout"
	LeaveKicked   LeaveReason = "kicked"
	LeaveRejected LeaveReason = "rejected"
	LeaveOverflow LeaveReason = "overflow"
	LeaveShutdown LeaveReason = "shutdown"
	// LeaveReconnected: a new connect (new session) came from the
	// player's address; the old session is dropped.
	LeaveReconnected LeaveReason = "reconnected"
)

// PlayerLeft: the player is gone. WasInGame tells whether the others were
// told (0x14/0x17/0x18).
type PlayerLeft struct {
	Player    *Player
	Reason    LeaveReason
	WasInGame bool
}

// ScriptMessage carries a message with an opcode >= 0x2B from an in-game
// player that no engine rule consumed (missions.md 1.4). Payload is valid
// only during dispatch; Handled is set by a handler that took it.
type ScriptMessage struct {
	From    *Player
	Payload []byte
	Handled bool
	// Decl is the type's declaration in the pack's message table and
	// Fields the message decoded by it (mods.md 6.5); nil for a type the
	// table does not declare.
	Decl   *scriptmsg.Type
	Fields []scriptmsg.Value
}

// Tick is raised every game tick.
type Tick struct {
	Now time.Time
	Dt  time.Duration
}

// WeaponFired: an in-game player fired: a phaser or tractor system
// started firing at a target (StartFiring 0x07), a cannon fired a bolt
// (PulseFire 0x1A) or a tube a torpedo (TorpedoFire 0x19). Target is the
// target object id when the message names one.
type WeaponFired struct {
	Shooter *Player
	Opcode  byte
	Weapon  int32 // the weapon system (0x07), cannon (0x1A) or tube (0x19)
	Target  int32 // 0 when none
	// Kind is the kind of weapon that fired (world.FiredKind): phaser,
	// pulse, torpedo or tractor.
	Kind WeaponKind
}

// GameEnded: the mission ended the game with a stock END_GAME reason and,
// when it said, its outcome (nil when it gave none).
type GameEnded struct {
	Reason  int32
	Outcome *Outcome
}

// GameRestarted: the game restarted; missions reset their tables.
type GameRestarted struct{}

// Name implements Event.
func (*PlayerConnected) Name() string { return EvPlayerConnected }

// Name implements Event.
func (*ChecksumFailed) Name() string { return EvChecksumFailed }

// Name implements Event.
func (*PlayerJoined) Name() string { return EvPlayerJoined }

// Name implements Event.
func (*PlayerInGame) Name() string { return EvPlayerInGame }

// Name implements Event.
func (*PlayerLeft) Name() string { return EvPlayerLeft }

// Name implements Event.
func (*ScriptMessage) Name() string { return EvScriptMessage }

// Name implements Event.
func (*Tick) Name() string { return EvTick }

// Name implements Event.
func (*WeaponFired) Name() string { return EvWeaponFired }

// Name implements Event.
func (*GameEnded) Name() string { return EvGameEnded }

// Name implements Event.
func (*GameRestarted) Name() string { return EvGameRestarted }

// Handler receives events.
type Handler func(Event)

type subscription struct {
	id    uint64
	fn    Handler
	early bool // subscribed with OnEarly
}

// bus dispatches events by name: the early subscriptions first, then the
// others, each group in subscription order.
type bus struct {
	next uint64
	subs map[string][]subscription
}

func (b *bus) on(name string, fn Handler, early bool) func() {
	if b.subs == nil {
		b.subs = make(map[string][]subscription)
	}
	b.next++
	id := b.next
	s := b.subs[name]
	at := len(s)
	if early {
		at = 0
		for at < len(s) && s[at].early {
			at++
		}
	}
	if at == len(s) {
		b.subs[name] = append(s, subscription{id, fn, early})
	} else {
		// A new slice: an emit under way ranges over the old one, which
		// an insertion in place would shift under it.
		b.subs[name] = slices.Concat(s[:at:at], []subscription{{id, fn, early}}, s[at:])
	}
	return func() {
		s := b.subs[name]
		for i := range s {
			if s[i].id == id {
				b.subs[name] = append(s[:i:i], s[i+1:]...)
				return
			}
		}
	}
}

func (b *bus) has(name string) bool { return len(b.subs[name]) > 0 }

func (b *bus) emit(ev Event) {
	for _, s := range b.subs[ev.Name()] {
		s.fn(ev)
	}
}
