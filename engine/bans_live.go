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
