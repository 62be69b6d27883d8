package engine

import (
	"log/slog"
	"net/netip"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
)

// API is the game as a plugin sees it: what Plugin.Start and Stop are
// handed, and what a plugin keeps and calls afterwards. It is narrower
// than *Game on purpose: no simulation internals, no world model, no
// plugins, no shutdown — a plugin reads the game, listens to its events
// and acts through these calls, so what plugins can touch is this list
// (missions have theirs: lua.Engine). *Game is its implementation.
//
// Every method is called on the game goroutine only, except Post.
type API interface {
	// Events and time.
	On(name string, fn Handler) (off func())
	// OnEarly subscribes ahead of every On handler (a plugin that must
	// see an event before the others: the metrics' counters).
	OnEarly(name string, fn Handler) (off func())
	Emit(ev Event)
	After(d time.Duration, fn func()) (cancel func())
	Every(d time.Duration, fn func()) (cancel func())
	Now() time.Time
	GameTime() float32
	// Post runs fn on the game goroutine (from any goroutine); false when
	// the queue is full.
	Post(fn func()) bool
	Logger() *slog.Logger

	// The game's state.
	Config() Config
	Mission() Mission
	MaxPlayers() int
	TeamMode() bool
	GameOver() bool
	Loading() bool
	Accepting() bool
	Unavailable() string
	TransportStats() bcnet.HostStats

	// Players.
	Players() []*Player
	Player(id byte) *Player
	NumPlayers(inGame bool) int
	Send(p *Player, payload []byte) error
	SendInGame(payload []byte, except *Player)
	Kick(p *Player, reason bcnet.BootReason)
	SetTeam(p *Player, team int)
	SetMuted(p *Player, on bool)
	SetScored(p *Player, on bool)
	RenamePlayer(p *Player, name string) string
	SetChatFilter(f ChatFilter)

	// Ships, as the recording and the console show them.
	Objects() []*Object
	Object(id int32) *Object
	ShipOf(p *Player) *Object
	PlayerOf(o *Object) *Player

	// The ban list and the match.
	Bans() []string
	Ban(entry string) error
	Unban(entry string) error
	EndGame(reason int32)
	RestartGame()

	// Hooks a plugin installs: GameSpy's queries and heartbeats on the
	// game socket, the metrics' observer.
	HandleQueries(h bcnet.QueryHandler)
	SendRaw(to netip.AddrPort, b []byte) error
	SetObserver(o Observer)
}

// The game must satisfy API; a changed signature fails here rather than
// in every plugin.
var _ API = (*Game)(nil)
