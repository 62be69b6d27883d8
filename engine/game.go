package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/bans"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/world"
	bcnet "github.com/bcserver/bcserver/net"
)

// Stats counts what the game dropped or did; readable from any goroutine.
type Stats struct {
	Joins            atomic.Uint64 // players that reached the game
	Leaves           atomic.Uint64
	Refused          atomic.Uint64 // connects refused (full, not accepting)
	ChecksumFailures atomic.Uint64
	Renamed          atomic.Uint64 // joiners renamed because their name was in use
	NamesCleaned     atomic.Uint64 // names with control or bidi characters cleaned at admission
	HandshakeDropped atomic.Uint64 // messages out of order for the sender's join state
	Malformed        atomic.Uint64 // game messages that failed to parse
	Timeouts         atomic.Uint64 // handshake steps that timed out
	ChatDropped      atomic.Uint64 // chat lines refused by the core's hardening
	Relayed          atomic.Uint64 // messages relayed (each to every other player)
	RelayDropped     atomic.Uint64 // game messages a client may not send, or host-owned data
	Spoofed          atomic.Uint64 // messages acting on another player's objects
	Throttled        atomic.Uint64 // messages dropped by the per-player flow limit
	Ticks            atomic.Uint64 // game ticks run
	TicksDropped     atomic.Uint64 // ticks skipped because the game fell too far behind
	// Violations counts fair-play violations by rule (index fairplay.Rule).
	Violations [fairplay.NumRules + 1]atomic.Uint64
	// PushWarningsThrottled counts file-push warnings not logged (at warn)
	// because the same one was logged about the address recently.
	PushWarningsThrottled atomic.Uint64
	// Stats are the world's counters: collisions, weapon hits, integrity
	// mismatches.
	world.Stats
}

// Options configures a Game.
type Options struct {
	Config Config
	Logger *slog.Logger
	// Out sends datagrams; *net.Socket in a server, a capture in tests.
	Out bcnet.PacketWriter
	// Now is the start time of the game clock.
	Now time.Time
	// LocalIP gives the host's IPv4 address as a client sees it, written
	// in the shutdown notice; nil writes 0.0.0.0.
	LocalIP func(to netip.AddrPort) [4]byte
}

// Game is the state of one running game. All methods must be called from
// the goroutine that owns it (Server.Run, or a test).
type Game struct {
	cfg      Config
	log      *slog.Logger
	host     *bcnet.Host
	out      bcnet.PacketWriter
	manifest *checksum.Manifest
	requests []codec.ChecksumRequest

	bySlot [MaxSlots]*Player
	byID   [256]*Player

	bus          bus
	timers       timers
	query        bcnet.QueryHandler
	epoch        time.Time // game clock zero
	now          time.Time
	nextTick     time.Time // the next point of the tick grid
	accepting    bool
	unavailable  string // why the game takes no players at all (no mission), "" when it does
	loading      bool   // the mission is still loading (SetLoading)
	running      bool
	teamMode     bool
	gameOver     bool
	shipGate     shipGate // the ship rules (shiprules.go)
	world        *world.World
	bans         *bans.List
	refusedLogAt time.Time
	buf          []byte  // scratch for building messages
	in           inbound // the message being routed (routing.go)
	inbox        chan func()
	wake         func() // makes the loop look at the inbox (Server); nil in tests
	plugins      []Plugin
	obs          Observer
	mod          modState // what the modded-game rules remember (push.go, modgame.go)
	chatFilter   ChatFilter
	fairBans     map[netip.Addr]time.Time // fair-play bans: address -> until (fair.go)

	// Stats is updated by the game goroutine and safe to read anywhere.
	Stats Stats
}

// NewGame builds a Game and its transport Host.
func NewGame(opts Options) (*Game, error) {
	cfg := opts.Config
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := cfg.Manifest
	if m == nil {
		var err error
		if m, err = checksum.Vanilla(); err != nil {
			return nil, fmt.Errorf("loading the vanilla manifest: %w", err)
		}
	}
	reg := cfg.Ships
	if reg == nil {
		var err error
		if reg, err = ships.Vanilla(); err != nil {
			return nil, fmt.Errorf("loading the vanilla ship data: %w", err)
		}
	}
	banList, err := bans.Load(cfg.Bans, cfg.BanFile)
	if err != nil {
		return nil, fmt.Errorf("ban list: %w", err)
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	g := &Game{
		cfg:       cfg,
		log:       log.With("component", "engine"),
		out:       opts.Out,
		manifest:  m,
		requests:  checksum.StockRequests(),
		epoch:     now,
		now:       now,
		nextTick:  now.Add(cfg.TickInterval + cfg.TickPhase%cfg.TickInterval),
		accepting: true,
		running:   true,
		buf:       make([]byte, 0, 512),
		inbox:     make(chan func(), 256),
		bans:      banList,
	}
	g.world = world.New(world.Options{
		Env:                 (*worldEnv)(g),
		Ships:               reg,
		Logger:              log,
		Epoch:               now,
		NoWeaponDamage:      cfg.NoWeaponDamage,
		CollisionPowerPlant: cfg.CollisionPowerPlant,
		ExplosionRadius:     cfg.ExplosionRadius,
		ExplosionDamage:     cfg.ExplosionDamage,
		CheckIntegrity:      cfg.Integrity != IntegrityOff && cfg.Integrity != "",
		IntegrityHashes:     cfg.IntegrityHashes,
		Stats:               &g.Stats.Stats,
	})
	if !cfg.FairPlay.Off {
		g.world.SetFairPlay(&cfg.FairPlay.Tolerances)
	}
	g.host = bcnet.NewHost(bcnet.HostConfig{
		Transport: cfg.Transport,
		// Spare transport peers let a refused connect get its notice while
		// the game is full; sized for the largest player limit, which a
		// host may raise while the game runs (SetLive).
		MaxPeers: MaxSlots + spareTransportPeers,
		Logger:   log,
		Query:    g.handleQuery,
		LocalIP:  opts.LocalIP,
		Answers:  cfg.Answers,
	}, (*peerEvents)(g), opts.Out)
	g.warnBroadBans()
	g.logModSetup()
	return g, nil
}

// Config returns the game's configuration.
func (g *Game) Config() Config { return g.cfg }

// Logger returns the game's logger.
func (g *Game) Logger() *slog.Logger { return g.log }

// MaxPlayers returns the player limit: the one the server enforces and
// the one missions announce in MISSION_INIT.
func (g *Game) MaxPlayers() int { return g.cfg.MaxPlayers }

// Ships returns the ship data registry.
func (g *Game) Ships() *ships.Registry { return g.world.Ships() }

// TransportStats returns what the transport dropped or refused so far
// (a copy; game goroutine).
func (g *Game) TransportStats() bcnet.HostStats { return g.host.Stats }

// Now returns the time of the event being processed.
func (g *Game) Now() time.Time { return g.now }

// GameTime is the server game clock in seconds, as Settings announces it.
func (g *Game) GameTime() float32 { return float32(g.now.Sub(g.epoch).Seconds()) }

// Mission returns the current mission description.
func (g *Game) Mission() Mission { return g.cfg.Mission }

// SetMission replaces the mission description (map name, limits); later
// joiners' Settings and the server browser follow it.
func (g *Game) SetMission(m Mission) { g.cfg.Mission = m }

// SetAccepting opens or closes the game to new players (END_GAME closes it,
// a restart opens it; missions.md 2.6-2.7).
func (g *Game) SetAccepting(open bool) { g.accepting = open }

// Accepting reports whether new players are admitted: the match state
// allows it and the game is neither unavailable (SetUnavailable) nor
// loading (SetLoading).
func (g *Game) Accepting() bool { return g.accepting && g.unavailable == "" && !g.loading }

// SetTeamMode tells the core whether the mission has teams (team chat
// routing, missions.md 2.2).
func (g *Game) SetTeamMode(on bool) { g.teamMode = on }

// SetRunning records whether a game is in progress (as opposed to an open
// lobby); with JoinInProgress off, joins are refused while it runs.
func (g *Game) SetRunning(r bool) { g.running = r }

// On subscribes fn to the events called name; the returned func cancels it.
func (g *Game) On(name string, fn Handler) (off func()) { return g.bus.on(name, fn, false) }

// OnEarly subscribes fn like On, but ahead of every handler subscribed
// with On, whenever either subscribed (among early handlers, in
// subscription order). The mission runtime subscribes this way: a
// mission sees each event before the plugins do (they record and report
// what it made of it), whether it opened before them, after them, or was
// reloaded while they ran.
func (g *Game) OnEarly(name string, fn Handler) (off func()) { return g.bus.on(name, fn, true) }

// Emit dispatches an event to its subscribers (missions and plugins may
// raise their own).
func (g *Game) Emit(ev Event) { g.bus.emit(ev) }

// Player returns the player with wire id id, or nil.
func (g *Game) Player(id byte) *Player { return g.byID[id] }

// PlayerBySlot returns the player in slot, or nil.
func (g *Game) PlayerBySlot(slot int) *Player {
	if slot < 0 || slot >= MaxSlots {
		return nil
	}
	return g.bySlot[slot]
}

// Players returns every connected player in slot order.
func (g *Game) Players() []*Player {
	var ps []*Player
	for _, p := range g.bySlot {
		if p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// NumPlayers counts connected players; inGame restricts it to those in
// the game.
func (g *Game) NumPlayers(inGame bool) int {
	n := 0
	for _, p := range g.bySlot {
		if p != nil && (!inGame || p.InGame()) {
			n++
		}
	}
	return n
}

// Send queues a reliable game message to one player.
func (g *Game) Send(p *Player, payload []byte) error { return g.send(p, payload, true) }

// SendUnreliable queues an unreliable game message to one player.
func (g *Game) SendUnreliable(p *Player, payload []byte) error { return g.send(p, payload, false) }

func (g *Game) send(p *Player, payload []byte, reliable bool) error {
	if p == nil || p.peer == nil || g.byID[p.ID] != p {
		return errors.New("player is not connected")
	}
	if err := p.peer.Send(payload, reliable); err != nil {
		return fmt.Errorf("sending 0x%02X to player %d: %w", firstByte(payload), p.ID, err)
	}
	return nil
}

// SendInGame sends a reliable message to every in-game player except
// except (which may be nil). With except nil this is the stock "NoMe" group
// of a dedicated host: every client, a relay's sender included
// (missions.md 1.3).
func (g *Game) SendInGame(payload []byte, except *Player) {
	if g.bus.has(EvBroadcast) {
		g.bus.emit(&Broadcast{Payload: payload, Except: except})
	}
	for _, p := range g.bySlot {
		if p != nil && p != except && p.InGame() {
			_ = p.peer.Send(payload, true)
		}
	}
}

// Kick boots a player with the given stock reason.
func (g *Game) Kick(p *Player, reason bcnet.BootReason) {
	if p == nil || g.byID[p.ID] != p {
		return
	}
	g.host.Boot(g.now, p.peer, reason)
}

// Post hands fn to the game goroutine from any goroutine; it runs at the
// next loop iteration. It returns false if the queue is full (the caller may
// retry later) rather than blocking.
func (g *Game) Post(fn func()) bool {
	select {
	case g.inbox <- fn:
		if g.wake != nil {
			g.wake()
		}
		return true
	default:
		return false
	}
}

// RunPosted runs the functions handed over with Post so far (the Server
// loop does this; tests call it directly).
func (g *Game) RunPosted() {
	for {
		select {
		case fn := <-g.inbox:
			fn()
		default:
			return
		}
	}
}

// AddPlugin starts a plugin on the game; Shutdown stops it.
func (g *Game) AddPlugin(p Plugin) error {
	if err := p.Start(g); err != nil {
		return fmt.Errorf("plugin/%s: %w", p.Name(), err)
	}
	g.plugins = append(g.plugins, p)
	return nil
}

// HandleQueries installs the handler for plaintext GameSpy datagrams.
func (g *Game) HandleQueries(h bcnet.QueryHandler) { g.query = h }

func (g *Game) handleQuery(now time.Time, from netip.AddrPort, q []byte, reply func([]byte)) {
	if g.query != nil {
		g.query(now, from, q, reply)
	}
}

// SendRaw sends a plaintext datagram from the game socket (GameSpy
// heartbeats must come from the game port).
func (g *Game) SendRaw(to netip.AddrPort, b []byte) error {
	if g.out == nil {
		return errors.New("no socket")
	}
	_, err := g.out.WriteToUDPAddrPort(b, to)
	return err
}

// After runs fn on the game goroutine once d has passed; Every repeats it.
// Both return a func that cancels the timer.
func (g *Game) After(d time.Duration, fn func()) (cancel func()) {
	return g.timers.add(g.now.Add(d), 0, fn)
}

// Every runs fn every d, first after d. A period of whole game ticks runs
// on the tick grid: the first run is at the first tick at or after d from
// now (at most one tick later), so it shares the tick's wake-up.
func (g *Game) Every(d time.Duration, fn func()) (cancel func()) {
	if d <= 0 {
		d = time.Millisecond
	}
	return g.timers.add(g.firstRun(g.now, d), d, fn)
}

// HandleDatagram feeds one received datagram to the transport; b is
// modified in place.
func (g *Game) HandleDatagram(now time.Time, from netip.AddrPort, b []byte) {
	g.now = now
	g.host.HandleDatagram(now, from, b)
}

// Flush sends everything queued.
func (g *Game) Flush(now time.Time) {
	g.now = now
	g.host.Flush(now)
}

// maxCatchUp bounds the ticks one Advance runs to catch up with the grid;
// a game further behind (a stalled process, a suspended VM) drops the
// backlog instead of replaying it in a burst.
const maxCatchUp = 3

// Advance runs everything time-driven up to now: transport timers, due
// engine timers, handshake deadlines and every game tick due. It also
// flushes.
//
// Ticks sit on a fixed grid (start + k × TickInterval), so a loop that
// wakes a little late still ticks at exactly 10 Hz on average; restarting
// the interval from the wake-up time instead loses the lateness every tick
// (9.46 Hz with a 10 ms loop). Each tick's Dt is the interval. Ticks
// caught up in one call share one simulation step (it measures elapsed
// time itself) and one round of StateUpdates, which would only repeat.
func (g *Game) Advance(now time.Time) {
	var start time.Time
	if g.obs != nil {
		start = time.Now()
	}
	g.now = now
	g.timers.run(now)
	g.checkDeadlines()
	interval := g.cfg.TickInterval
	ran := 0
	for !now.Before(g.nextTick) {
		if ran == maxCatchUp {
			behind := now.Sub(g.nextTick)/interval + 1
			g.nextTick = g.nextTick.Add(behind * interval)
			g.Stats.TicksDropped.Add(uint64(behind))
			g.log.Debug("game tick behind, backlog dropped", "ticks", behind)
			break
		}
		g.nextTick = g.nextTick.Add(interval)
		g.Stats.Ticks.Add(1)
		ran++
		if g.bus.has(EvTick) {
			g.bus.emit(&Tick{Now: now, Dt: interval})
		}
	}
	if ran > 0 {
		g.world.Tick(now)
		g.world.SendStateUpdates(now)
	}
	g.host.Tick(now)
	if ran > 0 && g.obs != nil {
		g.obs.TickDone(time.Since(start))
	}
}

// Ticks reports the game ticks run so far (for tests and stats).
func (g *Game) Ticks() uint64 { return g.Stats.Ticks.Load() }

// Shutdown stops the plugins and tells every client the server is going
// away (transport.md 10.4: a 0x05 naming the host, to each client, before
// anyone hears of another's departure). The players are gone for the game
// at once; keep calling ShutdownStep until ShutdownDone so the notices are
// retransmitted until ACKed, at most 15 s.
func (g *Game) Shutdown(now time.Time) {
	g.now = now
	for i := len(g.plugins) - 1; i >= 0; i-- {
		g.plugins[i].Stop(g)
	}
	g.plugins = nil
	g.host.Shutdown(now)
}

// ShutdownStep handles the transport while shutting down: ACKs of the
// notices, retransmissions, the end of the wait.
func (g *Game) ShutdownStep(now time.Time) {
	g.now = now
	g.host.Tick(now)
}

// ShutdownDone reports whether every client ACKed the shutdown notice or
// the wait ran out.
func (g *Game) ShutdownDone() bool { return g.host.Done() }

func firstByte(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// sortedInGame returns in-game players other than except, by wire id.
func (g *Game) sortedInGame(except *Player) []*Player {
	var ps []*Player
	for _, p := range g.bySlot {
		if p != nil && p != except && p.InGame() {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, func(a, b *Player) int { return int(a.ID) - int(b.ID) })
	return ps
}
