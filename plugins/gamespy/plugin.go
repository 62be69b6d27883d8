package gamespy

import (
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// PluginOptions configures a [Plugin] beyond the host's [Config].
type PluginOptions struct {
	// GamePort is the UDP port of the game the plugin serves; its
	// heartbeats announce it ([HeartbeatPort]). A process running several
	// games starts one Plugin per game, each with that game's port, so each
	// game is listed at its own port. 0 means the stock 22101.
	GamePort int
	// Resolve looks up master host names; nil means the system resolver.
	Resolve Resolver
	// Logger receives the plugin's lines, which carry
	// component=plugin/gamespy; nil discards them.
	Logger *slog.Logger
}

// Plugin wires the responder and the heartbeater to one running game: it
// answers queries arriving on the game socket and sends heartbeats from it.
type Plugin struct {
	cfg  Config
	opts PluginOptions
	base *slog.Logger // without component: the Responder and Heartbeater add it
	log  *slog.Logger
	resp *Responder
	hb   *Heartbeater

	started, stopped bool
	ctx              context.Context // ends at Stop; lookups run under it
	cancel           context.CancelFunc
	off              []func()

	// Lookups run on their own goroutines and leave their outcome here for
	// the game goroutine, which alone feeds the heartbeater's clock.
	mu       sync.Mutex
	arrived  []lookup
	lookedUp func() // tests: called once a lookup's outcome is stored
}

type lookup struct {
	host  string
	addrs []netip.Addr
	err   error
}

// NewPlugin returns the GameSpy plugin for cfg. Add it to one game.
func NewPlugin(cfg Config, opts PluginOptions) *Plugin {
	base := opts.Logger
	if base == nil {
		base = slog.New(slog.DiscardHandler)
	}
	return &Plugin{cfg: cfg, opts: opts, base: base, log: base.With("component", "plugin/gamespy")}
}

// Name implements engine.Plugin.
func (p *Plugin) Name() string { return "gamespy" }

// Start implements engine.Plugin.
func (p *Plugin) Start(g engine.API) error {
	if p.started {
		return errors.New("already serving a game: add one Plugin per game")
	}
	p.started = true
	if err := p.cfg.Validate(); err != nil {
		return err
	}
	if !p.cfg.Enabled {
		return nil
	}
	resp, err := NewResponder(p.cfg.ResponderOptions(func() ServerInfo { return Info(g) }, p.base))
	if err != nil {
		return err
	}
	p.resp = resp
	g.HandleQueries(func(now time.Time, from netip.AddrPort, q []byte, reply func([]byte)) {
		resp.Handle(now, from, q, reply)
	})
	if len(p.cfg.Masters) == 0 {
		return nil
	}
	hb, err := NewHeartbeater(p.cfg.HeartbeatOptions(p.opts.GamePort, p.opts.Resolve, p.base))
	if err != nil {
		return err
	}
	p.hb = hb
	p.ctx, p.cancel = context.WithCancel(context.Background())
	changed := func(engine.Event) { hb.MarkStateChanged() }
	tick := func() { p.tick(g) }
	p.off = append(p.off,
		g.On(engine.EvPlayerInGame, changed),
		g.On(engine.EvPlayerLeft, changed),
		g.After(0, tick), // the first heartbeat (or lookup) at once
		g.Every(time.Second, tick),
	)
	return nil
}

// tick runs on the game goroutine: it takes in finished lookups, starts
// due ones, and sends the heartbeat that is due, if any. Heartbeats wait
// for an address rather than being counted as sent to nobody.
func (p *Plugin) tick(g engine.API) {
	if p.stopped {
		return
	}
	now := g.Now()
	p.mu.Lock()
	arrived := p.arrived
	p.arrived = nil
	p.mu.Unlock()
	for _, l := range arrived {
		p.hb.Resolved(now, l.host, l.addrs, l.err)
	}
	for _, host := range p.hb.ResolveDue(now) {
		go p.lookup(g, host)
	}
	b, to := p.hb.Next(now)
	p.send(g, b, to)
}

// lookup resolves host off the game goroutine and wakes the game loop, so
// a heartbeat waiting for this address leaves now rather than at the next
// tick. If the game's queue is full, the next tick takes the outcome in.
func (p *Plugin) lookup(g engine.API, host string) {
	addrs, err := p.hb.Lookup(p.ctx, host)
	p.mu.Lock()
	p.arrived = append(p.arrived, lookup{host: host, addrs: addrs, err: err})
	hook := p.lookedUp
	p.mu.Unlock()
	g.Post(func() { p.tick(g) })
	if hook != nil {
		hook()
	}
}

func (p *Plugin) send(g engine.API, b []byte, to []netip.AddrPort) {
	for _, t := range to {
		if err := g.SendRaw(t, b); err != nil {
			p.log.Debug("sending heartbeat", "master", t, "err", err)
		}
	}
}

// Stop implements engine.Plugin: the goodbye heartbeat.
func (p *Plugin) Stop(g engine.API) {
	for _, off := range p.off {
		off()
	}
	if p.hb != nil {
		b, to := p.hb.Shutdown()
		p.send(g, b, to)
	}
	if p.cancel != nil {
		p.cancel()
	}
	p.stopped = true
}

// Stats returns the responder's counters (zero when disabled).
func (p *Plugin) Stats() Stats {
	if p.resp == nil {
		return Stats{}
	}
	return p.resp.Stats()
}

// Info builds the server-browser snapshot of a game (gamespy.md 2.1).
func Info(g engine.API) ServerInfo {
	cfg := g.Config()
	m := g.Mission()
	info := ServerInfo{
		Hostname:      cfg.ServerName,
		MissionScript: m.Script,
		MapName:       m.MapName,
		MaxPlayers:    cfg.MaxPlayers,
		GameMode:      ModeOpenPlaying,
		TimeLimit:     NoTimeLimit,
		FragLimit:     NoFragLimit,
		System:        m.System,
		Password:      cfg.Password != "",
		Location:      1,
	}
	if !g.Accepting() {
		info.GameMode = ModeSettings
	}
	if m.TimeLimit > 0 {
		info.TimeLimit = m.TimeLimit
	}
	if m.FragLimit > 0 {
		info.FragLimit = m.FragLimit
	}
	for _, pl := range g.Players() {
		if pl.InGame() {
			info.NumPlayers++
			info.Players = append(info.Players, pl.Name)
		}
	}
	return info
}

var _ engine.Plugin = (*Plugin)(nil)
