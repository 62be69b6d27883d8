package net

import (
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"github.com/bcserver/bcserver/net/alby"
)

// BootReason is the reason byte of a type-0x04 boot message (transport.md 4.5).
type BootReason byte

// Stock boot reasons.
const (
	BootNone     BootReason = 0
	BootTimedOut BootReason = 1 // the named peer timed out
	BootRefused  BootReason = 2 // connection refused: wrong or missing password
	BootFull     BootReason = 3 // server full (sent after the connect reply)
	BootKicked   BootReason = 4 // kicked by the host (also the anti-cheat boot)
	BootBanned   BootReason = 5 // banned

	// BootLater is never sent: Events.Admit returns it to leave a connect
	// unanswered for now (the game is still loading its mission). The
	// stock client repeats its connect about once a second and is judged
	// again; Stats.Deferred counts these.
	BootLater BootReason = 0xFF
)

// LeaveReason says why a peer left.
type LeaveReason int

// Leave reasons reported by Host.
const (
	LeftDisconnect LeaveReason = iota + 1 // the peer sent a graceful disconnect (0x05)
	LeftTimeout                           // 45 s of silence, or a reliable message unACKed for 45 s
	LeftBooted                            // we booted it (Host.Boot)
	LeftOverflow                          // its send queue overflowed: it cannot keep up
	LeftShutdown                          // the host shut down
	LeftReplaced                          // a new session (new nonce) came from the same address
	LeftUnverified                        // it never answered our connect reply (spoofed, or gone)
)

func (r LeaveReason) String() string {
	switch r {
	case LeftDisconnect:
		return "disconnected"
	case LeftTimeout:
		return "timed out"
	case LeftBooted:
		return "booted"
	case LeftOverflow:
		return "send queue overflow"
	case LeftShutdown:
		return "server shutdown"
	case LeftReplaced:
		return "reconnected"
	case LeftUnverified:
		return "never answered"
	}
	return fmt.Sprintf("LeaveReason(%d)", int(r))
}

// Events is what a Host reports to its owner. All calls happen on the
// goroutine that calls the Host's methods.
type Events interface {
	// Admit is asked for every new connect request, before anything is
	// allocated for it: return BootNone to accept, or the reason to refuse
	// with (BootBanned, BootRefused). A refusal is sent to the address
	// instead of a connect reply (transport.md 4.5). req is valid only
	// during the call.
	Admit(addr netip.AddrPort, req *ConnectRequest) BootReason
	// Connected follows an accepted connect, after the connect reply and
	// the identities of the other peers are queued. Messages sent to the
	// peer during this call leave in the same datagram as the reply, as the
	// stock host batches the first checksum request (transport.md 8); a
	// full game boots the peer from here (handshake.md 2.1).
	Connected(p *Peer)
	// Identity reports a new or changed identity message (the player name).
	// Returning false keeps the peer's previous identity and does not relay
	// this one; the owner may also boot the peer from here.
	Identity(p *Peer, id Identity) bool
	// Message delivers one game-layer message (transport type 0x32).
	// payload is valid only during the call.
	Message(p *Peer, payload []byte, reliable bool)
	// Left reports that the peer is gone for the game. A booted or
	// shut-down peer may linger in the transport a little longer, only to
	// receive its notice.
	Left(p *Peer, reason LeaveReason)
}

// Verifier is an optional extension of Events. Verified reports that a
// peer's datagrams now carry the wire id of its connect reply: it receives
// what we send, so it is neither a spoofed address nor an abandoned
// connect. Until then a peer costs no player slot: it does not count
// against MaxPeers, and a flood of connects that never answer only ever
// replaces other unverified peers (HostConfig.MaxPending).
type Verifier interface {
	Verified(p *Peer)
}

// PacketWriter sends a datagram. *net.UDPConn satisfies it.
type PacketWriter interface {
	WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error)
}

// QueryHandler answers plaintext datagrams whose first byte is '\' (GameSpy
// queries, transport.md 1). reply sends a plaintext datagram back to from.
type QueryHandler func(now time.Time, from netip.AddrPort, query []byte, reply func([]byte))

// HostConfig configures a Host.
type HostConfig struct {
	Transport Config
	// MaxPeers caps the transport peers, joined, joining or lingering after
	// a boot (at most 125, the stock wire-id space 2..126). The game's
	// player limit is the owner's business (Events.Connected).
	MaxPeers int
	Logger   *slog.Logger
	// Query handles GameSpy datagrams; nil drops them.
	Query QueryHandler
	// LocalIP returns the host's IPv4 address as seen by the client at to:
	// the address in the host's shutdown notice (transport.md 10.4). nil
	// writes 0.0.0.0.
	LocalIP func(to netip.AddrPort) [4]byte

	// MaxPending caps the unverified peers (Verifier) of this host: beyond
	// it, the one waiting longest is forgotten to make room (default 64).
	MaxPending int
	// PendingPerAddr caps the unverified peers of one IP address
	// (default 16, a full stock game: players behind one NAT may all
	// connect at the same moment). At the cap, the oldest of that address
	// makes room once it has had AnswerWindow to answer; before that the
	// new connect waits for the client's next try.
	PendingPerAddr int
	// AnswerWindow is how long a connect reply is given to be answered
	// before its peer may be displaced by a newer connect from the same
	// address (default 2 s: a lost reply is sent again when the client
	// repeats its connect, about a second later).
	AnswerWindow time.Duration
	// VerifyTimeout forgets a peer that stays unverified this long
	// (default 10 s: a stock client repeats its connect about once a
	// second, and each repeat gets the reply again).
	VerifyTimeout time.Duration
	// StrangerRate and StrangerBurst limit the datagrams per second from
	// one address that is not a peer that the host looks at; StrangerTotal
	// limits them over all such addresses. The excess is dropped before
	// decryption. Zero means the defaults (DefaultStranger*), negative no
	// limit.
	StrangerRate, StrangerBurst, StrangerTotal float64
	// Answers bounds the bytes sent to strangers (refusals, GameSpy
	// replies); share one among the games of a process. nil gives this
	// host one of its own with the default budget.
	Answers *AnswerBudget
}

// HostStats counts datagrams the Host dropped or refused before they
// reached a peer.
type HostStats struct {
	Datagrams       uint64
	Queries         uint64
	Malformed       uint64 // too short, unparsable, or a bad peer id
	Strangers       uint64 // from an unknown address and not a connect request
	Refused         uint64 // connect requests refused (banned, password, no room)
	RefusalsDropped uint64 // refusals not sent: the budget for answering strangers ran out
	Replaced        uint64 // sessions replaced by a new connect (new nonce) from the same address
	BadIdentity     uint64 // identity messages refused (malformed, wrong id, too frequent)
	SendErrors      uint64
	StaleDisconnect uint64 // disconnects from already removed peers, re-ACKed
	// StrangersDropped counts datagrams from strangers over their budget,
	// dropped before decryption.
	StrangersDropped uint64
	Unverified       uint64 // peers forgotten because they never answered the connect reply
	// Displaced counts unverified peers forgotten to make room for a newer
	// connect (each told "server full"); Deferred, connects left
	// unanswered because their address's earlier ones were still expected
	// to answer (the client tries again).
	Displaced, Deferred uint64
	AnswersDropped      uint64 // answers to strangers not sent: the answer budget ran out
}

// Host is the server side of the transport: it owns the peers, assigns wire
// ids, answers connects, relays identities and leaves, and runs timers. It
// is a state machine driven by HandleDatagram, Tick and Flush from one
// goroutine.
type Host struct {
	cfg      HostConfig
	ev       Events
	verifier Verifier // ev, when it wants to hear of verification
	out      PacketWriter
	log      *slog.Logger
	peers    map[netip.AddrPort]*Peer
	list     []*Peer   // the peers in connect order, for the loops
	iter     [][]*Peer // scratch copies of list for loops that may change it
	byID     [256]*Peer
	cursor   int // next-fit wire id cursor (transport.md 2.2)
	pool     msgPool
	// Unverified peers, in total and per address.
	pending       int
	pendingByAddr map[netip.Addr]int
	strangers     *strangerLimiter
	refusals      tokenBucket
	shutdown      bool
	now           time.Time // of the datagram being handled
	// displacedLogAt throttles the log line of a displaced connect.
	displacedLogAt time.Time
	buf            [MaxDatagram]byte
	msgs           []Message
	Stats          HostStats
}

// NewHost returns a Host that reports to ev and sends through out.
func NewHost(cfg HostConfig, ev Events, out PacketWriter) *Host {
	if cfg.MaxPeers <= 0 || cfg.MaxPeers > maxWireID-minWireID+1 {
		cfg.MaxPeers = maxWireID - minWireID + 1
	}
	cfg.Transport = cfg.Transport.withDefaults()
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxPending <= 0 {
		cfg.MaxPending = 64
	}
	if cfg.PendingPerAddr <= 0 {
		cfg.PendingPerAddr = 16
	}
	if cfg.AnswerWindow <= 0 {
		cfg.AnswerWindow = 2 * time.Second
	}
	if cfg.VerifyTimeout <= 0 {
		cfg.VerifyTimeout = 10 * time.Second
	}
	if cfg.Answers == nil {
		cfg.Answers = NewAnswerBudget(0)
	}
	def := func(v, d float64) float64 {
		switch {
		case v == 0:
			return d
		case v < 0:
			return 1e12
		}
		return v
	}
	h := &Host{
		cfg: cfg, ev: ev, out: out, log: log.With("component", "net"),
		peers: make(map[netip.AddrPort]*Peer), cursor: minWireID,
		pendingByAddr: make(map[netip.Addr]int),
		strangers: newStrangerLimiter(def(cfg.StrangerRate, DefaultStrangerRate), def(cfg.StrangerBurst, DefaultStrangerBurst),
			def(cfg.StrangerTotal, DefaultStrangerTotal), DefaultStrangerAddresses),
		refusals: tokenBucket{rate: refusalRate, burst: refusalBurst},
	}
	h.verifier, _ = ev.(Verifier)
	return h
}

// SetWriter replaces the writer datagrams are sent through.
func (h *Host) SetWriter(out PacketWriter) { h.out = out }

// Peer returns the connected peer with wire id id, or nil (also for a
// peer that lingers after a boot).
func (h *Host) Peer(id byte) *Peer {
	if p := h.byID[id]; p != nil && !p.closing {
		return p
	}
	return nil
}

// NumPeers returns the number of connected peers, not counting those that
// linger after a boot or the shutdown notice.
func (h *Host) NumPeers() int {
	n := 0
	for _, p := range h.list {
		if !p.closing {
			n++
		}
	}
	return n
}

// Lingering returns the number of booted or shut-down peers still waiting
// for the ACK of their notice.
func (h *Host) Lingering() int { return len(h.peers) - h.NumPeers() }

// HandleDatagram processes one datagram received from addr. b is modified
// in place (decrypted) and not retained.
func (h *Host) HandleDatagram(now time.Time, from netip.AddrPort, b []byte) {
	h.Stats.Datagrams++
	h.now = now
	p := h.peers[from]
	if p == nil && !h.strangers.allow(now, from.Addr()) {
		h.Stats.StrangersDropped++
		return
	}
	if isQuery(b, p) {
		h.Stats.Queries++
		if h.cfg.Query != nil {
			h.cfg.Query(now, from, b, func(reply []byte) { h.answer(reply, from) })
		}
		return
	}
	if len(b) < HeaderSize {
		h.Stats.Malformed++
		return
	}
	alby.Decrypt(b)
	if p == nil {
		h.stranger(now, from, b)
		return
	}
	switch b[0] {
	case p.ID:
		if !p.verified {
			h.verify(p)
		}
	case PeerUnassigned:
		if h.reconnect(now, p, b) {
			return
		}
	default:
		h.Stats.Malformed++
		h.log.Debug("datagram with wrong peer id", "peer", p.ID, "addr", from, "byte0", b[0])
		return
	}
	if err := p.conn.Receive(now, b, &p.rx); err != nil {
		h.log.Debug("malformed datagram", "peer", p.ID, "addr", from, "err", err)
	}
	if p.closing {
		h.endLinger(now, p)
		return
	}
	h.finishLeaving(now, p)
}

// isQuery tells a plaintext GameSpy query from a game datagram by its
// first byte '\\' (transport.md 1). Next-fit ids reach 92 = '\\' too, so
// from the peer that has that id a datagram is a query only if its second
// byte is ASCII: a game datagram's is msg_count enciphered with the first
// keystream byte 0xD6, 0x80 or more for any count below 0x56.
func isQuery(b []byte, p *Peer) bool {
	if len(b) == 0 || b[0] != '\\' {
		return false
	}
	return p == nil || p.ID != '\\' || len(b) < 2 || b[1] < 0x80
}

// endLinger retires a booted or shut-down peer once everything sent to it
// is ACKed (its ACKs to us leave first) or its time is up.
func (h *Host) endLinger(now time.Time, p *Peer) {
	if p.conn.Queued() == 0 || !now.Before(p.closeBy) {
		h.flushPeer(now, p)
		h.retire(p)
	}
}

func (h *Host) deliver(p *Peer, typ byte, payload []byte, reliable bool) {
	if p.closing {
		// A booted or shut-down peer: only its ACKs matter now, and a 0x05
		// means it is gone and will ACK nothing more.
		if typ == TypeDisconnect {
			p.closeBy = h.now
		}
		return
	}
	switch typ {
	case TypeGame:
		if p.leaving == 0 {
			h.ev.Message(p, payload, reliable)
		}
	case TypeData:
		h.identity(p, payload)
	case TypeDisconnect:
		if p.leaving == 0 {
			p.leaving = LeftDisconnect
			p.setBye(payload)
		}
	default:
		// The keepalive (0x02) only refreshes the timeout, which Receive
		// did; connect retransmissions are duplicates and never get here;
		// 0x03 and 0x04 from a client carry nothing for the host.
	}
}

// Flush sends everything due to every peer.
func (h *Host) Flush(now time.Time) {
	list := h.snapshot()
	defer h.release(list)
	for _, p := range list {
		if h.peers[p.Addr] != p {
			continue // removed by an earlier step of this loop
		}
		h.flushPeer(now, p)
		if p.leaving == LeftOverflow && !p.closing {
			h.log.Warn("peer cannot keep up, dropping it", "peer", p.ID, "addr", p.Addr)
			h.drop(p, LeftOverflow)
		}
	}
}

// FlushPeer sends everything due to one peer now. The engine uses it to
// close a datagram before queueing messages that the stock host sends in a
// datagram of their own.
func (h *Host) FlushPeer(now time.Time, p *Peer) {
	if h.peers[p.Addr] == p {
		h.flushPeer(now, p)
	}
}

func (h *Host) flushPeer(now time.Time, p *Peer) {
	for i := 0; i < 1<<16; i++ {
		d := p.conn.Flush(now, h.buf[:0])
		if d == nil {
			return
		}
		h.writeGame(d, p.Addr)
	}
}

// writeGame enciphers a plaintext game datagram in place and sends it.
func (h *Host) writeGame(d []byte, to netip.AddrPort) {
	alby.Encrypt(d)
	h.write(d, to)
}

// snapshot returns a copy of the peer list to loop over while peers come
// and go; loops may nest (an event handler flushing), so copies are kept
// on a small stack and reused.
func (h *Host) snapshot() []*Peer {
	var s []*Peer
	if n := len(h.iter); n > 0 {
		s, h.iter = h.iter[n-1], h.iter[:n-1]
	}
	return append(s[:0], h.list...)
}

func (h *Host) release(s []*Peer) {
	clear(s)
	h.iter = append(h.iter, s[:0])
}

// answer sends b to a stranger if the answer budget allows.
func (h *Host) answer(b []byte, to netip.AddrPort) {
	if !h.cfg.Answers.Take(h.now, len(b)) {
		h.Stats.AnswersDropped++
		return
	}
	h.write(b, to)
}

func (h *Host) write(b []byte, to netip.AddrPort) {
	if h.out == nil {
		return
	}
	if _, err := h.out.WriteToUDPAddrPort(b, to); err != nil {
		h.Stats.SendErrors++
		h.log.Debug("send failed", "addr", to, "err", err)
	}
}

// Tick runs the transport timers: keepalives, reassembly expiry, peer
// timeouts, the end of lingering peers, then flushes retransmissions and
// ACK repeats.
func (h *Host) Tick(now time.Time) {
	h.now = now
	list := h.snapshot()
	defer h.release(list)
	for _, p := range list {
		if h.peers[p.Addr] != p {
			continue // removed by an earlier step of this loop
		}
		p.conn.Tick(now)
		if p.closing {
			h.endLinger(now, p)
			continue
		}
		if !p.verified && now.Sub(p.since) >= h.cfg.VerifyTimeout {
			h.log.Debug("connect never answered, forgetting the peer", "peer", p.ID, "addr", p.Addr)
			h.forget(p)
			continue
		}
		if err := p.conn.Check(now); err != nil {
			h.log.Info("peer timed out", "peer", p.ID, "addr", p.Addr, "name", p.Name, "err", err)
			h.drop(p, LeftTimeout)
		}
	}
	h.Flush(now)
}
