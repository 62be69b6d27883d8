package httpserve

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Timeouts of a listener's connections.
type Timeouts struct {
	// Header is how long a client may take to send a request's header
	// (from the connection's start, or the end of the previous answer):
	// a connection that sends nothing is closed after it.
	Header time.Duration
	// Read is how long reading a whole request may take.
	Read time.Duration
	// Write is how long an answer may take to write. A stream (server-sent
	// events, a download) moves its own deadline on with Extend.
	Write time.Duration
	// Idle is how long a kept-alive connection may wait for its next
	// request.
	Idle time.Duration
}

// DefaultTimeouts are what a listener uses where Options leave zero.
var DefaultTimeouts = Timeouts{Header: 5 * time.Second, Read: 15 * time.Second, Write: 30 * time.Second, Idle: 30 * time.Second}

// Options configures Listen.
type Options struct {
	// Addr is the address to listen on ("127.0.0.1:8080").
	Addr string
	// Handler serves the requests; with Proxies set, it sees each
	// client's address in RemoteAddr (Proxies.RealIP).
	Handler  http.Handler
	Timeouts Timeouts
	// Pool, Reserve, PerAddress, Proxies and Stats are the connection caps
	// (ListenerOptions).
	Pool       *Pool
	Reserve    int
	PerAddress int
	Proxies    Proxies
	Stats      *Stats
	Logger     *slog.Logger
}

// Server is one listening HTTP server.
type Server struct {
	srv  *http.Server
	addr net.Addr
	done chan error
}

// Listen starts serving opts.Handler on opts.Addr within the caps.
func Listen(opts Options) (*Server, error) {
	if opts.Pool == nil || opts.Stats == nil {
		return nil, fmt.Errorf("httpserve: %s: no pool or stats", opts.Addr)
	}
	t := opts.Timeouts
	d := DefaultTimeouts
	for _, p := range []struct{ v, def *time.Duration }{{&t.Header, &d.Header}, {&t.Read, &d.Read}, {&t.Write, &d.Write}, {&t.Idle, &d.Idle}} {
		if *p.v <= 0 {
			*p.v = *p.def
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	limited := Limit(ln, ListenerOptions{Pool: opts.Pool, Reserve: opts.Reserve, PerAddress: opts.PerAddress, Proxies: opts.Proxies, Stats: opts.Stats})
	s := &Server{
		srv: &http.Server{
			Handler:           opts.Proxies.RealIP(opts.Handler),
			ReadHeaderTimeout: t.Header,
			ReadTimeout:       t.Read,
			WriteTimeout:      t.Write,
			IdleTimeout:       t.Idle,
			MaxHeaderBytes:    16 << 10,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		},
		addr: ln.Addr(), done: make(chan error, 1),
	}
	go func() { s.done <- s.srv.Serve(limited) }()
	return s, nil
}

// Addr is the address listened on.
func (s *Server) Addr() net.Addr { return s.addr }

// Shutdown lets requests in flight finish (at most 5 s), then closes.
func (s *Server) Shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = s.srv.Shutdown(ctx)
	cancel()
	_ = s.srv.Close()
	<-s.done
}

// Close drops the connections at once (event streams never end).
func (s *Server) Close() {
	_ = s.srv.Close()
	<-s.done
}

// Extend moves the write deadline of w's connection to d from now: a
// stream calls it before each write, so a reader that keeps reading keeps
// its stream, and one that stops is cut off d later.
func Extend(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}
