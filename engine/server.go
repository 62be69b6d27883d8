package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"time"

	bcnet "github.com/bcserver/bcserver/net"
)

// The loop sleeps in the socket read until a datagram arrives or the
// game's next deadline (Game.NextDeadline: the tick, a timer, a
// retransmission, ...), so an idle game wakes only for its ticks and
// timers; it used to poll every 10 ms, 100 wake-ups a second for nothing.

// minSleep is the shortest the loop sleeps when the game reports a
// deadline it did not clear in the Advance that was due for it: a bug
// guard, so a deadline stuck in the past costs a 1 ms poll, never a busy
// loop. Counted in ServerStats.StuckDeadlines.
const minSleep = time.Millisecond

// shutdownPoll is how often the loop looks at the clock while it waits for
// the clients' ACKs of the shutdown notice.
const shutdownPoll = 10 * time.Millisecond

// packetSocket is what the loop needs of its socket: *bcnet.Socket in a
// server, a fake on a fake clock in tests.
type packetSocket interface {
	bcnet.PacketWriter
	Receive(deadline time.Time) ([]bcnet.Packet, error)
	Flush() error
	Wake()
	Close() error
	LocalAddr() netip.AddrPort
}

// Server runs one Game on its own UDP socket, on one goroutine (Run) that
// reads the socket in batches, runs the game and writes what it produced
// in batches. A process runs many games as many Servers: nothing is shared
// between them but the log, the answer budget and whatever the host
// plugs in, so one game's flood or failure does not touch another.
type Server struct {
	game  *Game
	sock  packetSocket
	clock func() time.Time
	// sockStats are the socket's counters (a fake socket's are zero).
	sockStats *bcnet.SocketStats
	log       *slog.Logger
	done      chan struct{}
	stats     ServerStats
}

// ServerOptions configures Listen.
type ServerOptions struct {
	// Addr is the UDP address to bind, e.g. ":22101".
	Addr   string
	Config Config
	Logger *slog.Logger
	// Socket sizes the kernel buffers.
	Socket bcnet.SocketOptions
}

// Listen binds the socket and builds the game; Run starts it.
func Listen(opts ServerOptions) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sock, err := bcnet.Listen(opts.Addr, opts.Socket)
	if err != nil {
		return nil, err
	}
	s, err := newServer(sock, time.Now, Options{Config: opts.Config, Logger: log, LocalIP: sock.LocalIPv4For})
	if err != nil {
		sock.Close()
		return nil, err
	}
	s.sockStats = &sock.Stats
	return s, nil
}

// newServer builds the game on sock, reading the time from clock.
func newServer(sock packetSocket, clock func() time.Time, opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{sock: sock, clock: clock, log: log, done: make(chan struct{}), sockStats: new(bcnet.SocketStats)}
	opts.Out = countingWriter{sock, &s.stats}
	if opts.Now.IsZero() {
		opts.Now = clock()
	}
	g, err := NewGame(opts)
	if err != nil {
		return nil, err
	}
	g.wake = sock.Wake
	s.game = g
	return s, nil
}

// Addr returns the bound address.
func (s *Server) Addr() netip.AddrPort { return s.sock.LocalAddr() }

// Game returns the game. Touch it only from the game goroutine: inside
// event handlers or through Do.
func (s *Server) Game() *Game { return s.game }

// Close closes the socket of a server that will not Run (Run closes it
// itself when it ends).
func (s *Server) Close() error { return s.sock.Close() }

// Done is closed when Run has returned.
func (s *Server) Done() <-chan struct{} { return s.done }

// Do runs fn on the game goroutine and waits for it. It returns an error
// if the server stopped before fn ran.
func (s *Server) Do(ctx context.Context, fn func(*Game)) error {
	ran := make(chan struct{})
	select {
	case s.game.inbox <- func() { fn(s.game); close(ran) }:
		s.sock.Wake()
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
// the socket. A panic in the game (a bug, never a player's doing) is
// recovered: it is logged with its stack, the players are told the game
// ended, and Run returns it as an error, leaving the rest of the process
// running.
func (s *Server) Run(ctx context.Context) (err error) {
	defer close(s.done)
	defer s.sock.Close()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("game failed", "addr", s.Addr(), "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("game on %v failed: %v", s.Addr(), r)
			s.abandon()
		}
	}()
	g := s.game
	stop := context.AfterFunc(ctx, s.sock.Wake)
	defer stop()
	if g.loading {
		// The mission announces its script once it has loaded (its own
		// "mission loaded" line); until then the configuration holds the
		// engine's default, which would name the wrong one.
		s.log.Info("server listening", "addr", s.Addr(), "mission", "loading", "max_players", g.cfg.MaxPlayers)
	} else {
		s.log.Info("server listening", "addr", s.Addr(), "mission", g.cfg.Mission.Script, "max_players", g.cfg.MaxPlayers)
	}
	next := g.NextDeadline(s.clock())
	for {
		if ctx.Err() != nil {
			s.shutdown()
			s.log.Info("server stopped", "addr", s.Addr())
			return nil
		}
		pkts, rerr := s.sock.Receive(next)
		if rerr != nil {
			return fmt.Errorf("game socket: %w", rerr)
		}
		s.stats.Wakeups.Add(1)
		now := s.clock()
		g.now = now
		if len(pkts) > 0 && g.obs != nil && !pkts[0].Arrived.IsZero() {
			g.obs.ReceiveDelay(now.Sub(pkts[0].Arrived)) // the first is the oldest
		}
		if len(pkts) > 0 {
			var bytes uint64
			for i := range pkts {
				bytes += uint64(len(pkts[i].Data))
				g.HandleDatagram(now, pkts[i].Addr, pkts[i].Data)
			}
			s.stats.BytesIn.Add(bytes)
		}
		// Timers run on time however busy the socket is: a flood is read
		// in batches, and the tick still comes between two of them.
		// stuck: something still due right after the Advance for it (a
		// bug); what handlers and posted funcs add for now is not.
		stuck := false
		if !now.Before(next) {
			g.Advance(now)
			stuck = !g.NextDeadline(now).After(now)
		}
		if len(g.inbox) > 0 {
			g.now = now
			g.RunPosted()
		}
		g.Flush(now)
		_ = s.sock.Flush()
		if len(pkts) > 0 && g.obs != nil {
			g.obs.BatchDone(s.clock().Sub(now))
		}
		next = g.NextDeadline(now)
		if stuck && !next.After(now) {
			s.stats.StuckDeadlines.Add(1)
			next = now.Add(minSleep)
		}
	}
}

// shutdown tells every client the server is going away and keeps the
// transport running until each has ACKed its notice or the wait ran out
// (transport.md 10.4: at most 15 s).
func (s *Server) shutdown() {
	g := s.game
	start := s.clock()
	g.Shutdown(start)
	_ = s.sock.Flush()
	wait := g.cfg.Transport.ShutdownWait
	if wait <= 0 {
		wait = bcnet.DefaultConfig().ShutdownWait
	}
	if n := g.host.Lingering(); n > 0 {
		s.log.Info("telling clients the server shuts down", "clients", n)
	}
	// The host retires every peer after the wait; the limit is a backstop
	// in case the clock and the loop disagree.
	limit := start.Add(wait + time.Second)
	for !g.ShutdownDone() && s.clock().Before(limit) {
		pkts, err := s.sock.Receive(s.clock().Add(shutdownPoll))
		if err != nil {
			return
		}
		now := s.clock()
		for i := range pkts {
			g.HandleDatagram(now, pkts[i].Addr, pkts[i].Data)
		}
		g.ShutdownStep(now)
		_ = s.sock.Flush()
	}
}

// abandon is the end of a game that failed: every player still gets the
// shutdown notice once, best effort, so stock clients leave at once
// instead of timing out.
func (s *Server) abandon() {
	defer func() { _ = recover() }()
	s.game.host.Shutdown(s.clock())
	_ = s.sock.Flush()
}
