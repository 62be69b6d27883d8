package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
)

// loopInterval is how often the loop runs timers when no datagram
// arrives: transport timers have 667 ms granularity and the game tick
// 100 ms, so 10 ms keeps every deadline within a small fraction of its
// interval at negligible cost.
const loopInterval = 10 * time.Millisecond

// maxBatch bounds how many queued datagrams are handled before a flush, so
// a burst is answered in few datagrams but nobody waits long.
const maxBatch = 64

// Server runs a Game on a UDP socket.
type Server struct {
	game  *Game
	sock  *bcnet.Socket
	log   *slog.Logger
	done  chan struct{}
	stats ServerStats
}

// ServerOptions configures Listen.
type ServerOptions struct {
	// Addr is the UDP address to bind, e.g. ":22101".
	Addr   string
	Config Config
	Logger *slog.Logger
	// Queue is the capacity of the socket's inbound channel.
	Queue int
}

// Listen binds the socket and builds the game; Run starts it.
func Listen(opts ServerOptions) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sock, err := bcnet.Listen(opts.Addr, opts.Queue)
	if err != nil {
		return nil, err
	}
	s := &Server{sock: sock, log: log, done: make(chan struct{})}
	g, err := NewGame(Options{Config: opts.Config, Logger: log, Out: countingWriter{sock, &s.stats}, LocalIP: sock.LocalIPv4For})
	if err != nil {
		sock.Close()
		return nil, err
	}
	s.game = g
	return s, nil
}

// Addr returns the bound address.
func (s *Server) Addr() netip.AddrPort { return s.sock.LocalAddr() }

// Game returns the game. Touch it only from the game goroutine: inside
// event handlers or through Do.
func (s *Server) Game() *Game { return s.game }

// Do runs fn on the game goroutine and waits for it. It returns an error
// if the server stopped before fn ran.
func (s *Server) Do(ctx context.Context, fn func(*Game)) error {
	ran := make(chan struct{})
	select {
	case s.game.inbox <- func() { fn(s.game); close(ran) }:
	case <-s.done:
		return errors.New("server stopped")
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ran:
		return nil
	case <-s.done:
		return errors.New("server stopped")
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run serves until ctx is cancelled, then tells every player and closes
// the socket.
func (s *Server) Run(ctx context.Context) error {
	defer close(s.done)
	defer s.sock.Close()
	g := s.game
	tick := time.NewTicker(loopInterval)
	defer tick.Stop()
	in := s.sock.Packets()
	s.log.Info("server listening", "addr", s.Addr(), "mission", g.cfg.Mission.Script, "max_players", g.cfg.MaxPlayers)
	for {
		select {
		case <-ctx.Done():
			s.shutdown(in, tick.C)
			s.log.Info("server stopped")
			return nil
		case p, ok := <-in:
			if !ok {
				return fmt.Errorf("socket closed")
			}
			now := time.Now()
			n := 1
			s.stats.BytesIn.Add(uint64(p.N))
			g.HandleDatagram(now, p.Addr, p.Data())
			s.sock.Release(p)
		drain:
			for i := 0; i < maxBatch; i++ {
				select {
				case p, ok := <-in:
					if !ok {
						break drain
					}
					n++
					s.stats.BytesIn.Add(uint64(p.N))
					g.HandleDatagram(now, p.Addr, p.Data())
					s.sock.Release(p)
				default:
					break drain
				}
			}
			g.Flush(now)
			s.stats.DatagramsIn.Add(uint64(n))
			if g.obs != nil {
				g.obs.BatchDone(time.Since(now))
			}
		case now := <-tick.C:
			g.Advance(now)
		case fn := <-g.inbox:
			g.now = time.Now()
			fn()
			g.RunPosted()
			g.Flush(g.now)
		}
	}
}

// shutdown tells every client the server is going away and keeps the
// transport running until each has ACKed its notice or the wait ran out
// (transport.md 10.4: at most 15 s).
func (s *Server) shutdown(in <-chan *bcnet.Packet, tick <-chan time.Time) {
	g := s.game
	start := time.Now()
	g.Shutdown(start)
	wait := g.cfg.Transport.ShutdownWait
	if wait <= 0 {
		wait = bcnet.DefaultConfig().ShutdownWait
	}
	// The host retires every peer after the wait; the timer is a backstop
	// in case the clock and the ticker disagree.
	limit := time.NewTimer(wait + time.Second)
	defer limit.Stop()
	if n := g.host.Lingering(); n > 0 {
		s.log.Info("telling clients the server shuts down", "clients", n)
	}
	for !g.ShutdownDone() {
		select {
		case p, ok := <-in:
			if !ok {
				return
			}
			now := time.Now()
			g.HandleDatagram(now, p.Addr, p.Data())
			s.sock.Release(p)
			g.ShutdownStep(now)
		case now := <-tick:
			g.ShutdownStep(now)
		case <-limit.C:
			return
		}
	}
}
