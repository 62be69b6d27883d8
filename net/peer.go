package net

import (
	"errors"
	"net/netip"
	"time"
)

// Peer is one connected remote endpoint.
type Peer struct {
	ID   byte
	Addr netip.AddrPort
	// Name is the name from the identity message; "" until it arrives.
	Name string
	// Identity is the last identity payload relayed for the peer.
	Identity []byte

	host    *Host
	conn    *Conn
	rx      peerRx
	leaving LeaveReason
	nonce   uint32  // of the connect that opened the session
	bye     [5]byte // the 0x05 payload relayed when the peer leaves
	closing bool    // booted or shut down: kept only until its notice is ACKed
	closeBy time.Time
	idRate  tokenBucket // identity changes
	// verified: a datagram carried the id of our connect reply (Verifier);
	// pending: counted among the host's unverified peers.
	verified, pending bool
	since             time.Time // the connect
}

// Verified reports whether the peer has answered its connect reply.
func (p *Peer) Verified() bool { return p.verified }

type peerRx struct{ p *Peer }

func (r peerRx) Deliver(typ byte, payload []byte, reliable bool) {
	r.p.host.deliver(r.p, typ, payload, reliable)
}

// Send queues a game message to the peer. A peer whose queue overflows is
// removed at the next Flush or Tick (it cannot keep up; nobody else waits).
func (p *Peer) Send(payload []byte, reliable bool) error {
	if p.leaving != 0 || p.closing {
		return errors.New("peer is leaving")
	}
	err := p.conn.Send(payload, reliable)
	if errors.Is(err, ErrQueueFull) {
		p.leaving = LeftOverflow
	}
	return err
}

// SetLastReceived marks the peer as heard from at t (benchmarks drive a
// host with no peers answering).
func (p *Peer) SetLastReceived(t time.Time) { p.conn.lastRecv = t }

// DeliveredAt is, during the delivery of one of the peer's messages, the
// earliest time it could have arrived had nothing been lost
// (Conn.DeliveredAt).
func (p *Peer) DeliveredAt() time.Time { return p.conn.DeliveredAt() }

// Queued returns the number of messages waiting to be sent or ACKed.
func (p *Peer) Queued() int { return p.conn.Queued() }

// Stats returns the peer's transport counters.
func (p *Peer) Stats() Stats { return p.conn.Stats }
