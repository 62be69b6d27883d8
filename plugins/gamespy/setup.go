package gamespy

import (
	"context"
	"log/slog"
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// resolveEvery is how often master host names are looked up again, so a
// master that moves is followed without a restart.
const resolveEvery = 10 * time.Minute

// Plugin wires the responder and the heartbeater to a running game: it
// answers queries arriving on the game socket and sends heartbeats from it.
type Plugin struct {
	cfg     Config
	log     *slog.Logger
	resp    *Responder
	hb      *Heartbeater
	targets []netip.AddrPort
	cancel  context.CancelFunc
	off     []func()
}

// NewPlugin returns the GameSpy plugin for cfg.
func NewPlugin(cfg Config, log *slog.Logger) *Plugin {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Plugin{cfg: cfg, log: log.With("component", "plugin/gamespy")}
}

// Name implements engine.Plugin.
func (p *Plugin) Name() string { return "gamespy" }

// Start implements engine.Plugin.
func (p *Plugin) Start(g *engine.Game) error {
	if err := p.cfg.Validate(); err != nil {
		return err
	}
	if !p.cfg.Enabled {
		return nil
	}
	resp, err := NewResponder(p.cfg.ResponderOptions(func() ServerInfo { return Info(g) }, p.log))
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
	hb, err := NewHeartbeater(p.cfg.HeartbeatOptions(nil, p.log))
	if err != nil {
		return err
	}
	p.hb = hb
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go p.resolveLoop(ctx, g)
	changed := func(engine.Event) { hb.MarkStateChanged() }
	p.off = append(p.off,
		g.On(engine.EvPlayerInGame, changed),
		g.On(engine.EvPlayerLeft, changed),
		g.Every(time.Second, func() { p.beat(g, hb.Next(g.Now())) }),
	)
	return nil
}

// resolveLoop looks the masters up off the game goroutine and hands the
// addresses over with Post.
func (p *Plugin) resolveLoop(ctx context.Context, g *engine.Game) {
	for {
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		t, err := p.hb.Targets(lctx)
		cancel()
		if err != nil {
			p.log.Warn("resolving master servers", "err", err)
		}
		if len(t) > 0 {
			g.Post(func() { p.targets = t })
		}
		wait := resolveEvery
		if len(t) == 0 {
			wait = time.Minute
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

func (p *Plugin) beat(g *engine.Game, b []byte) {
	if b == nil {
		return
	}
	for _, t := range p.targets {
		if err := g.SendRaw(t, b); err != nil {
			p.log.Debug("heartbeat", "master", t, "err", err)
		}
	}
}

// Stop implements engine.Plugin: the goodbye heartbeat.
func (p *Plugin) Stop(g *engine.Game) {
	for _, off := range p.off {
		off()
	}
	if p.hb != nil {
		p.beat(g, p.hb.Shutdown())
	}
	if p.cancel != nil {
		p.cancel()
	}
}

// Stats returns the responder's counters (zero when disabled).
func (p *Plugin) Stats() Stats {
	if p.resp == nil {
		return Stats{}
	}
	return p.resp.Stats()
}

// Info builds the server-browser snapshot of a game (gamespy.md 2.1).
func Info(g *engine.Game) ServerInfo {
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
