package engine

import (
	"net/netip"

	bcnet "github.com/bcserver/bcserver/net"
)

// peerEvents is the Game as the transport's listener (net.Events and
// net.Verifier): the transport's callbacks are the game's business only,
// so they are not methods of Game that every plugin and mission could
// call. Each forwards to the game's own handling: admission.go (admit,
// connected, verified, identity), session.go (message), leave.go (left).
type peerEvents Game

var (
	_ bcnet.Events   = (*peerEvents)(nil)
	_ bcnet.Verifier = (*peerEvents)(nil)
)

func (t *peerEvents) Admit(addr netip.AddrPort, req *bcnet.ConnectRequest) bcnet.BootReason {
	return (*Game)(t).admit(addr, req)
}

func (t *peerEvents) Connected(p *bcnet.Peer) { (*Game)(t).connected(p) }

func (t *peerEvents) Verified(p *bcnet.Peer) { (*Game)(t).verified(p) }

func (t *peerEvents) Identity(p *bcnet.Peer, id bcnet.Identity) bool {
	return (*Game)(t).identity(p, id)
}

func (t *peerEvents) Message(p *bcnet.Peer, payload []byte, reliable bool) {
	(*Game)(t).message(p, payload, reliable)
}

func (t *peerEvents) Left(p *bcnet.Peer, reason bcnet.LeaveReason) { (*Game)(t).left(p, reason) }
