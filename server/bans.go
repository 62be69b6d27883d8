package server

import (
	"context"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/admin"
)

// processBans is one game's ban list for its admin API, telling the
// process's other games of every change: the games share [bans] and its
// file, and a ban made in one game's console must boot the player from
// every game at once, not at the next SIGHUP. Its methods run on the
// game's goroutine, like the list's.
type processBans struct {
	admin.Bans
	p    *process
	from *Game
}

// Add implements admin.Bans.
func (b *processBans) Add(ban admin.Ban, reason string) (bool, []string, error) {
	added, hit, err := b.Bans.Add(ban, reason)
	if err == nil {
		b.spread()
	}
	return added, hit, err
}

// Remove implements admin.Bans.
func (b *processBans) Remove(ban admin.Ban) (bool, error) {
	removed, err := b.Bans.Remove(ban)
	if err == nil && removed {
		b.spread()
	}
	return removed, err
}

// banSpread bounds how long a game may take to take up a change.
const banSpread = 10 * time.Second

// spread has every other game read the ban file again (the change is in
// it: the list rewrites it before it returns) and boot whom it now bans,
// each on its own goroutine; the caller's game does not wait for them.
func (b *processBans) spread() {
	for _, u := range b.p.games {
		if u == b.from || u.srv == nil {
			continue
		}
		reload := func(g *engine.Game) {
			c := g.Config()
			if err := g.ReloadBans(c.Bans, c.BanFile); err != nil {
				u.log.Error("taking up a ban made in another game", "err", err)
			}
		}
		g := u.g
		if g.Post(func() { reload(g) }) {
			continue
		}
		// The game's queue is full: wait for a place off its goroutine.
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), banSpread)
			defer cancel()
			if err := u.Do(ctx, reload); err != nil {
				u.log.Error("a ban made in another game not taken up (it is at the next SIGHUP)", "err", err)
			}
		}()
	}
}
