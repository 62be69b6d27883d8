package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/httpserve"
	"github.com/bcserver/bcserver/lua"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/metrics"
	"github.com/bcserver/bcserver/plugins/moderation"
	"github.com/bcserver/bcserver/plugins/ratings"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/spectate"
	"github.com/bcserver/bcserver/plugins/store"
	"github.com/bcserver/bcserver/plugins/webhook"
)

// Options are what a Server needs beyond its configuration file.
type Options struct {
	// Logger receives the server's lines; nil discards them. The admin
	// console's log tail reads them too.
	Logger *slog.Logger
	// Version is the program's version, shown in the admin status and
	// written into recordings.
	Version string
	// Lua, if set, adjusts each mission's runtime options after the
	// configuration set them (tests: virtual time, a fixed seed, storage
	// as a previous run left it).
	Lua func(*lua.Options)
	// Accounts, if set, adjusts the accounts' options (tests: a cheap
	// key derivation).
	Accounts func(*accounts.RegistryOptions)
	// Manual, if set, builds every game without a socket, for a caller
	// that drives it by hand (internal/missiontest): Run is not called;
	// the caller feeds each game's engine (HandleDatagram, Advance), shuts
	// it down (engine.Game.Shutdown) and then calls Close.
	Manual *Manual
}

// Manual is how games driven by hand talk and tell time.
type Manual struct {
	// Out receives every datagram the games send.
	Out bcnet.PacketWriter
	// Now starts the games' clocks.
	Now time.Time
}

// Server is a process's games and what they share: one mission watcher
// per folder, the match history, the recordings, one answer budget for
// strangers, one metrics registry and one HTTP server for the admin API
// and one for spectators.
type Server struct {
	p       *process
	games   []*Game
	adminLn *httpserve.Server // the admin API of every game, nil when off
	specLn  *httpserve.Server // the spectator page, nil when off
	spec    *spectate.Server
	started time.Time
	ready   chan struct{} // closed when the games run and their missions loaded
	// hupWatched is closed once SIGHUP is handled (Run registers it off
	// the way to the first answer; tests wait for it).
	hupWatched chan struct{}
	closed     bool
}

// process holds what the games of one process share while they are
// assembled and run.
type process struct {
	cfg      Config // the top level: the shared sections
	opts     Options
	log      *slog.Logger
	multi    bool
	registry *metrics.Registry // nil with one game: its own registry
	answers  *bcnet.AnswerBudget
	watches  *missionWatches          // one watcher per missions folder
	ids      *lua.Identities          // players' uids, stable across the process's games
	protos   *lua.Protos              // compiled mission files, shared by the games
	warmed   map[string]chan struct{} // closed when a mission's warm compile is done (warmMissions)
	warms    []func()                 // the compiles to start (startWarm)
	tail     *admin.Tail

	store      *store.Store // match history, nil when off
	stopPrune  func()
	archive    *record.Archive // recordings, nil when off
	sinks      []*record.FileSink
	spectators []*spectate.Spectator
	games      []*Game // as they are made

	webhook *webhook.Sender // announcements, nil when off
	// webhookMetrics: the first game's metrics report the sender's counts.
	webhookMetrics bool
	accounts       *accounts.Registry // players' accounts, nil when off
	mod            *moderation.Store  // timed bans, warnings, notes, the audit log; with [store] path
	ratings        *ratings.Book      // skill ratings, nil when off

	token          string        // the admin API's token, "" when off
	tokens         []admin.Token // more tokens with names and roles
	metricsHandler http.Handler

	// The HTTP listeners' shared connection budget and their counters.
	httpPool              *httpserve.Pool
	adminStats, specStats *httpserve.Stats
	agonesDone            bool // the first game took the sidecar
}

// New assembles a server from its configuration: it binds each game's
// socket (unless Options.Manual), opens the match history and the
// recordings, starts each game's plugins, and opens the admin and
// spectator listeners. Each game's mission is compiled meanwhile and
// opens once Run runs the game (with Options.Manual, here): the socket
// answers the server browser from the first moment, and the games take
// players once their missions run (Ready). A game whose mission cannot
// start runs without one; it takes no players until the mission is fixed
// (Game.Failure says why).
func New(ctx context.Context, cfg Config, opts Options) (_ *Server, err error) {
	specs, err := cfg.games()
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// The log tail feeds the console; every logger below writes through it.
	tail := admin.NewTail(300)
	log = slog.New(tail.Handler(log.Handler()))
	if opts.Manual != nil && (cfg.Admin.Listen != "" || cfg.Spectate.Listen != "") {
		return nil, errManual
	}
	p := &process{cfg: cfg, opts: opts, log: log, multi: len(specs) > 1, tail: tail, stopPrune: func() {},
		answers: bcnet.NewAnswerBudget(int(cfg.Limits.AnswerBytes)), watches: newMissionWatches(ctx, log), ids: lua.NewIdentities()}
	if p.multi {
		p.registry = metrics.NewRegistry()
	}
	pool := httpserve.DefaultPoolSize(len(specs))
	if cfg.httpConns > 0 {
		pool = cfg.httpConns
	}
	p.httpPool = httpserve.NewPool(pool)
	p.adminStats = httpserve.NewStats("admin", log.With("component", "plugin/admin"), nil)
	p.specStats = httpserve.NewStats("spectate", log.With("component", "plugin/spectate"), nil)
	p.protos = lua.NewProtos()
	p.warmMissions(specs)
	if opts.Manual != nil {
		p.startWarm(false) // the games open their missions in New, and wait for it
	}
	s := &Server{p: p, started: time.Now(), ready: make(chan struct{}), hupWatched: make(chan struct{})}
	defer func() {
		if err != nil {
			s.Close()
		}
	}()
	if p.store, p.stopPrune, err = store.Setup(cfg.Store, cfg.dir, log); err != nil {
		return nil, err
	}
	if p.archive, err = record.Setup(cfg.Record, cfg.dir, cfg.Store.Path, log); err != nil {
		return nil, err
	}
	if p.store != nil {
		if p.mod, err = moderation.Open(p.store.DB(), time.Now()); err != nil {
			return nil, err
		}
	}
	if cfg.Accounts.Enabled {
		ro := accounts.RegistryOptions{DB: p.store.DB(), Section: cfg.Accounts, Logger: log}
		if opts.Accounts != nil {
			opts.Accounts(&ro)
		}
		if p.accounts, err = accounts.OpenRegistry(ro); err != nil {
			return nil, err
		}
	}
	if cfg.Ratings.Enabled {
		if p.ratings, err = ratings.OpenBook(p.store.DB()); err != nil {
			return nil, err
		}
	}
	if !cfg.Webhook.Off() {
		wo, err := cfg.Webhook.Options(cfg.dir)
		if err != nil {
			return nil, fmt.Errorf("plugin/webhook: %w", err)
		}
		wo.Logger = log
		if p.webhook, err = webhook.NewSender(wo); err != nil {
			return nil, err
		}
	}
	if cfg.Admin.Listen != "" {
		if p.token, err = cfg.Admin.LoadToken(cfg.dir, log); err != nil {
			return nil, fmt.Errorf("plugin/admin: %w", err)
		}
		if p.tokens, err = cfg.Admin.LoadTokens(cfg.dir); err != nil {
			return nil, fmt.Errorf("plugin/admin: %w", err)
		}
	}
	for i, g := range specs {
		rc, err := g.Runtime()
		if err != nil {
			return nil, fmt.Errorf("game on port %d: %w", g.Server.Port, err)
		}
		rc.TickPhase = time.Duration(i) * rc.TickInterval / time.Duration(len(specs))
		u, err := p.newGame(i, g, rc)
		if err != nil {
			return nil, err
		}
		s.games = append(s.games, u)
		p.games = append(p.games, u)
	}
	if p.multi {
		log.Info("games in this process", "games", len(s.games))
	}
	var listeners []*httpserve.Stats
	if p.token != "" {
		listeners = append(listeners, p.adminStats)
	}
	if cfg.Spectate.Listen != "" {
		listeners = append(listeners, p.specStats)
	}
	s.games[0].metrics.Registry().AddHTTP(listeners...)
	if p.token != "" {
		entries := make([]admin.Game, len(s.games))
		for i, u := range s.games {
			entries[i] = admin.Game{Label: u.label, API: u.admin, Server: u.srv, Mode: u.Mode, Failure: u.Failure}
		}
		s.adminLn, err = httpserve.Listen(httpserve.Options{Addr: cfg.Admin.Listen, Handler: admin.Mux(entries, p.token),
			Pool: p.httpPool, PerAddress: adminPerAddress, Proxies: cfg.Admin.Proxies(), Stats: p.adminStats, Logger: log,
			Timeouts: httpserve.Timeouts{Write: adminWrite, Idle: 60 * time.Second}})
		if err != nil {
			return nil, fmt.Errorf("plugin/admin: %w", err)
		}
		log.Info("admin console and API listening", "component", "plugin/admin", "url", "http://"+s.adminLn.Addr().String()+"/",
			"connections", p.httpPool.Max())
	}
	if sc := cfg.Spectate; sc.Listen != "" {
		so := sc.Options(p.spectators)
		if p.ratings != nil && cfg.Ratings.Public {
			rs := cfg.Ratings
			so.Ratings = ratings.API(p.ratings, rs, func() string { return ratings.SeasonOf(rs.Season, time.Now()) })
		}
		so.Logger, so.Stats = log, p.specStats
		s.spec = spectate.New(so)
		reserve := 0
		if p.token != "" {
			reserve = httpserve.AdminReserve
		}
		s.specLn, err = httpserve.Listen(httpserve.Options{Addr: sc.Listen, Handler: s.spec,
			Pool: p.httpPool, Reserve: reserve, PerAddress: sc.Connections(), Proxies: sc.Proxies(), Stats: p.specStats, Logger: log})
		if err != nil {
			return nil, fmt.Errorf("plugin/spectate: %w", err)
		}
		log.Info("spectator page listening", "component", "plugin/spectate", "url", "http://"+s.specLn.Addr().String()+"/", "delay", time.Duration(sc.Delay),
			"connections", p.httpPool.Max()-reserve, "per_address", sc.Connections())
	}
	return s, nil
}

// Settle waits for the database writes the games started off their
// loops (timed bans, warnings, the audit log): tests call it before they
// look.
func (s *Server) Settle() {
	if s.p.mod != nil {
		s.p.mod.Wait()
	}
	if s.p.ratings != nil {
		s.p.ratings.Wait()
	}
}

// Games returns the games of the server, in the configuration's order.
func (s *Server) Games() []*Game { return s.games }

// AdminAddr is the admin HTTP server's address, nil when it is off.
func (s *Server) AdminAddr() net.Addr {
	if s.adminLn == nil {
		return nil
	}
	return s.adminLn.Addr()
}

// SpectateAddr is the spectator page's address, nil when it is off.
func (s *Server) SpectateAddr() net.Addr {
	if s.specLn == nil {
		return nil
	}
	return s.specLn.Addr()
}

// adminPerAddress caps the admin listener's connections from one
// address: a host's console tabs, its scraper and its orchestrator's
// probes come from a few addresses; a stranger's flood stops here.
const adminPerAddress = 32

// adminWrite bounds the writing of one admin answer; the event stream
// and recording downloads move their own deadlines on.
const adminWrite = 60 * time.Second

// Run runs every game on its own goroutine until ctx ends, re-reading
// the configuration on SIGHUP, then shuts the games down (each tells its
// players) and closes what they shared, with a one-line summary per game.
// A game that fails (its loop panicked) is logged and left stopped while
// the others play on; with one game its failure is Run's error.
func (s *Server) Run(ctx context.Context) error {
	if s.p.opts.Manual != nil {
		return errors.New("games driven by hand (Options.Manual) are not run by the server")
	}
	stopHUP := s.watchHUP(ctx)
	// The missions load while the games run; Run waits for that to end
	// before it takes the games down, so nothing marks them ready after.
	loadCtx, stopLoading := context.WithCancel(ctx)
	loading := make(chan struct{})
	go func() {
		defer close(loading)
		s.loadMissions(loadCtx)
	}()
	err := s.runGames(ctx)
	stopLoading()
	<-loading
	stopHUP()
	s.stopAdmin()
	s.summary()
	s.Close()
	return err
}

// Ready is closed once Run has started the games and each has loaded its
// mission (or failed to, and says why): the games take players.
func (s *Server) Ready() <-chan struct{} { return s.ready }

// loadMissions opens every game's mission once its loop runs (the games
// answer the server browser meanwhile), then marks the games ready (the
// admin API's /readyz, Ready). A game whose loop stopped first is done
// loading; if ctx ends first, nothing is marked.
func (s *Server) loadMissions(ctx context.Context) {
	for _, u := range s.games {
		u.missions.startWatch()
	}
	s.p.startWarm(true)
	var wg sync.WaitGroup
	for _, u := range s.games {
		wg.Go(func() { u.missions.load(ctx, u.srv) })
	}
	wg.Wait()
	if ctx.Err() != nil {
		return
	}
	for _, u := range s.games {
		if u.admin != nil {
			u.admin.SetReady(true)
		}
	}
	webhook.Announce(s.p.webhook, s.p.cfg.Webhook.Events, webhook.EventServerUp, s.p.cfg.Server.Name, time.Now())
	close(s.ready)
}

func (s *Server) runGames(ctx context.Context) error {
	var wg sync.WaitGroup
	errs := make([]error, len(s.games))
	for i, u := range s.games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := u.srv.Run(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				errs[i] = err
				if len(s.games) > 1 {
					s.p.log.Error("game stopped; the other games play on", "game", u.label, "err", err)
				}
			}
		}()
	}
	wg.Wait()
	if len(s.games) == 1 {
		return errs[0]
	}
	return nil
}

// stopAdmin closes the admin HTTP server (after the games stopped).
func (s *Server) stopAdmin() {
	if s.adminLn == nil {
		return
	}
	for _, u := range s.games {
		u.admin.SetReady(false)
		u.admin.Close()
	}
	s.adminLn.Shutdown()
	s.adminLn = nil
}

// Close releases what New opened: the listeners, the games' sockets, the
// recordings (their queued blocks are written) and the match history. Run
// calls it; a caller that does not run the server (or drives its games by
// hand, after shutting them down) calls it instead.
func (s *Server) Close() {
	if s.closed {
		return
	}
	s.closed = true
	s.stopAdmin()
	if s.specLn != nil {
		s.spec.Close()
		s.specLn.Close()
	}
	for _, u := range s.games {
		u.close()
	}
	p := s.p
	for _, fs := range p.sinks {
		fs.Close()
	}
	if p.archive != nil {
		_ = p.archive.Close()
	}
	if p.webhook != nil {
		// The server-down message (queued by Run) and whatever else waits
		// get a few seconds; a dead endpoint does not hold the exit up.
		webhook.Announce(p.webhook, p.cfg.Webhook.Events, webhook.EventServerDown, p.cfg.Server.Name, time.Now())
		ctx, cancel := context.WithTimeout(context.Background(), webhookDrain)
		p.webhook.Close(ctx)
		cancel()
	}
	if p.accounts != nil {
		p.accounts.Close()
	}
	if p.mod != nil {
		p.mod.Wait()
	}
	if p.ratings != nil {
		p.ratings.Wait()
	}
	p.stopPrune()
	if p.store != nil {
		if err := p.store.Close(); err != nil {
			p.log.Error("closing the match history", "component", "plugin/store", "err", err)
		}
	}
}

// webhookDrain bounds how long the exit waits for queued announcements.
const webhookDrain = 5 * time.Second

// summary is the session's one-line account at shutdown, one per game.
func (s *Server) summary() {
	for _, u := range s.games {
		st := u.srv.Stats()
		ss := u.srv.SocketStats()
		gs := &u.g.Stats
		matches := 0
		if u.recorder != nil {
			matches = u.recorder.Recorded
		}
		u.log.Info("session summary",
			"uptime", time.Since(s.started).Round(time.Second),
			"matches_recorded", matches,
			"players_joined", gs.Joins.Load(),
			"datagrams_in", u.g.TransportStats().Datagrams, "bytes_in", st.BytesIn.Load(),
			"datagrams_out", st.DatagramsOut.Load(), "bytes_out", st.BytesOut.Load(),
			"read_calls", ss.Reads.Load(), "write_calls", ss.Writes.Load())
	}
}

// watchHUP re-reads the configuration on SIGHUP and applies it to every
// game (each to its own table); the returned func stops watching. The
// signal is registered on the watching goroutine: a registration waits for
// the runtime's signal-mask thread (0.1 ms), which the games' loops need
// not wait for.
func (s *Server) watchHUP(ctx context.Context) func() {
	hup := make(chan os.Signal, 1)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	cur := make([]Config, len(s.games))
	for i, u := range s.games {
		cur[i] = u.uc
		if reload := u.uc.reload; reload != nil {
			n := len(s.games)
			cur[i].reload = func() (Config, error) {
				all, err := reload()
				if err != nil {
					return all, err
				}
				specs, err := all.games()
				if err != nil {
					return all, err
				}
				if len(specs) != n {
					return all, fmt.Errorf("the configuration now has %d games, %d run: adding or removing games needs a restart", len(specs), n)
				}
				specs[i].reload = cur[i].reload
				return specs[i], nil
			}
		}
	}
	go func() {
		defer close(done)
		signal.Notify(hup, syscall.SIGHUP)
		close(s.hupWatched)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				for i, u := range s.games {
					cur[i] = reconfigure(ctx, cur[i], u, u.log)
				}
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		cancel()
		<-done
	}
}

// NewLogger returns the logger the [server] section asks for (log_level,
// log_format), writing to w.
func NewLogger(w io.Writer, s ServerSection) *slog.Logger {
	lvl, _ := parseLevel(s.LogLevel)
	opts := &slog.HandlerOptions{Level: lvl}
	if s.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

var _ engine.Plugin = (*missionSlot)(nil)
