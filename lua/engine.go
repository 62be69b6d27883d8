package lua

import (
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// Engine is the part of *engine.Game a mission runtime uses. Production
// code passes the game itself; tests pass a recording fake (lua/luatest),
// because engine.Player values built outside the engine have no transport
// peer and the real Game cannot send to them.
//
// Every method is called on the game goroutine only, except Post.
type Engine interface {
	On(name string, fn engine.Handler) (off func())
	// OnEarly subscribes ahead of every On handler (engine.Game.OnEarly):
	// the runtime's own subscriptions, so a mission sees each event before
	// the plugins, however late it opened or reloaded.
	OnEarly(name string, fn engine.Handler) (off func())

	Players() []*engine.Player
	Player(id byte) *engine.Player
	Send(p *engine.Player, payload []byte) error
	SendInGame(payload []byte, except *engine.Player)
	// SendQueue is a player's transport queue length and its limit (0, 0
	// for a player without one).
	SendQueue(p *engine.Player) (queued, limit int)
	SetTeam(p *engine.Player, team int)
	SetScore(p *engine.Player, kills, deaths, score int)
	Kick(p *engine.Player, reason bcnet.BootReason)

	// World is the game's world model: the one way a mission reaches
	// objects, ships, host ships and their controls, the ship data and
	// the damage rules. Calls that make time pass take Now.
	World() *world.World

	After(d time.Duration, fn func()) (cancel func())
	Every(d time.Duration, fn func()) (cancel func())
	Now() time.Time
	GameTime() float32

	Mission() engine.Mission
	SetMission(m engine.Mission)
	MaxPlayers() int
	SetTeamMode(on bool)
	// Ship rules (engine/shiprules.go): the classes players may fly.
	SetShipRules(r *engine.ShipRules)
	ShipRules() *engine.ShipRules
	ShipAllowed(p *engine.Player, species int) (ok bool, why string)
	SetAccepting(open bool)
	Accepting() bool
	// EndGameWith ends the game with a stock reason and the mission's
	// outcome (nil for none).
	EndGameWith(reason int32, o *engine.Outcome)
	RestartGame()
	GameOver() bool

	Post(fn func()) bool
}

// The real game must satisfy Engine; a changed engine signature fails here
// rather than at a distance.
var _ Engine = (*engine.Game)(nil)
