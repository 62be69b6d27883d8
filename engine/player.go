package engine

import (
	"net/netip"
	"time"

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
	// ID is the wire peer id (2, 3, …): the "player id" of the script
	// messages and of 0x17 (handshake.md 1).
	ID byte
	// Slot is the 0-based player slot: Settings' slot and the owner of the
	// object-id block 0x3FFFFFFF + Slot*0x40000.
	Slot int
	// Name is the player name from the identity message.
	Name  string
	Addr  netip.AddrPort
	State PlayerState
	// ConnectedAt is when the connect was accepted; JoinedAt when the
	// player entered the game (zero before).
	ConnectedAt, JoinedAt time.Time

	// Kills, Deaths and Score are kept by the mission; the engine only
	// reports them (GameSpy, admin). Team is the mission's team number,
	// -1 for none.
	Kills, Deaths, Score int
	Team                 int
	// ShipID is the object id of the player's current ship, 0 without one.
	ShipID int32

	peer     *bcnet.Peer
	round    int       // index into the request list
	deadline time.Time // current handshake step must finish by then

	spoofs      int       // ownership violations in the current window
	spoofWindow time.Time // start of that window
	flowTokens  float64   // flow-limit token bucket
	flowAt      time.Time
	overSince   time.Time // throttled continuously since
	torpedoType int       // last TorpedoTypeChange value
	modem       bool      // the client's "using modem" flag from 0x2A
}

// UsingModem reports the client's "using modem" flag, the bit of its
// NewPlayerInGame (0x2A, handshake.md 2.6); scripts know it as
// MultiplayerGame.IsPlayerUsingModem.
func (p *Player) UsingModem() bool { return p.modem }

// InGame reports whether the player has entered the game.
func (p *Player) InGame() bool { return p.State == StateInGame }

// Name8 returns the player name as the 8-bit bytes the game layer uses
// (the ObjCreate name, DeletePlayerAnim): characters above U+00FF, which the
// stock code page cannot hold, become '?'.
func Name8(name string) []byte {
	b := make([]byte, 0, len(name))
	for _, r := range name {
		if r > 0xFF {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}
