package net

import (
	"errors"
	"math/rand/v2"
	"time"
)

// ClientEvents is what a Client reports to its owner.
type ClientEvents interface {
	// Accepted reports the wire id the host assigned in its connect reply.
	Accepted(id byte)
	// Message delivers one game-layer message; payload is valid only
	// during the call.
	Message(payload []byte, reliable bool)
	// Booted reports a boot notice naming us or 0xFF (a refused connect):
	// the session is over.
	Booted(reason BootReason)
	// Disconnected reports a 0x05 naming the host or us: the host shut the
	// session down (transport.md 10.4).
	Disconnected()
	// Peer reports another peer's identity: new, or renamed.
	Peer(id byte, name string)
	// PeerGone reports that another peer left (its 0x05 relayed by the
	// host, or a boot naming it).
	PeerGone(id byte)
}

// ClientState is where a Client is in its connection.
type ClientState int

// Client states.
const (
	ClientConnecting ClientState = iota
	ClientConnected
	ClientClosed
)

// ClientOptions is what a client announces.
type ClientOptions struct {
	// IP is the client's own IPv4 address as it sees it.
	IP   [4]byte
	Name string
	// Password is sent in the connect request (UTF-16LE).
	Password string
	// Nonce identifies the session in the connect request; 0 draws one as
	// the stock client does (1..32767, transport.md 4.5).
	Nonce uint32
}

// Client is the client side of the transport, used by our headless test
// client: connect request, identity message, keepalive, then game traffic.
// Like Conn it is a state machine without sockets.
type Client struct {
	conn  *Conn
	ev    ClientEvents
	opts  ClientOptions
	state ClientState
	peers map[byte]string
}

// NewClient returns a Client that will connect announcing opts.
func NewClient(cfg Config, ev ClientEvents, opts ClientOptions, now time.Time) *Client {
	if opts.Nonce == 0 {
		opts.Nonce = 1 + rand.Uint32N(32767)
	}
	return &Client{conn: NewConn(cfg, PeerUnassigned, now), ev: ev, opts: opts, peers: make(map[byte]string)}
}

// Conn exposes the underlying reliable connection (for stats and tests).
func (c *Client) Conn() *Conn { return c.conn }

// ID returns the wire id the host assigned, or 0xFF before that.
func (c *Client) ID() byte { return c.conn.LocalID }

// Name returns the name the client announces.
func (c *Client) Name() string { return c.opts.Name }

// Nonce returns the session nonce of the connect request.
func (c *Client) Nonce() uint32 { return c.opts.Nonce }

// State returns the connection state.
func (c *Client) State() ClientState { return c.state }

// Peers returns the other peers the host told us about, by wire id.
func (c *Client) Peers() map[byte]string {
	out := make(map[byte]string, len(c.peers))
	for id, n := range c.peers {
		out[id] = n
	}
	return out
}

// Connect queues the connect request (transport type 0x03, low seq 0).
func (c *Client) Connect() error {
	return c.conn.SendControl(TypeConnect, AppendConnect(nil, c.opts.IP, c.opts.Nonce, c.opts.Password))
}

// SetName changes the announced name; once connected the identity is sent
// again, as the stock client does after a Settings rename (handshake.md
// 2.5).
func (c *Client) SetName(name string) error {
	c.opts.Name = name
	if c.state != ClientConnected {
		return nil
	}
	return c.sendIdentity()
}

func (c *Client) sendIdentity() error {
	id := AppendIdentity(nil, Identity{PeerID: c.conn.LocalID, IP: c.opts.IP, Name: c.opts.Name})
	return c.conn.SendControl(TypeData, id)
}

// Send queues a game message to the host.
func (c *Client) Send(payload []byte, reliable bool) error {
	if c.state != ClientConnected {
		return errors.New("not connected")
	}
	return c.conn.Send(payload, reliable)
}

// Disconnect queues a graceful disconnect (type 0x05: peer id + IPv4).
func (c *Client) Disconnect() error {
	if c.state == ClientClosed {
		return nil
	}
	c.close()
	return c.conn.SendControl(TypeDisconnect, append([]byte{c.conn.LocalID}, c.opts.IP[:]...))
}

func (c *Client) close() {
	c.state = ClientClosed
	c.conn.SetKeepalive(false)
}

// Receive processes one decrypted datagram from the host.
func (c *Client) Receive(now time.Time, b []byte) error {
	if len(b) >= 1 && b[0] != PeerHost {
		c.conn.Stats.Malformed++
		return ErrBadPeerID
	}
	return c.conn.Receive(now, b, c)
}

// Deliver implements Receiver.
func (c *Client) Deliver(typ byte, payload []byte, reliable bool) {
	switch typ {
	case TypeGame:
		c.ev.Message(payload, reliable)
	case TypeConnect:
		if c.state != ClientConnecting || len(payload) < 1 {
			return
		}
		c.conn.LocalID = payload[0]
		c.state = ClientConnected
		c.conn.SetKeepalive(true)
		_ = c.sendIdentity()
		c.ev.Accepted(payload[0])
	case TypeData:
		id, err := ParseIdentity(payload)
		if err != nil || id.PeerID == c.conn.LocalID || id.PeerID == PeerHost {
			return // our own identity relayed back, or nothing we can use
		}
		c.peers[id.PeerID] = id.Name
		c.ev.Peer(id.PeerID, id.Name)
	case TypeBoot:
		if len(payload) < 2 {
			return
		}
		if payload[1] == PeerUnassigned || payload[1] == c.conn.LocalID {
			if c.state != ClientClosed {
				c.close()
				c.ev.Booted(BootReason(payload[0]))
			}
			return
		}
		c.peerGone(payload[1])
	case TypeDisconnect:
		if len(payload) < 1 {
			return
		}
		if payload[0] == PeerHost || payload[0] == c.conn.LocalID {
			if c.state != ClientClosed {
				c.close()
				c.ev.Disconnected()
			}
			return
		}
		c.peerGone(payload[0])
	}
}

func (c *Client) peerGone(id byte) {
	if _, ok := c.peers[id]; ok {
		delete(c.peers, id)
		c.ev.PeerGone(id)
	}
}

// Flush builds the next datagram to send (plaintext), or nil.
func (c *Client) Flush(now time.Time, out []byte) []byte { return c.conn.Flush(now, out) }

// Tick runs the keepalive and expiry timers and reports a dead host.
func (c *Client) Tick(now time.Time) error {
	c.conn.Tick(now)
	return c.conn.Check(now)
}
