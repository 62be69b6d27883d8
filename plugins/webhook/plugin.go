package webhook

import (
	"cmp"
	"slices"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/fairplay"
)

// PluginOptions configure one game's announcements.
type PluginOptions struct {
	// Sender posts them (one per process, shared by its games).
	Sender *Sender
	// Events are the kinds to announce (Section.Events).
	Events []string
	// Mode names the running game mode.
	Mode func() string
	// Game is the game's label with several games in the process ("" with
	// one).
	Game string
	// ReplayLink, when set, is the public page a match end links to.
	ReplayLink string
}

// Plugin announces one game's match ends, joins and leaves. It runs on
// the game goroutine and only copies data into a Message for the sender:
// it never waits for the network.
type Plugin struct {
	opts    PluginOptions
	g       engine.API
	started time.Time
	// left are the numbers of players who left during the match, by name,
	// so the scoreboard has everyone who played.
	left map[string]PlayerLine
	offs []func()
	// told is when each player's violations of each rule were last
	// announced: a cheat breaks a rule many times a second.
	told map[violationKey]time.Time
}

type violationKey struct {
	player *engine.Player
	rule   string
}

// violationEvery is the least time between two announcements of one
// player's violations of one rule.
const violationEvery = time.Minute

// New makes the plugin; add it to its game with engine.Game.AddPlugin.
func New(o PluginOptions) *Plugin {
	if o.Mode == nil {
		o.Mode = func() string { return "" }
	}
	return &Plugin{opts: o, left: map[string]PlayerLine{}, told: map[violationKey]time.Time{}}
}

// Name implements engine.Plugin.
func (p *Plugin) Name() string { return "webhook" }

func (p *Plugin) wants(kind string) bool { return slices.Contains(p.opts.Events, kind) }

// Start implements engine.Plugin.
func (p *Plugin) Start(g engine.API) error {
	p.g = g
	p.started = g.Now()
	p.offs = append(p.offs,
		g.On(engine.EvGameRestarted, func(engine.Event) { p.started = g.Now(); clear(p.left) }),
		g.On(engine.EvPlayerInGame, func(ev engine.Event) {
			if p.wants(EventJoin) {
				p.send(p.playerMessage(EventJoin, ev.(*engine.PlayerInGame).Player, ""))
			}
		}),
		g.On(engine.EvPlayerLeft, func(ev engine.Event) {
			e := ev.(*engine.PlayerLeft)
			if !e.WasInGame {
				return
			}
			if !g.GameOver() && len(p.left) < 64 {
				p.left[e.Player.Name] = line(e.Player)
			}
			if p.wants(EventLeave) && e.Reason != engine.LeaveShutdown {
				p.send(p.playerMessage(EventLeave, e.Player, string(e.Reason)))
			}
		}),
		g.On(engine.EvGameEnded, func(ev engine.Event) {
			if p.wants(EventMatchEnd) {
				p.send(p.matchEnd(ev.(*engine.GameEnded)))
			}
		}),
		g.On(engine.EvViolation, func(ev engine.Event) {
			if e := ev.(*engine.Violation); p.wants(EventViolation) && e.Action >= fairplay.ActNotify {
				p.violation(e)
			}
		}),
	)
	return nil
}

// Stop implements engine.Plugin.
func (p *Plugin) Stop(engine.API) {
	for _, off := range p.offs {
		off()
	}
	p.offs = nil
}

func (p *Plugin) send(m Message) { p.opts.Sender.Enqueue(m) }

func (p *Plugin) base(kind string) Message {
	return Message{Kind: kind, Server: p.g.Config().ServerName, Game: p.opts.Game, Time: p.g.Now(),
		Players: p.g.NumPlayers(true), MaxPlayers: p.g.MaxPlayers()}
}

func (p *Plugin) playerMessage(kind string, pl *engine.Player, reason string) Message {
	m := p.base(kind)
	m.Player, m.LeaveReason = pl.Name, reason
	if kind == EventLeave {
		m.Players-- // the leaver is still counted while the event runs
		m.Players = max(m.Players, 0)
	}
	return m
}

// violation announces a fair-play violation at the notify step or beyond,
// once a minute at most per player and rule.
func (p *Plugin) violation(e *engine.Violation) {
	k := violationKey{e.Player, e.Rule.String()}
	now := p.g.Now()
	if last, ok := p.told[k]; ok && now.Sub(last) < violationEvery {
		return
	}
	if len(p.told) >= 1024 {
		clear(p.told) // players come and go; the map must not grow with them
	}
	p.told[k] = now
	m := p.playerMessage(EventViolation, e.Player, "")
	m.Rule, m.Detail, m.Action = k.rule, e.Detail(), e.Action.String()
	p.send(m)
}

func line(pl *engine.Player) PlayerLine {
	l := PlayerLine{Name: pl.Name, Kills: pl.Kills, Deaths: pl.Deaths, Score: pl.Score}
	if pl.Team >= 0 {
		t := pl.Team
		l.Team = &t
	}
	return l
}

// matchEnd builds the match-end message: the players in the game and
// those who left during the match, best score first.
func (p *Plugin) matchEnd(e *engine.GameEnded) Message {
	m := p.base(EventMatchEnd)
	m.Mode = p.opts.Mode()
	m.System = p.g.Mission().System
	m.Reason = e.ReasonName()
	m.Duration = p.g.Now().Sub(p.started)
	m.Replay = p.opts.ReplayLink
	board := map[string]PlayerLine{}
	for name, l := range p.left {
		board[name] = l
	}
	for _, pl := range p.g.Players() {
		if pl.InGame() {
			board[pl.Name] = line(pl)
		}
	}
	for _, l := range board {
		m.Scoreboard = append(m.Scoreboard, l)
	}
	slices.SortFunc(m.Scoreboard, func(a, b PlayerLine) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Kills, a.Kills), cmp.Compare(a.Name, b.Name))
	})
	if o := e.Outcome; o != nil {
		if o.Team != nil {
			t := *o.Team
			m.WinnerTeam = &t
		}
		m.Winner, m.Why = o.PlayerName, o.Why
		for _, t := range o.Teams {
			m.Teams = append(m.Teams, TeamLine(t))
		}
	}
	return m
}

// Announce queues a process-wide event (server up or down) on the sender
// when the host chose it.
func Announce(s *Sender, events []string, kind, server string, now time.Time) {
	if s != nil && slices.Contains(events, kind) {
		s.Enqueue(Message{Kind: kind, Server: server, Time: now})
	}
}
