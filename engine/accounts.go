package engine

import "github.com/bcserver/bcserver/engine/names"

// Accounts (plugins/accounts) need three things of the core: chat lines
// that never reach anyone (a password), a rename the host chooses, and a
// player whose points are not counted while he uses a protected name
// without logging in.

// ChatFilter sees each valid chat line before anything else does; when it
// returns true the line is consumed: it raises no chat event (so no
// mission, log, console or recording sees it) and is relayed to nobody,
// the sender included.
type ChatFilter func(p *Player, team bool, text []byte) bool

// SetChatFilter installs the filter (nil removes it); one per game.
func (g *Game) SetChatFilter(f ChatFilter) { g.chatFilter = f }

// EvPlayerRenamed is raised when a player's name changed after admission:
// by his client (an identity change) or by the host (RenamePlayer).
const EvPlayerRenamed = "player_renamed"

// PlayerRenamed: Player.Name is the new name, Old the previous one; ByHost
// tells a host rename from the client's own.
type PlayerRenamed struct {
	Player *Player
	Old    string
	ByHost bool
}

// Name implements Event.
func (*PlayerRenamed) Name() string { return EvPlayerRenamed }

// RenamePlayer gives p a name of the host's choosing, cut to what an
// identity holds and made unique ("Name (2)" as at admission); every
// client is sent the new identity. It returns the name given.
func (g *Game) RenamePlayer(p *Player, name string) string {
	if p == nil || g.byID[p.ID] != p {
		return ""
	}
	clean, _ := names.Clean(name)
	old := p.Name
	p.Name = clean
	if n, renamed := g.uniqueName(p); renamed {
		p.Name = n
	}
	if p.Name == old {
		return old
	}
	g.host.Rename(p.peer, p.Name)
	g.log.Info("player renamed by the host", "player", p.ID, "name", old, "new_name", p.Name)
	g.bus.emit(&PlayerRenamed{Player: p, Old: old, ByHost: true})
	return p.Name
}

// SetScored says whether p's points count. A player who does not count
// (a protected name not logged in) is reported with zero kills, deaths
// and score whatever the mission says; when he counts again, what the
// mission reported until then is left out: his numbers count from there.
func (g *Game) SetScored(p *Player, on bool) {
	if p.unscored == !on {
		return
	}
	p.unscored = !on
	if on {
		p.scoreBase = p.scoreRaw
	}
	g.SetScore(p, p.scoreRaw[0], p.scoreRaw[1], p.scoreRaw[2])
}

// Scored reports whether p's points count (SetScored).
func (p *Player) Scored() bool { return !p.unscored }

// SetMuted holds back (or lets through again) a player's chat for the rest
// of his session: the line still raises its chat event (the console logs
// it) and comes back to him, as every line does from a stock host, but
// reaches nobody else.
func (g *Game) SetMuted(p *Player, on bool) { p.muted = on }

// Muted reports whether the player's chat is held back (SetMuted).
func (p *Player) Muted() bool { return p.muted }
