package moderation

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/names"
	bcnet "github.com/bcserver/bcserver/net"
)

// Roles, from least to most (the admin API's tokens and the accounts').
const (
	RoleViewer    = "viewer"
	RoleModerator = "moderator"
	RoleAdmin     = "admin"
)

// Rank orders roles: viewer 1, moderator 2, admin 3, anything else 0.
func Rank(role string) int {
	switch role {
	case RoleViewer:
		return 1
	case RoleModerator:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// MaxModeratorBan is the longest ban a moderator may give; permanent
// bans are the admins'.
const MaxModeratorBan = 30 * 24 * time.Hour

// PluginOptions configure one game's moderation.
type PluginOptions struct {
	Store *Store
	// Restart restarts the game as the admin API does (the match history
	// records the cut); game goroutine.
	Restart func()
}

// Plugin enforces the timed bans in one game and runs its in-game admin
// commands.
type Plugin struct {
	opts    PluginOptions
	g       *engine.Game
	offs    []func()
	stopped bool
}

// New makes the plugin; add it with engine.Game.AddPlugin.
func New(o PluginOptions) *Plugin { return &Plugin{opts: o} }

// Name implements engine.Plugin.
func (m *Plugin) Name() string { return "moderation" }

// Start implements engine.Plugin.
func (m *Plugin) Start(g *engine.Game) error {
	m.g = g
	check := func(p *engine.Player) { m.check(p) }
	m.offs = append(m.offs,
		g.On(engine.EvPlayerConnected, func(ev engine.Event) { check(ev.(*engine.PlayerConnected).Player) }),
		g.On(engine.EvPlayerJoined, func(ev engine.Event) { check(ev.(*engine.PlayerJoined).Player) }),
		g.On(engine.EvPlayerRenamed, func(ev engine.Event) { check(ev.(*engine.PlayerRenamed).Player) }),
	)
	// A ban given anywhere in the process boots who it matches here.
	m.opts.Store.OnBan(func(b Ban) {
		g.Post(func() {
			if m.stopped {
				return
			}
			for _, p := range g.Players() {
				m.check(p)
			}
		})
	})
	return nil
}

// Stop implements engine.Plugin.
func (m *Plugin) Stop(*engine.Game) {
	m.stopped = true
	for _, off := range m.offs {
		off()
	}
	m.offs = nil
}

// check boots a player a ban in force matches (the stock "banned").
func (m *Plugin) check(p *engine.Player) {
	b, ok := m.opts.Store.Banned(p.Name, p.Addr.Addr(), m.g.Now())
	if !ok {
		return
	}
	until := "permanent"
	if b.Expires != nil {
		until = b.Expires.Format(time.RFC3339)
	}
	m.g.Logger().Info("booting banned player", "component", "plugin/moderation", "player", p.ID, "name", p.Name, "addr", p.Addr,
		"ban", b.ID, "until", until, "reason", b.Reason)
	m.g.Kick(p, bcnet.BootBanned)
}

// ParseDuration reads "30m", "2h", "7d", "2w" (and Go's forms); "perm"
// or "permanent" is 0.
func ParseDuration(s string) (time.Duration, bool) {
	switch strings.ToLower(s) {
	case "perm", "permanent":
		return 0, true
	}
	if n := len(s); n > 1 {
		if v, err := strconv.Atoi(s[:n-1]); err == nil && v > 0 && v < 100000 {
			switch s[n-1] {
			case 'd':
				return time.Duration(v) * 24 * time.Hour, true
			case 'w':
				return time.Duration(v) * 7 * 24 * time.Hour, true
			}
		}
	}
	d, err := time.ParseDuration(s)
	return d, err == nil && d > 0
}

// Command runs an in-game admin command of a logged-in player with a
// role; it reports whether it took the line (others go on to the
// mission). Game goroutine.
func (m *Plugin) Command(p *engine.Player, cmd, rest string) bool {
	rank := Rank(p.Role)
	if rank < Rank(RoleModerator) {
		return false
	}
	args := strings.Fields(rest)
	switch cmd {
	case "kick", "ban", "mute", "unmute", "warn":
		if len(args) == 0 {
			m.reply(p, "usage: !"+cmd+" <name or id> ...")
			return true
		}
		t := m.find(args[0])
		if t == nil {
			m.reply(p, "no player "+args[0])
			return true
		}
		if Rank(t.Role) >= rank && t != p {
			m.reply(p, t.Name+" is immune")
			return true
		}
		m.target(p, cmd, t, args[1:])
	case "restart":
		if rank < Rank(RoleAdmin) {
			m.reply(p, "!restart is for admins")
			return true
		}
		m.audit(p, "game_restart", nil)
		m.g.SendInGame(engine.ServerNotice(nil, p.Account+" restarts the game"), nil)
		if m.opts.Restart != nil {
			m.opts.Restart()
		} else {
			m.g.RestartGame()
		}
	default:
		return false
	}
	return true
}

func (m *Plugin) target(p *engine.Player, cmd string, t *engine.Player, args []string) {
	reason := strings.Join(args, " ")
	switch cmd {
	case "kick":
		m.audit(p, "kick", map[string]any{"player": t.Name, "reason": reason})
		m.g.SendInGame(engine.ServerNotice(nil, fmt.Sprintf("%s was kicked by %s %s", t.Name, p.Account, reason)), nil)
		m.g.Kick(t, bcnet.BootKicked)
	case "mute", "unmute":
		m.g.SetMuted(t, cmd == "mute")
		m.audit(p, cmd, map[string]any{"player": t.Name})
		m.reply(p, fmt.Sprintf("%s: %sd", t.Name, cmd))
	case "warn":
		if reason == "" {
			m.reply(p, "usage: !warn <name> <why>")
			return
		}
		m.audit(p, "warn", map[string]any{"player": t.Name, "text": reason})
		name, by, now := t.Name, p.Account, m.g.Now()
		m.opts.Store.Go(func() { _, _ = m.opts.Store.AddRecord(context.Background(), name, "warning", reason, by, now) })
		_ = m.g.Send(t, engine.ServerNotice(nil, "warning from "+p.Account+": "+reason))
	case "ban":
		d := time.Duration(0)
		if len(args) > 0 {
			if v, ok := ParseDuration(args[0]); ok {
				d, reason = v, strings.Join(args[1:], " ")
			}
		}
		if Rank(p.Role) < Rank(RoleAdmin) && (d == 0 || d > MaxModeratorBan) {
			m.reply(p, "moderators ban for a time: !ban <name> <30m|2h|7d> [reason], at most 30d")
			return
		}
		if len(reason) > MaxReason {
			reason = reason[:MaxReason]
		}
		m.audit(p, "ban", map[string]any{"player": t.Name, "duration": d.String(), "reason": reason})
		name, addr, by, now := t.Name, t.Addr.Addr().Unmap().String(), p.Account, m.g.Now()
		st := m.opts.Store
		st.Go(func() {
			ctx := context.Background()
			_, _ = st.AddBan(ctx, "name:"+name, reason, by, d, now)
			_, _ = st.AddBan(ctx, addr, reason, by, d, now)
		})
		what := "for good"
		if d > 0 {
			what = "for " + d.String()
		}
		m.g.SendInGame(engine.ServerNotice(nil, fmt.Sprintf("%s was banned %s by %s %s", t.Name, what, p.Account, reason)), nil)
		m.g.Kick(t, bcnet.BootBanned)
	}
}

// find returns the player a command names: an id, or a name (compared as
// the engine compares names).
func (m *Plugin) find(ref string) *engine.Player {
	if id, err := strconv.Atoi(ref); err == nil && id > 1 && id < 256 {
		if p := m.g.Player(byte(id)); p != nil {
			return p
		}
	}
	for _, p := range m.g.Players() {
		if names.Same(p.Name, ref) {
			return p
		}
	}
	return nil
}

func (m *Plugin) reply(p *engine.Player, text string) {
	_ = m.g.Send(p, engine.ServerNotice(nil, text))
}

// audit writes the in-game action to the log and the audit table.
func (m *Plugin) audit(p *engine.Player, action string, args map[string]any) {
	b, _ := json.Marshal(args)
	m.g.Logger().Info("admin action", "component", "plugin/moderation", "action", action, "by", p.Account, "role", p.Role, "in_game", true, "args", string(b), "status", 200)
	e := AuditEntry{At: m.g.Now(), By: "account:" + p.Account, Role: p.Role, Action: action, Args: string(b), Status: 200}
	m.opts.Store.Go(func() { _ = m.opts.Store.Audit(context.Background(), e) })
}
