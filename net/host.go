package net

import (
	"errors"
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
	BootTimedOut BootReason = 1
	BootRefused  BootReason = 2 // connection refused (password / bandwidth)
	BootFull     BootReason = 3 // server full
	BootKicked   BootReason = 4 // kicked by the host (also used for anti-cheat)
)

// LeaveReason says why a peer left.
type LeaveReason int

// Leave reasons reported by Host.
const (
	LeftDisconnect LeaveReason = iota + 1 // the peer sent a graceful disconnect (0x05)
	LeftTimeout                           // 45 s of silence, or a reliable message unACKed for 45 s
	LeftBooted                            // we booted it (Host.Boot)
	LeftOverflow                          // its send queue overflowed: it cannot keep up
	LeftShutdown                          // the host closed
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
	}
	return fmt.Sprintf("LeaveReason(%d)", int(r))
}

// Events is what a Host reports to its owner. All calls happen on the
// goroutine that calls the Host's methods.
type Events interface {
	// Admit is asked for every new connect request. Return BootNone to
	// accept, or the boot reason to refuse with (BootFull, BootRefused).
	Admit(addr netip.AddrPort) BootReason
	// Connected follows an accepted connect. Messages sent to the peer
	// during this call leave in the same datagram as the connect reply, as
	// the stock host batches the first checksum request (transport.md 8).
	Connected(p *Peer)
	// Identity reports the peer's identity message (its player name).
	Identity(p *Peer, id Identity)
	// Message delivers one game-layer message (transport type 0x32).
	// payload is valid only during the call.
	Message(p *Peer, payload []byte, reliable bool)
	// Left reports that the peer is gone; it is no longer in the Host.
	Left(p *Peer, reason LeaveReason)
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
	// MaxPeers caps connected peers, joined or not (wire ids 2..254). The
	// game's own player limit is enforced through Events.Admit.
	MaxPeers int
	Logger   *slog.Logger
	// Query handles GameSpy datagrams; nil drops them.
	Query QueryHandler
}

// HostStats counts datagrams the Host dropped before they reached a peer.
type HostStats struct {
	Datagrams       uint64
	Queries         uint64
	Malformed       uint64 // too short, unparsable, or a bad peer id
	Strangers       uint64 // from an unknown address and not a connect request
	Refused         uint64 // connect requests refused (full, refused)
	SendErrors      uint64
	StaleDisconnect uint64 // disconnects from already removed peers, re-ACKed
}

// Peer is one connected remote endpoint.
type Peer struct {
	ID       byte
	Addr     netip.AddrPort
	Name     string // from the identity message; "" until it arrives
	Identity []byte // the raw identity payload, echoed as keepalive

	host    *Host
	conn    *Conn
	rx      peerRx
	leaving LeaveReason
}

type peerRx struct{ p *Peer }

func (r peerRx) Deliver(typ byte, payload []byte, reliable bool) {
	r.p.host.deliver(r.p, typ, payload, reliable)
}

// Send queues a game message to the peer. A peer whose queue overflows is
// removed at the next Flush or Tick (it cannot keep up; nobody else waits).
func (p *Peer) Send(payload []byte, reliable bool) error {
	if p.leaving != 0 {
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

// Queued returns the number of messages waiting to be sent or ACKed.
func (p *Peer) Queued() int { return p.conn.Queued() }

// Stats returns the peer's transport counters.
func (p *Peer) Stats() Stats { return p.conn.Stats }

// Host is the server side of the transport: it owns the peers, assigns wire
// ids, answers connects, routes datagrams and runs timers. It is a state
// machine driven by HandleDatagram, Tick and Flush from one goroutine.
type Host struct {
	cfg   HostConfig
	ev    Events
	out   PacketWriter
	log   *slog.Logger
	peers map[netip.AddrPort]*Peer
	byID  [256]*Peer
	buf   [MaxDatagram]byte
	msgs  []Message
	Stats HostStats
}

// NewHost returns a Host that reports to ev and sends through out.
func NewHost(cfg HostConfig, ev Events, out PacketWriter) *Host {
	if cfg.MaxPeers <= 0 || cfg.MaxPeers > 253 {
		cfg.MaxPeers = 253
	}
	cfg.Transport = cfg.Transport.withDefaults()
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Host{cfg: cfg, ev: ev, out: out, log: log.With("component", "net"), peers: make(map[netip.AddrPort]*Peer)}
}

// SetWriter replaces the writer datagrams are sent through.
func (h *Host) SetWriter(out PacketWriter) { h.out = out }

// Peer returns the peer with wire id id, or nil.
func (h *Host) Peer(id byte) *Peer { return h.byID[id] }

// NumPeers returns the number of connected peers.
func (h *Host) NumPeers() int { return len(h.peers) }

// HandleDatagram processes one datagram received from addr. b is modified
// in place (decrypted) and not retained.
func (h *Host) HandleDatagram(now time.Time, from netip.AddrPort, b []byte) {
	h.Stats.Datagrams++
	if len(b) > 0 && b[0] == '\\' {
		h.Stats.Queries++
		if h.cfg.Query != nil {
			h.cfg.Query(now, from, b, func(reply []byte) { h.write(reply, from) })
		}
		return
	}
	if len(b) < HeaderSize {
		h.Stats.Malformed++
		return
	}
	alby.Decrypt(b)
	p := h.peers[from]
	if p == nil {
		h.stranger(now, from, b)
		return
	}
	if b[0] != p.ID && b[0] != PeerUnassigned {
		h.Stats.Malformed++
		h.log.Debug("datagram with wrong peer id", "peer", p.ID, "addr", from, "byte0", b[0])
		return
	}
	if err := p.conn.Receive(now, b, &p.rx); err != nil {
		h.log.Debug("malformed datagram", "peer", p.ID, "addr", from, "err", err)
	}
	h.finishLeaving(now, p)
}

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
				h.writeGame(d, from)
				return
			}
		}
		h.Stats.Strangers++
		if err != nil {
			h.Stats.Malformed++
		}
		return
	}
	connect := msgs[0]
	if reason := h.admit(from); reason != BootNone {
		h.Stats.Refused++
		h.log.Info("connection refused", "addr", from, "reason", reason)
		// ACK the request and send the boot notice: the stock receiver of
		// a boot naming peer 0xFF ends its session.
		d := append(h.buf[:0], PeerHost, 2)
		ack := Message{Type: TypeAck, Seq: connect.Seq, Low: true}
		d = AppendMessage(d, &ack)
		boot := Message{Type: TypeBoot, Reliable: true, Priority: true, HasSeq: true, Payload: []byte{byte(reason), PeerUnassigned}}
		d = AppendMessage(d, &boot)
		h.writeGame(d, from)
		return
	}
	id := h.freeID()
	p := &Peer{ID: id, Addr: from, host: h, conn: NewConn(h.cfg.Transport, PeerHost, now)}
	p.rx = peerRx{p}
	h.peers[from] = p
	h.byID[id] = p
	h.log.Debug("peer connected", "peer", id, "addr", from)
	_ = p.conn.SendControl(TypeConnect, []byte{id})
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

func (h *Host) admit(from netip.AddrPort) BootReason {
	if len(h.peers) >= h.cfg.MaxPeers {
		return BootFull
	}
	return h.ev.Admit(from)
}

// freeID returns the lowest free wire id >= 2 (transport.md 14.3).
func (h *Host) freeID() byte {
	for id := 2; id < 255; id++ {
		if h.byID[id] == nil {
			return byte(id)
		}
	}
	return 0 // unreachable: MaxPeers <= 253
}

func (h *Host) deliver(p *Peer, typ byte, payload []byte, reliable bool) {
	switch typ {
	case TypeGame:
		if p.leaving == 0 {
			h.ev.Message(p, payload, reliable)
		}
	case TypeData:
		if p.Identity != nil {
			return // the identity is echoed once; later copies need no answer
		}
		id, err := ParseIdentity(payload)
		if err != nil {
			h.log.Debug("bad identity message", "peer", p.ID, "err", err)
			return
		}
		// Echo the client's identity unchanged (transport.md 10.2) and
		// reuse it as the idle keepalive (10.3).
		p.Identity = append([]byte(nil), payload...)
		p.Name = id.Name
		p.conn.SetKeepalive(p.Identity)
		_ = p.conn.SendControl(TypeData, p.Identity)
		h.ev.Identity(p, id)
	case TypeDisconnect:
		if p.leaving == 0 {
			p.leaving = LeftDisconnect
		}
	default:
		// Connect retransmissions are duplicates and never get here; 0x02,
		// 0x03 and 0x04 from a client carry nothing for the host.
	}
}

// finishLeaving removes a peer that asked to leave during Receive, after
// sending what is due to it (the ACK of its disconnect).
func (h *Host) finishLeaving(now time.Time, p *Peer) {
	if p.leaving == 0 {
		return
	}
	h.flushPeer(now, p)
	h.remove(p, p.leaving)
}

func (h *Host) remove(p *Peer, reason LeaveReason) {
	if h.peers[p.Addr] != p {
		return
	}
	delete(h.peers, p.Addr)
	h.byID[p.ID] = nil
	p.leaving = reason
	h.log.Debug("peer removed", "peer", p.ID, "addr", p.Addr, "reason", reason)
	h.ev.Left(p, reason)
}

// Boot sends a boot notice to p with reason and removes it.
func (h *Host) Boot(now time.Time, p *Peer, reason BootReason) {
	if h.peers[p.Addr] != p {
		return
	}
	_ = p.conn.SendControl(TypeBoot, []byte{byte(reason), p.ID})
	h.flushPeer(now, p)
	h.remove(p, LeftBooted)
}

// Flush sends everything due to every peer.
func (h *Host) Flush(now time.Time) {
	for _, p := range h.peers {
		h.flushPeer(now, p)
		if p.leaving == LeftOverflow {
			h.log.Warn("peer cannot keep up, dropping it", "peer", p.ID, "addr", p.Addr)
			h.remove(p, LeftOverflow)
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
// timeouts, then flushes retransmissions and ACK repeats.
func (h *Host) Tick(now time.Time) {
	for _, p := range h.peers {
		p.conn.Tick(now)
		if err := p.conn.Check(now); err != nil {
			h.log.Info("peer timed out", "peer", p.ID, "addr", p.Addr, "name", p.Name, "err", err)
			h.remove(p, LeftTimeout)
			// The stock host tells the remaining peers with a boot notice,
			// reason 1, naming the lost peer (transport.md 10.4).
			for _, o := range h.peers {
				_ = o.conn.SendControl(TypeBoot, []byte{byte(BootTimedOut), p.ID})
			}
		}
	}
	h.Flush(now)
}

// Close tells every peer the session is over and removes them all. The
// stock bytes for a host shutting down were never captured
// (transport.md 14.5); a boot notice naming the receiver itself is what the
// stock client reads as "the host ended this session for you", and reason 1
// (connection lost) is the most neutral stock text.
func (h *Host) Close(now time.Time) {
	for _, p := range h.peers {
		_ = p.conn.SendControl(TypeBoot, []byte{byte(BootTimedOut), p.ID})
		h.flushPeer(now, p)
		h.remove(p, LeftShutdown)
	}
}
