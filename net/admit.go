package net

import (
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/net/alby"
)

// Wire ids handed to clients (transport.md 2.2).
const (
	minWireID = 2
	maxWireID = 126
)

// The budget for refusals sent to strangers: each one answers a datagram
// nobody vouched for, so a spoofed flood must not make the host a
// reflector. The stock client repeats its connect about once a second.
const (
	refusalRate  = 20 // per second
	refusalBurst = 40
)

// Identity changes a peer may make: a stock client sends its identity once
// at connect and once after a rename; every change is relayed to all peers.
const (
	identityRate  = 0.2 // per second
	identityBurst = 4
)

// stranger handles a datagram from an address that is not a peer: only a
// connect request opens a connection.
func (h *Host) stranger(now time.Time, from netip.AddrPort, b []byte) {
	_, msgs, err := ParseDatagram(b, h.msgs[:0])
	defer func() { clear(msgs); h.msgs = msgs[:0] }()
	if len(msgs) == 0 || b[0] != PeerUnassigned || msgs[0].Type != TypeConnect || !msgs[0].HasSeq {
		for i := range msgs {
			m := &msgs[i]
			if m.Type == TypeDisconnect && m.HasSeq {
				// A peer we already removed did not get our ACK of its
				// disconnect; ACK it again so it stops retransmitting.
				h.Stats.StaleDisconnect++
				ack := Message{Type: TypeAck, Seq: m.Seq, Low: true}
				d := AppendMessage(append(h.buf[:0], PeerHost, 1), &ack)
				alby.Encrypt(d)
				h.answer(d, from)
				return
			}
		}
		h.Stats.Strangers++
		if err != nil {
			h.Stats.Malformed++
		}
		return
	}
	if h.shutdown {
		h.Stats.Strangers++
		return
	}
	// Admission before work (transport.md 4.5): ban, then password, both
	// answered without allocating anything for the stranger.
	req := ParseConnect(msgs[0].Payload)
	switch reason := h.ev.Admit(from, &req); reason {
	case BootNone:
	case BootLater:
		h.Stats.Deferred++
		h.log.Debug("connect deferred: the game is not ready for players yet", "addr", from)
		return
	default:
		h.refuse(now, from, reason)
		return
	}
	if len(h.peers)-h.pending >= h.cfg.MaxPeers {
		h.log.Info("connection refused: no free transport peer", "addr", from, "peers", len(h.peers))
		h.refuse(now, from, BootFull)
		return
	}
	if !h.makeRoom(now, from.Addr()) {
		// A crowd behind one address connecting together: every earlier
		// connect of the address got its reply moments ago and is still
		// expected to answer, so none is displaced (it would hang at the
		// checksums, told nothing). This one is not answered; the client
		// repeats its connect (about once a second) and gets in once the
		// others have answered.
		h.Stats.Deferred++
		h.log.Debug("connect deferred: its address has connects waiting for their first answer", "addr", from, "waiting", h.pendingByAddr[from.Addr()])
		return
	}
	id, ok := h.allocID()
	if !ok && h.evictPending(now) {
		id, ok = h.allocID()
	}
	if !ok {
		h.refuse(now, from, BootFull)
		return
	}
	p := &Peer{ID: id, Addr: from, host: h, conn: newConn(h.cfg.Transport, PeerHost, now, &h.pool), nonce: req.Nonce, since: now}
	p.rx = peerRx{p}
	p.idRate = tokenBucket{rate: identityRate, burst: identityBurst}
	p.conn.SetKeepalive(true)
	h.peers[from] = p
	h.byID[id] = p
	h.list = append(h.list, p)
	p.pending = true
	h.pending++
	h.pendingByAddr[from.Addr()]++
	h.log.Debug("peer connected", "peer", id, "addr", from, "nonce", req.Nonce)
	_ = p.conn.SendControl(TypeConnect, []byte{id})
	// The newcomer learns every other peer's id, address and name
	// (transport.md 4.5 step 4), then the game layer takes it (step 5).
	for _, o := range &h.byID {
		if o != nil && o != p && !o.closing && o.Identity != nil {
			_ = p.conn.SendControl(TypeData, o.Identity)
		}
	}
	h.ev.Connected(p)
	// The reply (and whatever Connected queued) leaves before the ACK of
	// the connect exists, so it matches the stock datagram exactly; the ACK
	// follows in the next one (handshake.md 2.1).
	h.flushPeer(now, p)
	if err := p.conn.Receive(now, b, &p.rx); err != nil {
		h.log.Debug("malformed datagram", "peer", p.ID, "addr", from, "err", err)
	}
	h.finishLeaving(now, p)
}

// refuse answers a refused connect with a boot naming peer 0xFF as the
// first low-channel message to the address (seq 0) and no connect reply:
// `01 01 04 07 C0 00 00 <reason> FF` (transport.md 4.5, 10.4). Nothing is
// kept: a retransmitted connect is judged again.
func (h *Host) refuse(now time.Time, from netip.AddrPort, reason BootReason) {
	h.Stats.Refused++
	if !h.refusals.take(now) {
		h.Stats.RefusalsDropped++
		return
	}
	boot := Message{Type: TypeBoot, Reliable: true, Priority: true, HasSeq: true, Payload: []byte{byte(reason), PeerUnassigned}}
	d := AppendMessage(append(h.buf[:0], PeerHost, 1), &boot)
	alby.Encrypt(d)
	h.answer(d, from)
}

// makeRoom keeps the unverified peers within their limits before one more
// from addr joins them. It reports false when the connect should wait.
//
// Per address, the cap tells a real crowd from a flood by whether the
// connects answer: players behind one NAT answer their replies within a
// round trip, so their connects leave the count quickly, while a flood's
// never do. Only a connect that has had AnswerWindow to answer and did not
// is displaced (the oldest); while every connect of the address is younger
// than that, the new one waits (makeRoom reports false).
//
// Over all addresses, the one whose address sent strangers' datagrams the
// most lately (the least left of its budget) makes room, the oldest among
// equals. A connect that never answers can thus only ever displace another
// that never answered, never a player; and a flood displaces its own
// connects before a real joiner's, which came from an address that
// connects about once a second and is waiting for its first answer.
//
// Every displaced connect got a reply, so its client is told with a boot
// (reason 3, "server full", which the stock client shows) instead of being
// left at the checksums.
func (h *Host) makeRoom(now time.Time, addr netip.Addr) bool {
	if h.pendingByAddr[addr] >= h.cfg.PendingPerAddr && !h.evictStale(now, addr) {
		return false
	}
	if h.pending >= h.cfg.MaxPending {
		h.evictPending(now)
	}
	return true
}

// evictStale displaces the oldest unverified peer of addr if it has had
// AnswerWindow to answer. It reports whether it did.
func (h *Host) evictStale(now time.Time, addr netip.Addr) bool {
	var victim *Peer
	for _, p := range h.list {
		if p.verified || p.closing || p.Addr.Addr() != addr || now.Sub(p.since) < h.cfg.AnswerWindow {
			continue
		}
		if victim == nil || p.since.Before(victim.since) {
			victim = p
		}
	}
	if victim == nil {
		return false
	}
	h.displace(now, victim)
	return true
}

// evictPending displaces an unverified peer of any address: the busiest
// address's (see makeRoom), the oldest among equals. It reports whether it
// found one.
func (h *Host) evictPending(now time.Time) bool {
	var victim *Peer
	var level float64
	for _, p := range h.list {
		if p.verified || p.closing {
			continue
		}
		l := h.strangers.level(now, p.Addr.Addr())
		if victim == nil || l < level || (l == level && p.since.Before(victim.since)) {
			victim, level = p, l
		}
	}
	if victim == nil {
		return false
	}
	h.displace(now, victim)
	return true
}

// displace forgets an unverified peer to make room for a new connect and
// tells it with a "server full" boot naming its id, sent once (it may be a
// spoofed address, so the datagram comes out of the budget for answering
// strangers, and nothing lingers). The count and a line at most once a
// second go to the log.
func (h *Host) displace(now time.Time, p *Peer) {
	h.Stats.Displaced++
	_ = p.conn.SendControl(TypeBoot, []byte{byte(BootFull), p.ID})
	if d := p.conn.Flush(now, h.buf[:0]); d != nil {
		alby.Encrypt(d)
		h.answer(d, p.Addr)
	}
	if now.Sub(h.displacedLogAt) >= time.Second {
		h.displacedLogAt = now
		h.log.Info("unanswered connect displaced by a newer one, told \"server full\"", "peer", p.ID, "addr", p.Addr, "displaced_total", h.Stats.Displaced)
	}
	h.forget(p)
}

// verify marks p as having answered its connect reply and tells the owner.
func (h *Host) verify(p *Peer) {
	p.verified = true
	h.unpend(p)
	if h.verifier != nil && !p.closing {
		h.verifier.Verified(p)
	}
}

// unpend takes an unverified peer out of the pending counts.
func (h *Host) unpend(p *Peer) {
	if !p.pending {
		return
	}
	p.pending = false
	h.pending--
	a := p.Addr.Addr()
	if n := h.pendingByAddr[a] - 1; n > 0 {
		h.pendingByAddr[a] = n
	} else {
		delete(h.pendingByAddr, a)
	}
}

// forget removes an unverified peer without a word to anyone: nobody else
// was ever told of it, and it never showed that it hears us.
func (h *Host) forget(p *Peer) {
	h.Stats.Unverified++
	h.retire(p)
	if p.leaving == 0 {
		p.leaving = LeftUnverified
	}
	if !p.closing {
		h.ev.Left(p, LeftUnverified)
	}
}

// allocID takes the first free wire id at or after the cursor, wrapping
// from 126 to 2, and moves the cursor past it: the stock next-fit rule
// (transport.md 2.2), so a client that leaves and rejoins gets a new id.
func (h *Host) allocID() (byte, bool) {
	n := maxWireID - minWireID + 1
	for i := 0; i < n; i++ {
		id := minWireID + (h.cursor-minWireID+i)%n
		if h.byID[id] == nil {
			h.cursor = id + 1
			if h.cursor > maxWireID {
				h.cursor = minWireID
			}
			return byte(id), true
		}
	}
	return 0, false
}

// reconnect looks at a datagram from a known address that still carries
// the unassigned id 0xFF. A connect with the session's nonce is a
// retransmission: the normal receive path ACKs it again, and the reply goes
// out again at once. A connect with a new nonce is a new session: the old
// peer is dropped as if it had timed out (the others are told with a
// reason-1 boot) and the connect is handled afresh. It reports whether it
// consumed the datagram.
func (h *Host) reconnect(now time.Time, p *Peer, b []byte) bool {
	if b[1] == 0 {
		return false
	}
	m, _, err := ParseMessage(b[HeaderSize:])
	if err != nil || m.Type != TypeConnect || !m.HasSeq {
		return false
	}
	req := ParseConnect(m.Payload)
	if req.Nonce == p.nonce {
		p.conn.resendNow(now, 0)
		return false
	}
	if h.shutdown {
		return true
	}
	h.Stats.Replaced++
	h.log.Info("new session from a connected address, dropping the old one", "peer", p.ID, "addr", p.Addr, "name", p.Name)
	if p.closing {
		h.retire(p)
	} else {
		h.drop(p, LeftReplaced)
	}
	h.stranger(now, p.Addr, b)
	return true
}

// identity handles a peer's identity message: checked, offered to the
// owner, then relayed unchanged as a new reliable message to every
// connected peer, the sender included (transport.md 10.2).
func (h *Host) identity(p *Peer, payload []byte) {
	id, err := ParseIdentity(payload)
	if err == nil && id.PeerID != p.ID {
		err = errWrongIdentity
	}
	if err != nil {
		h.Stats.BadIdentity++
		h.log.Debug("identity refused", "peer", p.ID, "err", err)
		return
	}
	if string(payload) == string(p.Identity) {
		return // nothing new to tell anyone
	}
	if !p.idRate.take(h.now) {
		h.Stats.BadIdentity++
		h.log.Debug("identity changes too frequent", "peer", p.ID)
		return
	}
	if !h.ev.Identity(p, id) || p.closing || p.leaving != 0 {
		return
	}
	p.Identity = append(p.Identity[:0], payload...)
	p.Name = id.Name
	for _, o := range &h.byID {
		if o != nil && !o.closing {
			_ = o.conn.SendControl(TypeData, p.Identity)
		}
	}
}

// Rename gives a peer a new name chosen by the host (a protected name's
// impostor becomes "Name (guest)"): the peer's identity is rewritten and
// sent to every connected peer, the peer itself included, as a relayed
// identity change is (transport.md 10.2), so the others' player lists show
// the new name.
func (h *Host) Rename(p *Peer, name string) {
	if p == nil || p.closing {
		return
	}
	id := Identity{PeerID: p.ID, Name: name}
	if old, err := ParseIdentity(p.Identity); err == nil {
		id.IP = old.IP
	}
	p.Identity = AppendIdentity(p.Identity[:0], id)
	p.Name = name
	for _, o := range &h.byID {
		if o != nil && !o.closing {
			_ = o.conn.SendControl(TypeData, p.Identity)
		}
	}
}
