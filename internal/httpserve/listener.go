package httpserve

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Pool is the connections the listeners of a process may hold open
// together. A listener's Reserve is the part of it that listener leaves
// for the others: the spectator listener keeps off the admin listener's
// reserve, so a flood of the public page leaves room for the console,
// /metrics and /healthz.
type Pool struct {
	max  int64
	used atomic.Int64
}

// NewPool returns a pool of max connections.
func NewPool(max int) *Pool { return &Pool{max: int64(max)} }

// Max returns the pool's size.
func (p *Pool) Max() int { return int(p.max) }

// Used returns the connections held now.
func (p *Pool) Used() int { return int(p.used.Load()) }

// take counts a connection unless that leaves fewer than reserve free.
func (p *Pool) take(reserve int) bool {
	if p.used.Add(1) > p.max-int64(reserve) {
		p.used.Add(-1)
		return false
	}
	return true
}

func (p *Pool) release() { p.used.Add(-1) }

// ListenerOptions configures Limit.
type ListenerOptions struct {
	// Pool is the process's connection budget (required).
	Pool *Pool
	// Reserve is how much of the pool this listener leaves to the others.
	Reserve int
	// PerAddress caps the connections one address (Key) holds open (0:
	// no cap). Trusted proxies are exempt: every viewer behind one shares
	// its address, and the per-request limits see through it.
	PerAddress int
	Proxies    Proxies
	// Stats counts connections and refusals (required).
	Stats *Stats
}

// refusal is what a connection over a cap reads before it is closed: a
// whole HTTP answer, so a browser shows why rather than "connection
// reset".
const refusal = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\n" +
	"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 32\r\n\r\ntoo many connections: try later\n"

// refusalWrite bounds the refusal's write. A fresh connection's socket
// buffer always has room, so the write returns at once; the deadline only
// matters to a peer that never reads, and must not hold up Accept.
const refusalWrite = 50 * time.Millisecond

// Limit returns ln with the connection caps of opts: Accept answers a
// connection over a cap with a 503 and closes it at once, and hands on
// only the connections within the caps.
func Limit(ln net.Listener, opts ListenerOptions) net.Listener {
	return &listener{Listener: ln, opts: opts, per: map[netip.Prefix]int{}}
}

type listener struct {
	net.Listener
	opts ListenerOptions
	mu   sync.Mutex
	per  map[netip.Prefix]int
}

// Accept implements net.Listener.
func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		a := AddrOf(c.RemoteAddr().String())
		k := Key(a)
		why, ok := l.admit(a, k)
		if ok {
			l.opts.Stats.open.Add(1)
			return &conn{Conn: c, l: l, key: k}, nil
		}
		l.opts.Stats.Refuse(why, a)
		_ = c.SetWriteDeadline(time.Now().Add(refusalWrite))
		_, _ = c.Write([]byte(refusal))
		// The descriptor is free from here; the kernel finishes the
		// close (the answer, the FIN) on its own.
		_ = c.Close()
	}
}

// admit counts a connection from a against the caps.
func (l *listener) admit(a netip.Addr, k netip.Prefix) (Reason, bool) {
	capped := l.opts.PerAddress > 0 && !l.opts.Proxies.Trusted(a)
	l.mu.Lock()
	defer l.mu.Unlock()
	if capped && l.per[k] >= l.opts.PerAddress {
		return PerAddress, false
	}
	if !l.opts.Pool.take(l.opts.Reserve) {
		return Connections, false
	}
	l.per[k]++
	return 0, true
}

func (l *listener) release(k netip.Prefix) {
	l.mu.Lock()
	if n := l.per[k]; n <= 1 {
		delete(l.per, k)
	} else {
		l.per[k] = n - 1
	}
	l.mu.Unlock()
	l.opts.Pool.release()
	l.opts.Stats.open.Add(-1)
}

// conn gives its place back when closed (once, however often Close is
// called).
type conn struct {
	net.Conn
	l    *listener
	key  netip.Prefix
	once sync.Once
}

// CloseWrite passes a half-close on (net/http ends an answer with it
// before it closes). The place is given back here already: the
// connection is done, and the peer, which sees the end now, may connect
// again at once.
func (c *conn) CloseWrite() error {
	c.once.Do(func() { c.l.release(c.key) })
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// Close implements net.Conn; it gives the place back first, so a peer
// that sees the connection end finds it free.
func (c *conn) Close() error {
	c.once.Do(func() { c.l.release(c.key) })
	return c.Conn.Close()
}
