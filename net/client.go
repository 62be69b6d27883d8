package net

import (
	"errors"
	"time"
)

// ClientEvents is what a Client reports to its owner.
type ClientEvents interface {
	// Accepted reports the wire id the host assigned in its connect reply.
	Accepted(id byte)
	// Message delivers one game-layer message; payload is valid only
	// during the call.
	Message(payload []byte, reliable bool)
	// Booted reports a boot notice from the host naming us (or 0xFF).
	Booted(reason BootReason)
}

// ClientState is where a Client is in its connection.
type ClientState int

// Client states.
const (
	ClientConnecting ClientState = iota
	ClientConnected
	ClientClosed
)

// connectTail is the 6 bytes a stock client sends after its IPv4 address in
// the connect request; their meaning is not established (transport.md 14.1).
var connectTail = [6]byte{0x5F, 0x0A, 0x00, 0x00, 0x00, 0x00}

// Client is the client side of the transport, used by our headless test
// client: connect request, identity message, then game traffic. Like Conn it
// is a state machine without sockets.
type Client struct {
	conn  *Conn
	ev    ClientEvents
	ip    [4]byte
	name  string
	state ClientState
}

// NewClient returns a Client that will connect announcing ip and name.
func NewClient(cfg Config, ev ClientEvents, ip [4]byte, name string, now time.Time) *Client {
	return &Client{conn: NewConn(cfg, PeerUnassigned, now), ev: ev, ip: ip, name: name}
}

// Conn exposes the underlying reliable connection (for stats and tests).
func (c *Client) Conn() *Conn { return c.conn }

// ID returns the wire id the host assigned, or 0xFF before that.
func (c *Client) ID() byte { return c.conn.LocalID }

// State returns the connection state.
func (c *Client) State() ClientState { return c.state }

// Connect queues the connect request (transport type 0x03, low seq 0).
func (c *Client) Connect() error {
	payload := append(c.ip[:], connectTail[:]...)
	return c.conn.SendControl(TypeConnect, payload)
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
	c.state = ClientClosed
	return c.conn.SendControl(TypeDisconnect, append([]byte{c.conn.LocalID}, c.ip[:]...))
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
		id := AppendIdentity(nil, Identity{PeerID: payload[0], IP: c.ip, Name: c.name})
		_ = c.conn.SendControl(TypeData, id)
		c.conn.SetKeepalive(id)
		c.ev.Accepted(payload[0])
	case TypeBoot:
		if len(payload) < 2 {
			return
		}
		if payload[1] == PeerUnassigned || payload[1] == c.conn.LocalID {
			c.state = ClientClosed
			c.ev.Booted(BootReason(payload[0]))
		}
	}
}

// Flush builds the next datagram to send (plaintext), or nil.
func (c *Client) Flush(now time.Time, out []byte) []byte { return c.conn.Flush(now, out) }

// Tick runs the keepalive and expiry timers and reports a dead host.
func (c *Client) Tick(now time.Time) error {
	c.conn.Tick(now)
	return c.conn.Check(now)
}
