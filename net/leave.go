package net

import (
	"fmt"
	"slices"
	"time"
)

var errWrongIdentity = fmt.Errorf("identity names another peer: %w", ErrMalformed)

// setBye keeps the payload to relay when the peer leaves gracefully: its
// own 0x05 payload [peer_id][ipv4], but always naming the peer itself, so
// a hostile client cannot make the others drop someone else, or the host.
func (p *Peer) setBye(payload []byte) {
	p.bye[0] = p.ID
	switch {
	case len(payload) >= 5:
		copy(p.bye[1:], payload[1:5])
	case len(p.Identity) >= 5:
		copy(p.bye[1:], p.Identity[1:5])
	}
}

// finishLeaving removes a peer that asked to leave (or overflowed) during
// Receive, after sending what is due to it (the ACK of its disconnect).
func (h *Host) finishLeaving(now time.Time, p *Peer) {
	if p.leaving == 0 || p.closing {
		return
	}
	h.flushPeer(now, p)
	h.drop(p, p.leaving)
}

// drop removes a peer at once and tells the others at the transport level
// before the owner runs its leave procedure, so the game-layer leave
// messages (0x14/0x17/0x18) follow the transport notice in every queue:
// a graceful leaver's 0x05 is relayed (transport.md 10.4); a lost peer is
// announced with a reason-1 boot naming it, as the stock host does on a
// timeout.
func (h *Host) drop(p *Peer, reason LeaveReason) {
	if h.peers[p.Addr] != p || p.closing {
		return
	}
	if !p.verified {
		// Nobody was told of it: no relay, no boot to the others.
		h.retire(p)
		p.leaving = reason
		h.ev.Left(p, reason)
		return
	}
	switch reason {
	case LeftDisconnect:
		for _, o := range &h.byID {
			if o != nil && o != p && !o.closing {
				_ = o.conn.SendControl(TypeDisconnect, p.bye[:])
			}
		}
	case LeftTimeout, LeftOverflow, LeftReplaced:
		for _, o := range &h.byID {
			if o != nil && o != p && !o.closing {
				_ = o.conn.SendControl(TypeBoot, []byte{byte(BootTimedOut), p.ID})
			}
		}
	}
	h.retire(p)
	p.leaving = reason
	h.log.Debug("peer removed", "peer", p.ID, "addr", p.Addr, "reason", reason)
	h.ev.Left(p, reason)
}

// retire forgets a peer: its address and wire id are free (the id comes
// back only after the next-fit cursor has gone round).
func (h *Host) retire(p *Peer) {
	if h.peers[p.Addr] != p {
		return
	}
	delete(h.peers, p.Addr)
	if h.byID[p.ID] == p {
		h.byID[p.ID] = nil
	}
	if i := slices.Index(h.list, p); i >= 0 {
		h.list = slices.Delete(h.list, i, i+1)
	}
	h.unpend(p)
	p.conn.release()
}

// linger keeps a peer that was booted or told of the shutdown until its
// notice is ACKed or until d has passed; meanwhile only its ACKs count.
func (h *Host) linger(now time.Time, p *Peer, d time.Duration) {
	p.closing = true
	p.closeBy = now.Add(d)
	p.conn.SetKeepalive(false)
}

// Boot sends p a boot notice with reason and removes it from the game.
// Peers that know p (its identity was relayed to them) get the same notice,
// which makes them drop p from their peer lists (transport.md 4.5). The
// booted peer lingers until it ACKs the notice, at most BootLinger.
func (h *Host) Boot(now time.Time, p *Peer, reason BootReason) {
	if h.peers[p.Addr] != p || p.closing {
		return
	}
	notice := []byte{byte(reason), p.ID}
	_ = p.conn.SendControl(TypeBoot, notice)
	if p.Identity != nil {
		for _, o := range &h.byID {
			if o != nil && o != p && !o.closing {
				_ = o.conn.SendControl(TypeBoot, notice)
			}
		}
	}
	h.flushPeer(now, p)
	h.linger(now, p, h.cfg.Transport.BootLinger)
	p.leaving = LeftBooted
	h.log.Debug("peer booted", "peer", p.ID, "addr", p.Addr, "reason", reason)
	h.ev.Left(p, LeftBooted)
}

// Shutdown tells every peer the session is over with the stock server
// rule of transport.md 10.4: a reliable type-0x05 message naming the host,
// `05 0A C0 <seq> 01 <host ipv4>`. Every notice is queued before any peer
// is reported gone, so no client hears of another's departure first. The
// peers then linger until they ACK, at most ShutdownWait; Done reports the
// end. A connect that never answered its reply gets the notice once and
// is not waited for: a spoofed flood's connects never ACK, and would
// otherwise hold the shutdown for the whole wait. New connects are ignored
// from now on.
func (h *Host) Shutdown(now time.Time) {
	h.shutdown = true
	var ps []*Peer
	for _, p := range &h.byID {
		if p != nil && !p.closing {
			ps = append(ps, p)
		}
	}
	for _, p := range ps {
		var bye [5]byte
		bye[0] = PeerHost
		if h.cfg.LocalIP != nil {
			ip := h.cfg.LocalIP(p.Addr)
			copy(bye[1:], ip[:])
		}
		_ = p.conn.SendControl(TypeDisconnect, bye[:])
		h.linger(now, p, h.cfg.Transport.ShutdownWait)
		p.leaving = LeftShutdown
	}
	for _, p := range ps {
		h.flushPeer(now, p)
		if !p.verified {
			h.retire(p)
		}
	}
	for _, p := range ps {
		h.ev.Left(p, LeftShutdown)
	}
}

// Done reports whether Shutdown has finished: every peer ACKed its notice
// or ran out of time (Tick retires them).
func (h *Host) Done() bool { return h.shutdown && len(h.peers) == 0 }
