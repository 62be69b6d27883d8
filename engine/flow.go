package engine

import (
	"time"

	bcnet "github.com/bcserver/bcserver/net"
)

// The per-player flow limit every in-game message passes first (README,
// "Flood defences").

// allow applies the per-player flow limits to a message of n bytes: token
// buckets of FlowRate messages and FlowBytes bytes a second, FlowBurst and
// FlowByteBurst deep. Counting bytes too means a few large messages cost
// as much as many small ones. A player that keeps a bucket empty for
// FlowBoot is booted; until then its excess is dropped, so only its own
// traffic suffers.
func (g *Game) allow(p *Player, n int) bool {
	msgs := g.cfg.FlowRate > 0
	bytes := g.cfg.FlowBytes > 0
	if !msgs && !bytes {
		return true
	}
	now := g.now
	if p.flowAt.IsZero() {
		p.flowTokens, p.byteTokens, p.flowAt = g.cfg.FlowBurst, g.cfg.FlowByteBurst, now
	}
	dt := now.Sub(p.flowAt).Seconds()
	p.flowTokens = min(g.cfg.FlowBurst, p.flowTokens+dt*g.cfg.FlowRate)
	p.byteTokens = min(g.cfg.FlowByteBurst, p.byteTokens+dt*g.cfg.FlowBytes)
	p.flowAt = now
	if (!msgs || p.flowTokens >= g.cfg.FlowBurst) && (!bytes || p.byteTokens >= g.cfg.FlowByteBurst) {
		p.overSince = time.Time{}
	}
	if (!msgs || p.flowTokens >= 1) && (!bytes || p.byteTokens >= float64(n)) {
		p.flowTokens--
		p.byteTokens -= float64(n)
		return true
	}
	g.Stats.Throttled.Add(1)
	if p.overSince.IsZero() {
		p.overSince = now
		g.log.Info("throttling player", "player", p.ID, "name", p.Name)
	} else if g.cfg.FlowBoot > 0 && now.Sub(p.overSince) >= g.cfg.FlowBoot {
		g.log.Warn("booting player for flooding", "player", p.ID, "name", p.Name)
		g.Kick(p, bcnet.BootKicked)
	}
	return false
}
