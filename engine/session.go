package engine

import (
	"github.com/bcserver/bcserver/codec"
	bcnet "github.com/bcserver/bcserver/net"
)

// Session entry: every game-layer message a peer sends arrives here and is
// handled by the sender's join state (handshake.go while it joins,
// routing.go once it is in the game); leave.go is the way out.

// message is net.Events.Message (peerEvents): one game-layer message from a peer,
// handled according to the sender's join state.
func (g *Game) message(peer *bcnet.Peer, payload []byte, reliable bool) {
	p := g.byID[peer.ID]
	if p == nil || len(payload) == 0 {
		g.Stats.Malformed.Add(1)
		return
	}
	op := payload[0]
	switch p.State {
	case StateChecksum:
		switch {
		case op == codec.OpFileTransferAck:
			g.fileAck(p, payload)
		case op != codec.OpChecksumResponse:
			g.dropHandshake(p, op, "game message before validation")
		case p.push != nil:
			g.dropHandshake(p, op, "checksum response during the file push")
		default:
			g.checksumResponse(p, payload)
		}
	case StateLoading:
		if op != codec.OpNewPlayerInGame {
			g.dropHandshake(p, op, "game message before NewPlayerInGame")
			return
		}
		g.newPlayerInGame(p, payload)
	case StateInGame:
		g.gameMessage(p, payload, reliable)
	default:
		g.dropHandshake(p, op, "message from a rejected player")
	}
}

func (g *Game) dropHandshake(p *Player, op byte, why string) {
	g.Stats.HandshakeDropped.Add(1)
	g.log.Debug("message dropped", "player", p.ID, "state", p.State, "opcode", codec.OpcodeName(op), "why", why)
}
