package lossy

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Proxy.
type Options struct {
	// Upstream is the server the proxy forwards to.
	Upstream netip.AddrPort
	// Listen is where clients reach the proxy (default 127.0.0.1:0).
	Listen string
	// Up impairs client-to-server datagrams, Down server-to-client ones.
	Up, Down Config
	// Seed makes the impairment reproducible (each client session derives
	// its own seeds from it).
	Seed uint64
	// MaxHold is how long a datagram held back for reordering waits for a
	// later one to overtake it before it leaves anyway (default 20 ms).
	MaxHold time.Duration
	// Handled, if set, is called after each datagram has been through its
	// filter (tests synchronise on it); up tells the direction.
	Handled func(up bool)
}

// Proxy forwards UDP datagrams between clients and one server, impaired.
// Every client address gets its own upstream socket, so the server tells
// the clients apart as it would without the proxy.
type Proxy struct {
	opts       Options
	ln         *net.UDPConn
	blackout   atomic.Bool // down
	blackoutUp atomic.Bool
	done       chan struct{}
	wg         sync.WaitGroup

	mu       sync.Mutex
	up, down Config
	sessions map[netip.AddrPort]*session
	closed   bool
}

type session struct {
	p      *Proxy
	client netip.AddrPort
	conn   *net.UDPConn // connected to the upstream

	upMu   sync.Mutex
	upF    *Filter
	downMu sync.Mutex
	downF  *Filter
}

// New starts a proxy towards opts.Upstream.
func New(opts Options) (*Proxy, error) {
	if !opts.Upstream.IsValid() {
		return nil, errors.New("lossy: no upstream address")
	}
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:0"
	}
	if opts.MaxHold <= 0 {
		opts.MaxHold = 20 * time.Millisecond
	}
	ua, err := net.ResolveUDPAddr("udp", opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("lossy: listen address %q: %w", opts.Listen, err)
	}
	ln, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("lossy: listening on %q: %w", opts.Listen, err)
	}
	_ = ln.SetReadBuffer(4 << 20)
	_ = ln.SetWriteBuffer(4 << 20)
	p := &Proxy{opts: opts, ln: ln, done: make(chan struct{}), up: opts.Up, down: opts.Down,
		sessions: make(map[netip.AddrPort]*session)}
	p.wg.Add(1)
	go p.readClients()
	return p, nil
}

// Addr is the address clients send to.
func (p *Proxy) Addr() netip.AddrPort {
	return p.ln.LocalAddr().(*net.UDPAddr).AddrPort()
}

// SetBlackout drops every datagram in both directions while on.
func (p *Proxy) SetBlackout(on bool) { p.SetBlackouts(on, on) }

// SetBlackouts drops every datagram of the client-to-server (up) and the
// server-to-client (down) direction while on.
func (p *Proxy) SetBlackouts(up, down bool) {
	p.blackoutUp.Store(up)
	p.blackout.Store(down)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.eachFilter(func(f *Filter) { f.SetBlackout(up) }, func(f *Filter) { f.SetBlackout(down) })
}

// Set changes the impairment of both directions for every session.
func (p *Proxy) Set(up, down Config) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up, p.down = up, down
	p.eachFilter(func(f *Filter) { f.Set(up) }, func(f *Filter) { f.Set(down) })
}

// eachFilter applies up and down to every session's filters, each under
// its lock; p.mu is held by the caller.
func (p *Proxy) eachFilter(up, down func(*Filter)) {
	for _, s := range p.sessions {
		s.upMu.Lock()
		up(s.upF)
		s.upMu.Unlock()
		s.downMu.Lock()
		down(s.downF)
		s.downMu.Unlock()
	}
}

// Stats sums both directions of every session.
func (p *Proxy) Stats() (up, down Stats) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.sessions {
		s.upMu.Lock()
		add(&up, s.upF.Stats)
		s.upMu.Unlock()
		s.downMu.Lock()
		add(&down, s.downF.Stats)
		s.downMu.Unlock()
	}
	return up, down
}

func add(a *Stats, b Stats) {
	a.In += b.In
	a.Out += b.Out
	a.Lost += b.Lost
	a.Duplicated += b.Duplicated
	a.Reordered += b.Reordered
	a.Blackouts += b.Blackouts
}

// Close stops the proxy and closes every socket.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	close(p.done)
	err := p.ln.Close()
	for _, s := range p.sessions {
		s.conn.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}

func (p *Proxy) session(client netip.AddrPort) (*session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.sessions[client]; s != nil {
		return s, nil
	}
	if p.closed {
		return nil, net.ErrClosed
	}
	c, err := net.DialUDP("udp", nil, net.UDPAddrFromAddrPort(p.opts.Upstream))
	if err != nil {
		return nil, err
	}
	_ = c.SetReadBuffer(1 << 20)
	n := uint64(len(p.sessions))
	s := &session{p: p, client: client, conn: c,
		upF:   NewFilter(p.up, p.opts.Seed+2*n+1),
		downF: NewFilter(p.down, p.opts.Seed+2*n+2)}
	s.upF.SetBlackout(p.blackoutUp.Load())
	s.downF.SetBlackout(p.blackout.Load())
	p.sessions[client] = s
	p.wg.Add(1)
	go s.readServer()
	return s, nil
}

func (p *Proxy) readClients() {
	defer p.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, from, err := p.ln.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		s, err := p.session(from)
		if err != nil {
			continue
		}
		s.forward(&s.upMu, s.upF, buf[:n], func(b []byte) { _, _ = s.conn.Write(b) })
		if p.opts.Handled != nil {
			p.opts.Handled(true)
		}
	}
}

func (s *session) readServer() {
	defer s.p.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, err := s.conn.Read(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			select {
			case <-s.p.done:
				return
			default:
			}
			continue // ICMP port unreachable while the server is down
		}
		s.forward(&s.downMu, s.downF, buf[:n], func(b []byte) {
			_, _ = s.p.ln.WriteToUDPAddrPort(b, s.client)
		})
		if s.p.opts.Handled != nil {
			s.p.opts.Handled(false)
		}
	}
}

// forward runs one datagram through a direction's filter and sends what
// leaves, after the delay when there is one.
func (s *session) forward(mu *sync.Mutex, f *Filter, d []byte, send func([]byte)) {
	var outs [4][]byte
	mu.Lock()
	out := f.Pass(d, outs[:0])
	holding := f.Holding()
	emit := func(out [][]byte) {
		for _, b := range out {
			if delay := f.Delay(); delay > 0 {
				c := append([]byte(nil), b...)
				time.AfterFunc(delay, func() { send(c) })
				continue
			}
			send(b)
		}
	}
	emit(out)
	mu.Unlock()
	if holding {
		time.AfterFunc(s.p.opts.MaxHold, func() {
			mu.Lock()
			defer mu.Unlock()
			var outs [1][]byte
			emit(f.Release(outs[:0]))
		})
	}
}
