package engine

import (
	"fmt"

	"github.com/bcserver/bcserver/engine/bans"
	bcnet "github.com/bcserver/bcserver/net"
)

// ReloadBans replaces the ban list with the configuration's fixed bans and
// the file at path, read again (SIGHUP), and boots the connected players
// the new list bans. On an error the old list stays.
func (g *Game) ReloadBans(fixed []string, path string) error {
	l, err := bans.Load(fixed, path)
	if err != nil {
		return fmt.Errorf("reloading the ban list: %w", err)
	}
	g.bans = l
	g.cfg.Bans, g.cfg.BanFile = fixed, path
	g.warnBroadBans()
	for _, p := range g.Players() {
		e, hit := l.BannedAddr(p.Addr.Addr())
		if !hit {
			e, hit = l.BannedName(p.Name)
		}
		if hit {
			g.log.Info("booting banned player", "player", p.ID, "name", p.Name, "addr", p.Addr, "ban", e.String())
			g.host.Boot(g.now, p.peer, bcnet.BootBanned)
		}
	}
	return nil
}

// warnBroadBans says so when the list holds a ban that locks out far more
// than one player (bans.Entry.Broad): the admin API asks for force before
// adding one, but the configuration and the file are the host's own word.
func (g *Game) warnBroadBans() {
	for _, e := range g.bans.Entries() {
		if why := e.Broad(); why != "" {
			g.log.Warn("a ban locks out far more than one player", "ban", e.String(), "why", why)
		}
	}
}
