package engine

import (
	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// Leaving: the stock leave procedure for a peer the transport reports gone.

// left is net.Events.Left (peerEvents): the leave procedure (handshake.md 5).
func (g *Game) left(peer *bcnet.Peer, reason bcnet.LeaveReason) {
	p := g.byID[peer.ID]
	if p == nil || p.peer != peer {
		return
	}
	g.byID[p.ID] = nil
	p.push = nil // a push in progress ends with its peer (mods.md 5.10 rule 8)
	if p.Slot < 0 {
		// It never answered its connect reply: nobody, missions included,
		// heard of it.
		p.State = 0
		g.log.Debug("connect never answered", "player", p.ID, "addr", p.Addr, "reason", reason)
		return
	}
	g.bySlot[p.Slot] = nil
	wasInGame := p.InGame()
	why := leaveReason(reason, p.State)
	// At shutdown every client has its own notice and nobody is told of
	// the others (transport.md 10.4).
	if wasInGame && reason != bcnet.LeftShutdown {
		g.world.RemoveOwner(&p.Owner)
		g.buf = codec.PlayerListEvent{Code: codec.EventPlayerLeft, PeerID: p.ID}.AppendTo(g.buf[:0])
		g.SendInGame(g.buf, nil)
		// Stock clients look the "has left" text up in a TGL file and crash
		// on an empty name, so never send one without a name.
		if name := Name8(p.Name); len(name) > 0 {
			g.buf = codec.DeletePlayerAnim{Name: name}.AppendTo(g.buf[:0])
			g.SendInGame(g.buf, nil)
		}
		g.Stats.Leaves.Add(1)
		g.log.Info("player left", "player", p.ID, "name", p.Name, "reason", why)
	} else {
		g.log.Debug("player dropped before joining", "player", p.ID, "addr", p.Addr, "reason", why)
	}
	p.State = 0
	g.bus.emit(&PlayerLeft{Player: p, Reason: why, WasInGame: wasInGame})
}

func leaveReason(r bcnet.LeaveReason, st PlayerState) LeaveReason {
	switch r {
	case bcnet.LeftDisconnect:
		return LeaveQuit
	case bcnet.LeftTimeout:
		return LeaveTimeout
	case bcnet.LeftOverflow:
		return LeaveOverflow
	case bcnet.LeftShutdown:
		return LeaveShutdown
	case bcnet.LeftReplaced:
		return LeaveReconnected
	}
	if st == StateRejected {
		return LeaveRejected
	}
	return LeaveKicked
}
