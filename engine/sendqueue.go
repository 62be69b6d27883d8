package engine

import bcnet "github.com/bcserver/bcserver/net"

// SendQueue reports how many messages wait in a player's transport queue
// (sent or awaiting ACK) and how many it may hold before the player is
// dropped for overflow. Mission runtimes use it to refuse sends that would
// push a slow client over the edge.
func (g *Game) SendQueue(p *Player) (queued, limit int) {
	if p == nil || p.peer == nil || g.byID[p.ID] != p {
		return 0, 0
	}
	limit = g.cfg.Transport.MaxQueued
	if limit <= 0 {
		limit = bcnet.DefaultConfig().MaxQueued
	}
	return p.peer.Queued(), limit
}
