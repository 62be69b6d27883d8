package net

import (
	"errors"
	"fmt"
	stdnet "net"
	"net/netip"
	"sync/atomic"
	"time"
)

// MaxPacket is the largest datagram the Socket hands upward. Stock peers
// never send more than 512 bytes and GameSpy queries are cut at 255; longer
// datagrams are counted and dropped.
const MaxPacket = 1500

// Batch sizes: datagrams taken from the kernel in one call, and queued for
// sending before a write call is forced.
const (
	readBatch  = 32
	writeBatch = 64
)

// Packet is one received datagram. Data is valid until the next Receive.
type Packet struct {
	Addr netip.AddrPort
	Data []byte
	// Arrived is when the kernel queued the datagram on the socket
	// (Linux); zero where the platform does not say.
	Arrived time.Time
}

// SocketStats counts what the socket did and dropped; readable from any
// goroutine.
type SocketStats struct {
	Oversize   atomic.Uint64 // datagrams longer than MaxPacket, dropped
	Reads      atomic.Uint64 // read calls that returned datagrams
	Writes     atomic.Uint64 // write calls
	Sent       atomic.Uint64 // datagrams sent
	SendErrors atomic.Uint64 // datagrams the kernel refused
}

// Socket is a UDP socket read and written in batches (recvmmsg and
// sendmmsg on Linux, one datagram per call elsewhere) by the one goroutine
// that owns it: Receive blocks until datagrams, a deadline or a Wake; sends
// are queued and leave together at Flush. There is no reader goroutine and
// no channel between the kernel and the game: a game's loop reads its own
// socket, so nothing is copied or handed over per datagram. Wake and
// Close are safe from any goroutine; everything else belongs to the owner.
type Socket struct {
	conn  *stdnet.UDPConn
	io    batchIO
	wait  *waiter // Linux: the epoll set Receive sleeps in; nil: read deadlines
	woken atomic.Bool
	pkts  []Packet
	// The send queue: datagrams copied into one buffer, with their
	// destinations.
	wbuf  []byte
	wlen  []int
	wto   []netip.AddrPort
	Stats SocketStats
}

// SocketOptions configures Listen.
type SocketOptions struct {
	// ReadBuffer and WriteBuffer size the kernel's buffers (default 4 MiB
	// each; the kernel caps them at net.core.rmem_max / wmem_max).
	ReadBuffer, WriteBuffer int
}

// Listen opens a UDP socket on addr ("host:port"; port 0 picks one).
func Listen(addr string, opts SocketOptions) (*Socket, error) {
	ua, err := stdnet.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("resolving %q: %w", addr, err)
	}
	c, err := stdnet.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("listening on %q: %w", addr, err)
	}
	s, err := NewSocket(c, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

// NewSocket takes over an open UDP connection.
func NewSocket(c *stdnet.UDPConn, opts SocketOptions) (*Socket, error) {
	if opts.ReadBuffer <= 0 {
		opts.ReadBuffer = 4 << 20
	}
	if opts.WriteBuffer <= 0 {
		opts.WriteBuffer = 4 << 20
	}
	_ = c.SetReadBuffer(opts.ReadBuffer)
	_ = c.SetWriteBuffer(opts.WriteBuffer)
	s := &Socket{conn: c}
	if err := s.io.init(c); err != nil {
		return nil, fmt.Errorf("socket: %w", err)
	}
	// Without the waiter (not Linux, or no epoll/timerfd/eventfd left)
	// Receive waits with read deadlines, as well but at more wake-ups.
	s.wait, _ = newWaiter(c)
	return s, nil
}

// ErrSocketClosed is returned by Receive once the socket is closed.
var ErrSocketClosed = stdnet.ErrClosed

// Receive waits for datagrams until deadline (the zero time: no deadline)
// and returns them; they stay valid until the next Receive. It returns no
// datagrams and no error at the deadline or after a Wake, and
// ErrSocketClosed once the socket is closed.
func (s *Socket) Receive(deadline time.Time) ([]Packet, error) {
	if s.wait != nil {
		return s.receiveWait(deadline)
	}
	if err := s.conn.SetReadDeadline(deadline); err != nil {
		return nil, ErrSocketClosed
	}
	// A Wake that came before the deadline was set is seen here; one that
	// comes after moves the deadline into the past and ends the read.
	if s.woken.Swap(false) {
		return nil, nil
	}
	for {
		pkts, err := s.io.read(s.conn, s.pkts[:0], &s.Stats)
		s.pkts = pkts
		if err != nil {
			if errors.Is(err, stdnet.ErrClosed) {
				return nil, ErrSocketClosed
			}
			var ne stdnet.Error
			if errors.As(err, &ne) && ne.Timeout() {
				s.woken.Store(false)
				return nil, nil
			}
			// ICMP errors surface here on some systems; keep reading.
			continue
		}
		if len(pkts) > 0 {
			s.Stats.Reads.Add(1)
			return pkts, nil
		}
		// Only oversize datagrams: read on.
	}
}

// Wake makes a Receive that is waiting (or the next one) return at once.
// Safe from any goroutine.
func (s *Socket) Wake() {
	s.woken.Store(true)
	if s.wait != nil {
		s.wait.poke()
		return
	}
	_ = s.conn.SetReadDeadline(time.Unix(1, 0))
}

// WriteToUDPAddrPort queues b for addr; it leaves at the next Flush (or
// at once when the queue is full). It implements PacketWriter for the
// owner goroutine.
func (s *Socket) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	if len(b) > MaxPacket {
		return 0, fmt.Errorf("datagram of %d bytes: %w", len(b), ErrTooLarge)
	}
	if len(s.wlen) == writeBatch {
		if err := s.Flush(); err != nil {
			return 0, err
		}
	}
	if s.wbuf == nil {
		s.wbuf = make([]byte, 0, writeBatch*MaxDatagram)
	}
	s.wbuf = append(s.wbuf, b...)
	s.wlen = append(s.wlen, len(b))
	s.wto = append(s.wto, addr)
	return len(b), nil
}

// Flush sends every queued datagram. A datagram the kernel refuses is
// counted and skipped; the error of the last such is returned.
func (s *Socket) Flush() error {
	if len(s.wlen) == 0 {
		return nil
	}
	err := s.io.write(s.conn, s.wbuf, s.wlen, s.wto, &s.Stats)
	s.wbuf, s.wlen, s.wto = s.wbuf[:0], s.wlen[:0], s.wto[:0]
	return err
}

// LocalAddr returns the bound address.
func (s *Socket) LocalAddr() netip.AddrPort {
	return s.conn.LocalAddr().(*stdnet.UDPAddr).AddrPort()
}

// Close closes the socket; a waiting Receive returns ErrSocketClosed.
func (s *Socket) Close() error {
	err := s.conn.Close()
	if s.wait != nil {
		s.wait.close()
	}
	return err
}

// LocalIPv4For returns the IPv4 address a client at to reaches this host
// on: the bound address when the socket is bound to one, else the source
// address the system would use towards to (found by routing a UDP socket
// that sends nothing), else 0.0.0.0. The host writes it in its shutdown
// notice (transport.md 10.4).
func (s *Socket) LocalIPv4For(to netip.AddrPort) [4]byte {
	if a := s.LocalAddr().Addr().Unmap(); a.Is4() && !a.IsUnspecified() {
		return a.As4()
	}
	c, err := stdnet.DialUDP("udp4", nil, stdnet.UDPAddrFromAddrPort(to))
	if err != nil {
		return [4]byte{}
	}
	defer c.Close()
	if a := c.LocalAddr().(*stdnet.UDPAddr).AddrPort().Addr().Unmap(); a.Is4() {
		return a.As4()
	}
	return [4]byte{}
}
