package engine

import (
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// PlayerState is where a player is in the join sequence.
type PlayerState int

// Player states, in join order.
const (
	// StateChecksum: connected, answering checksum rounds.
	StateChecksum PlayerState = iota + 1
	// StateLoading: validated, Settings sent, waiting for NewPlayerInGame.
	StateLoading
	// StateInGame: in the game ("NoMe" member): receives relays and
	// mission broadcasts.
	StateInGame
	// StateRejected: failed validation; lingers to receive its reply.
	StateRejected
)

func (s PlayerState) String() string {
	switch s {
	case StateChecksum:
		return "checksum"
	case StateLoading:
		return "loading"
	case StateInGame:
		return "in-game"
	case StateRejected:
		return "rejected"
	}
	return "unknown"
}

// Player is one connected client. Fields are read-only outside the engine
// except where noted.
type Player struct {
	// Owner is the player as the world knows it: ID (the wire peer id),
	// Slot, Team (the mission's team number, -1 for none) and ShipID (the
	// current ship, 0 without one).
	world.Owner
	// Name is the player name from the identity message.
	Name  string
	Addr  netip.AddrPort
	State PlayerState
	// ConnectedAt is when the connect was accepted; JoinedAt when the
	// player entered the game (zero before).
	ConnectedAt, JoinedAt time.Time

	// Kills, Deaths and Score are kept by the mission; the engine only
	// reports them (GameSpy, admin).
	Kills, Deaths, Score int
	// Account is the account the player logged in to (plugins/accounts);
	// "" for a guest.
	Account string
	// Role is the account's role ("admin", "moderator"); "" for none.
	Role string

	peer     *bcnet.Peer
	round    int       // index into the request list
	deadline time.Time // current handshake step must finish by then

	spoofs      int       // ownership violations in the current window
	spoofWindow time.Time // start of that window
	flowTokens  float64   // flow-limit token buckets: messages ...
	byteTokens  float64   // ... and bytes
	flowAt      time.Time
	overSince   time.Time       // throttled continuously since
	modem       bool            // the client's "using modem" flag from 0x2A
	nameCleaned bool            // the name had control or bidi characters: Settings renames it
	push        *pushState      // the round-0xFF file push in progress, or nil
	unscored    bool            // points not counted (SetScored)
	muted       bool            // chat held back (SetMuted)
	scoreRaw    [3]int          // kills, deaths, score as the mission last reported them
	scoreBase   [3]int          // what the mission had reported when the points began to count
	fair        fairplay.Ledger // fair-play violations (fair.go)
	rates       fairplay.Rates  // fair-play message rates
	// objDropLogged: a dropped ship creation of this player was logged at
	// info (once per player, objdrop.go).
	objDropLogged bool
}

// UsingModem reports the client's "using modem" flag, the bit of its
// NewPlayerInGame (0x2A, handshake.md 2.6); scripts know it as
// MultiplayerGame.IsPlayerUsingModem.
func (p *Player) UsingModem() bool { return p.modem }

// InGame reports whether the player has entered the game.
func (p *Player) InGame() bool { return p.State == StateInGame }

// Name8 returns text (a player name, a host chat line) as the 8-bit bytes
// the game layer uses (the ObjCreate name, DeletePlayerAnim, chat): the
// stock client's code page, Windows-1252; characters it cannot hold
// become '?'.
func Name8(name string) []byte { return names.Encode(name) }
