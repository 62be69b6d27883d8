// Package capture turns a game into a stream of match records: the game as
// the host saw it (ships created and deleted, their motion, hull, shields
// and subsystems, weapon fire and hits, deaths with kill credit, chat,
// scores, the mission's broadcasts, joins and leaves), time-stamped, with a
// keyframe every few seconds. A Capture is the engine plugin that makes
// them; its sinks take them: the recording files (plugins/record, whose
// on-disk format docs/replay-format.md specifies and whose enum numbers are
// the Kind values here), the spectator view (plugins/spectate) and the
// career statistics (plugins/stats). The plugins meet in this package, not
// in each other's.
//
// State plays records back into what a viewer draws; Kill and ChatLine are
// the lines a kill feed and a chat log show.
package capture

import (
	"fmt"

	"github.com/bcserver/bcserver/engine/ships"
)

// Kind is the type of a record.
type Kind uint8

// Record kinds. Numbers are part of the file format: never reuse one.
const (
	// KindKeyframe starts a block: the state is rebuilt from the records
	// that follow it (players, objects, motion, status).
	KindKeyframe Kind = 1
	// KindPlayer is a player's line: joined, or team/score changed.
	KindPlayer Kind = 2
	// KindPlayerLeft: the player left (Text is the reason).
	KindPlayerLeft Kind = 3
	// KindObject: a ship exists (created, or restated in a keyframe).
	KindObject Kind = 4
	// KindObjectGone: the object was deleted.
	KindObjectGone Kind = 5
	// KindMotion: where a ship is, where it points and how fast it goes.
	KindMotion Kind = 6
	// KindStatus: a ship's hull and shield facings.
	KindStatus Kind = 7
	// KindSubsystems: conditions of a ship's subsystems that changed.
	KindSubsystems Kind = 8
	// KindFire: a weapon fired (a player's message or a host ship's).
	KindFire Kind = 9
	// KindHit: the host damage model applied a weapon hit.
	KindHit Kind = 10
	// KindDamage: a ship took damage (weapon, collision, ...).
	KindDamage Kind = 11
	// KindDeath: a ship exploded; Other is the killer's ship.
	KindDeath Kind = 12
	// KindChat: a chat line (a player's, or the host's with Player 1).
	KindChat Kind = 13
	// KindMessage: a script message the host broadcast (score changes,
	// mission announcements), as sent.
	KindMessage Kind = 14
	// KindGameEnd: END_GAME with its stock reason.
	KindGameEnd Kind = 15
	// KindGameRestart: the game restarted.
	KindGameRestart Kind = 16
	// KindExplosion: an Explosion 0x29 the host sent.
	KindExplosion Kind = 17
)

var kindNames = map[Kind]string{
	KindKeyframe: "keyframe", KindPlayer: "player", KindPlayerLeft: "player_left", KindObject: "object",
	KindObjectGone: "object_gone", KindMotion: "motion", KindStatus: "status", KindSubsystems: "subsystems",
	KindFire: "fire", KindHit: "hit", KindDamage: "damage", KindDeath: "death", KindChat: "chat",
	KindMessage: "message", KindGameEnd: "game_end", KindGameRestart: "game_restart", KindExplosion: "explosion",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("kind%d", k)
}

// WeaponKind says what kind of weapon fired or hit: one of the ship data's
// weapons (ships.Weapon) under its number in the file format.
type WeaponKind uint8

// Weapon kinds. Numbers are part of the file format: never reuse one.
const (
	WeaponUnknown WeaponKind = iota
	WeaponPhaser
	WeaponPulse
	WeaponTorpedo
	WeaponTractor
)

// recordedWeapons is the recording's one table of the ship data's weapons:
// each kind's number in the file format (docs/replay-format.md). A new
// kind of weapon takes the next free number here.
var recordedWeapons = [...]ships.Weapon{
	WeaponPhaser:  ships.WeaponPhaser,
	WeaponPulse:   ships.WeaponPulse,
	WeaponTorpedo: ships.WeaponTorpedo,
	WeaponTractor: ships.WeaponTractor,
}

// recordedKind is the file format's number of weapon kind w, WeaponUnknown
// for none.
func recordedKind(w ships.Weapon) WeaponKind {
	for k, x := range recordedWeapons {
		if x == w && w != ships.NoWeapon {
			return WeaponKind(k)
		}
	}
	return WeaponUnknown
}

// Weapon returns the ship data's weapon of kind k, ships.NoWeapon for
// WeaponUnknown and numbers this version does not know.
func (k WeaponKind) Weapon() ships.Weapon {
	if int(k) < len(recordedWeapons) {
		return recordedWeapons[k]
	}
	return ships.NoWeapon
}

// String returns the weapon's name, "unknown" for none.
func (k WeaponKind) String() string {
	if w := k.Weapon(); w != ships.NoWeapon {
		return w.String()
	}
	return "unknown"
}

// Cause says what damaged or destroyed a ship.
type Cause uint8

// Causes (engine/world's DeathCause values).
const (
	CauseUnknown Cause = iota
	CauseWeapon
	CauseCollision
	CauseSelfDestruct
	CauseEnvironment
)

var causeNames = [...]string{"unknown", "weapon", "collision", "self_destruct", "environment"}

func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "unknown"
}

// ParseCause maps an engine death cause name to a Cause.
func ParseCause(s string) Cause {
	for i, n := range causeNames {
		if n == s {
			return Cause(i)
		}
	}
	return CauseUnknown
}

// Object flags.
const (
	// ObjHost: a ship the host owns (a mission's AI, a starbase).
	ObjHost = 1 << 0
)

// Chat flags (KindChat's Flags): who received the line. A line with any
// of them is not public: only what every player received is shown to
// spectators and in public replays; a recording keeps the others, marked,
// for the admin's replay.
const (
	// ChatTeam: team chat, which only the sender's side received.
	ChatTeam = 1 << 0
	// ChatMuted: held back by the host (the admin's mute); only the
	// sender saw it.
	ChatMuted = 1 << 1
	// ChatCancelled: held back by the mission (a handler returned false,
	// or it was a command); no other player saw it.
	ChatCancelled = 1 << 2
)

// Public reports whether every player of the match received what r shows:
// false for team chat and held-back lines, true for every other record.
func (r *Record) Public() bool {
	return r.Kind != KindChat || r.Team == 0 && r.Flags&(ChatTeam|ChatMuted|ChatCancelled) == 0
}

// Sub is one subsystem condition.
type Sub struct {
	Index int     // the subsystem's index in its class (serialization order)
	Cond  float32 // condition 0..1
}

// Record is one entry of a recording. It is a flat union: each Kind uses
// the fields its comment in the format document names. A producer reuses
// one Record; a consumer must copy what it keeps.
type Record struct {
	T    uint32 // milliseconds since the match started
	Kind Kind

	// Players: KindPlayer, KindPlayerLeft, KindChat (the sender; 1 is the
	// host), the firing or killing player of KindFire/KindHit/KindDamage/
	// KindDeath (0 for none).
	Player byte
	Slot   byte
	InGame bool
	Team   int32
	Kills  int32
	Deaths int32
	Score  int32
	Name   string // player name, ship name
	Class  string // ship class
	Text   string // chat text, leave reason

	// Objects: Object is the ship (victim, target); Other the second
	// party (killer, attacker, target of a fire); Weapon the firing
	// subsystem's id.
	Object  int32
	Other   int32
	Weapon  int32
	Owner   byte // KindObject: the owner's player id (0: host); KindDeath: the victim's
	Species int32
	Flags   uint8 // KindObject: ObjHost; KindChat: ChatTeam, ChatMuted, ChatCancelled

	Pos, Fwd, Up [3]float32
	Speed        float32
	Hull         float32    // 0..1
	Shields      [6]float32 // 0..1 per facing
	Subs         []Sub

	Opcode  byte
	Weapons WeaponKind
	Cause   Cause
	Damage  float32
	Radius  float32 // KindExplosion
	HullHit bool
	Reason  int32 // KindGameEnd
	Payload []byte

	// KindGameEnd's outcome (added within version 1; older files have
	// none): the winning team in Team (-1 none), the winning player in
	// Player (0 none) with his name in Name, why in Text, and the team
	// scores.
	TeamScores []TeamScore
}

// TeamScore is one team's line of a game end.
type TeamScore struct {
	Team  int32 `json:"team"`
	Kills int32 `json:"kills"`
	Score int32 `json:"score"`
}

// MaxTeamScores bounds a game end's team lines (engine.MaxOutcomeTeams).
const MaxTeamScores = 16

// Reset clears r for reuse, keeping its Subs, Payload and TeamScores
// storage.
func (r *Record) Reset() {
	subs, payload, teams := r.Subs[:0], r.Payload[:0], r.TeamScores[:0]
	*r = Record{Subs: subs, Payload: payload, TeamScores: teams}
}
