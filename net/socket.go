package net

import (
	"errors"
	"fmt"
	stdnet "net"
	"net/netip"
	"sync"
	"sync/atomic"
)

// MaxPacket is the largest datagram the Socket hands upward. Stock peers
// never send more than 512 bytes and GameSpy queries are cut at 255; longer
// datagrams are counted and dropped.
const MaxPacket = 1500

// Packet is one received datagram. Return it with Socket.Release after use.
type Packet struct {
	Addr netip.AddrPort
	N    int
	Buf  [MaxPacket]byte
}

// Data returns the datagram bytes.
func (p *Packet) Data() []byte { return p.Buf[:p.N] }

// SocketStats counts what the reader goroutine dropped.
type SocketStats struct {
	Oversize atomic.Uint64 // datagrams longer than MaxPacket
	Overflow atomic.Uint64 // datagrams dropped because the consumer fell behind
}

// Socket is the thin UDP layer: one reader goroutine copies datagrams into
// pooled Packets and hands them over a channel to the goroutine that owns
// the Host; sends go straight to the socket, which is safe from any
// goroutine.
type Socket struct {
	conn  *stdnet.UDPConn
	in    chan *Packet
	pool  sync.Pool
	done  chan struct{}
	once  sync.Once
	Stats SocketStats
}

// Listen opens a UDP socket on addr ("host:port"; port 0 picks one) and
// starts its reader. queue is the capacity of the inbound channel.
func Listen(addr string, queue int) (*Socket, error) {
	ua, err := stdnet.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("resolving %q: %w", addr, err)
	}
	c, err := stdnet.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("listening on %q: %w", addr, err)
	}
	return NewSocket(c, queue), nil
}

// NewSocket wraps an open UDP connection and starts its reader.
func NewSocket(c *stdnet.UDPConn, queue int) *Socket {
	if queue <= 0 {
		queue = 1024
	}
	_ = c.SetReadBuffer(1 << 20)
	_ = c.SetWriteBuffer(1 << 20)
	s := &Socket{conn: c, in: make(chan *Packet, queue), done: make(chan struct{})}
	s.pool.New = func() any { return new(Packet) }
	go s.read()
	return s
}

func (s *Socket) read() {
	defer close(s.in)
	var scratch [64 << 10]byte
	for {
		n, addr, err := s.conn.ReadFromUDPAddrPort(scratch[:])
		if err != nil {
			if errors.Is(err, stdnet.ErrClosed) {
				return
			}
			select {
			case <-s.done:
				return
			default:
			}
			continue // ICMP errors surface here on some systems; keep reading
		}
		if n > MaxPacket {
			s.Stats.Oversize.Add(1)
			continue
		}
		p := s.pool.Get().(*Packet)
		p.Addr = netip.AddrPortFrom(addr.Addr().Unmap(), addr.Port())
		p.N = copy(p.Buf[:], scratch[:n])
		select {
		case s.in <- p:
		default:
			s.Stats.Overflow.Add(1)
			s.pool.Put(p)
		}
	}
}

// Packets returns the inbound channel; it is closed when the socket closes.
func (s *Socket) Packets() <-chan *Packet { return s.in }

// Release returns a Packet to the pool.
func (s *Socket) Release(p *Packet) { s.pool.Put(p) }

// WriteToUDPAddrPort sends b to addr (it implements PacketWriter).
func (s *Socket) WriteToUDPAddrPort(b []byte, addr netip.AddrPort) (int, error) {
	return s.conn.WriteToUDPAddrPort(b, addr)
}

// LocalAddr returns the bound address.
func (s *Socket) LocalAddr() netip.AddrPort {
	return s.conn.LocalAddr().(*stdnet.UDPAddr).AddrPort()
}

// Close stops the reader and closes the socket.
func (s *Socket) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		err = s.conn.Close()
	})
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
