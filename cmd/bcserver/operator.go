package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/plugins/admin"
	"github.com/bcserver/bcserver/plugins/agones"
	"github.com/bcserver/bcserver/plugins/metrics"
	"github.com/bcserver/bcserver/plugins/store"
)

// AdminSection is [admin]: the HTTP API, the web console, /metrics and the
// health probes.
type AdminSection struct {
	// Listen is the address of the HTTP server; empty turns it off.
	Listen string `toml:"listen"`
	// Token is the bearer token; empty means the one in TokenFile,
	// generated there at first start.
	Token     string `toml:"token"`
	TokenFile string `toml:"token_file"`
}

// StoreSection is [store]: the match-history database.
type StoreSection struct {
	// Path is the SQLite file; empty turns match history off.
	Path string `toml:"path"`
	// KeepMatches and KeepDays bound the history (0: no bound), applied
	// at start and then daily.
	KeepMatches int `toml:"keep_matches"`
	KeepDays    int `toml:"keep_days"`
}

// AgonesSection is [agones]: used when AGONES_SDK_HTTP_PORT is set.
type AgonesSection struct {
	HealthInterval     Duration `toml:"health_interval"`
	ShutdownAfterMatch bool     `toml:"shutdown_after_match"`
}

// check validates the operator sections.
func (c UserConfig) checkOperator() error {
	var errs []error
	if c.Admin.Listen != "" {
		host, port, err := net.SplitHostPort(c.Admin.Listen)
		if err != nil {
			errs = append(errs, fmt.Errorf("admin.listen %q: want host:port", c.Admin.Listen))
		} else if c.Admin.Token == "" && !isLoopback(host) && !tokenFileHolds(c.resolve(c.Admin.TokenFile)) {
			// A token the server generated is for a console on this
			// machine; beyond it the host chooses the token: in the
			// configuration, the environment, or a file it wrote (a
			// container's volume, a mounted secret).
			errs = append(errs, fmt.Errorf("admin.listen %q is not a loopback address: set admin.token (or BCSERVER_ADMIN_TOKEN), or write a token of at least 16 characters to admin.token_file (%s), to serve the admin API beyond this machine", c.Admin.Listen, c.resolve(c.Admin.TokenFile)))
		} else if _, err := net.LookupPort("tcp", port); err != nil {
			errs = append(errs, fmt.Errorf("admin.listen %q: bad port", c.Admin.Listen))
		}
		if c.Admin.Token != "" && len(c.Admin.Token) < 16 {
			errs = append(errs, errors.New("admin.token: use at least 16 characters"))
		}
		if c.Admin.Token == "" && c.Admin.TokenFile == "" {
			errs = append(errs, errors.New("admin.token_file: empty with no admin.token"))
		}
	}
	if c.Store.KeepMatches < 0 || c.Store.KeepDays < 0 {
		errs = append(errs, errors.New("store.keep_matches, store.keep_days: must not be negative (0 keeps everything)"))
	}
	if c.Agones.HealthInterval < 0 {
		errs = append(errs, errors.New("agones.health_interval: must not be negative"))
	}
	return errors.Join(errs...)
}

// resolve makes a relative path of the configuration file relative to the
// file's folder, as bans.file is.
func (c UserConfig) resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || c.dir == "" {
		return p
	}
	return filepath.Join(c.dir, p)
}

// tokenFileHolds reports whether the token file exists and holds a token
// of at least 16 characters.
func tokenFileHolds(path string) bool {
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && len(strings.TrimSpace(string(b))) >= 16
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// adminToken returns the configured token, or the one in the token file,
// generating and writing it (mode 0600) at first start.
func adminToken(s AdminSection, log *slog.Logger) (string, error) {
	if s.Token != "" {
		return s.Token, nil
	}
	b, err := os.ReadFile(s.TokenFile)
	if err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) < 16 {
			return "", fmt.Errorf("admin token file %s: token shorter than 16 characters", s.TokenFile)
		}
		return tok, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("reading the admin token: %w", err)
	}
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(raw[:])
	if err := os.WriteFile(s.TokenFile, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("writing the admin token: %w", err)
	}
	log.Info("admin token generated", "component", "plugin/admin", "file", s.TokenFile)
	return tok, nil
}

// operator is the host's side of a running server: metrics, match
// history, the admin HTTP server and Agones.
type operator struct {
	log      *slog.Logger
	srv      *engine.Server // the first game: the admin API at / and Agones
	missions *missionSlot
	metrics  *metrics.Metrics
	games    []*gameUnit
	store    *store.Store
	recorder *store.Recorder // the first game's
	admin    *admin.Admin    // the first game's
	admins   []*admin.Admin  // every game's
	http     *http.Server
	httpDone chan error
	addr     net.Addr
	token    string
	agones   *agones.Plugin
	started  time.Time
	// stopPrune ends the history retention (nil without one).
	stopPrune func()
}

// startOperator adds the operator plugins to the games (before they run)
// and opens the admin listener. The games share one store, one registry
// behind /metrics (a game label on every series when there are several)
// and one HTTP server: the first game's API and console at /, every
// game's API under /games/<label>/, and the list at /games. Agones, one
// sidecar per process, follows the first game.
func startOperator(uc UserConfig, units []*gameUnit, tail *admin.Tail, log *slog.Logger) (*operator, error) {
	first := units[0]
	op := &operator{log: log, srv: first.srv, missions: first.missions, metrics: first.metrics, games: units, started: time.Now()}
	for _, u := range units {
		if err := u.srv.Game().AddPlugin(u.metrics); err != nil {
			return nil, err
		}
	}
	if uc.Store.Path != "" {
		st, err := store.Open(uc.resolve(uc.Store.Path), store.Options{Logger: log})
		if err != nil {
			return nil, fmt.Errorf("plugin/store: %w", err)
		}
		op.store = st
		keep := store.Retention{KeepMatches: uc.Store.KeepMatches, KeepDays: uc.Store.KeepDays}
		if !keep.Off() {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { st.KeepPruned(ctx, keep, 0, nil); close(done) }()
			op.stopPrune = func() { cancel(); <-done }
		}
		for _, u := range units {
			u.metrics.SetStore(func() (uint64, uint64) { return st.Dropped.Load(), st.Failed.Load() })
			u.recorder = store.NewRecorder(st, store.RecorderOptions{Mode: u.missions.Mode, Server: u.uc.Server.Name, Logger: log})
			u.missions.cut = u.recorder.Cut
			if err := u.srv.Game().AddPlugin(u.recorder); err != nil {
				st.Close()
				return nil, err
			}
		}
		op.recorder = first.recorder
	}
	g := first.srv.Game()
	if url, ok, err := agones.FromEnv(); err != nil {
		op.close()
		return nil, fmt.Errorf("plugin/agones: %w", err)
	} else if ok {
		op.agones = agones.New(agones.Options{BaseURL: url, HealthInterval: time.Duration(uc.Agones.HealthInterval),
			ShutdownAfterMatch: uc.Agones.ShutdownAfterMatch, Logger: log})
		if err := g.AddPlugin(op.agones); err != nil {
			op.close()
			return nil, err
		}
		log.Info("talking to the Agones SDK sidecar", "component", "plugin/agones", "url", url)
	}
	if uc.Admin.Listen == "" {
		return op, nil
	}
	as := uc.Admin
	as.TokenFile = uc.resolve(as.TokenFile)
	tok, err := adminToken(as, log)
	if err != nil {
		op.close()
		return nil, fmt.Errorf("plugin/admin: %w", err)
	}
	op.token = tok
	metricsHandler := promhttp.HandlerFor(first.metrics.Registry(), promhttp.HandlerOpts{})
	for _, u := range units {
		gg := u.srv.Game()
		aopts := admin.Options{
			Server: u.srv, Token: tok, Version: versionString(), Missions: u.missions, Bans: newBanList(gg, func() []string { return gg.Config().Bans }),
			Metrics: metricsHandler, Tail: tail, Audit: u.metrics.AdminAction, Logger: log,
		}
		if len(units) > 1 {
			aopts.Game = u.label
			aopts.Logger = log.With("game", u.label)
		}
		if op.store != nil {
			aopts.History = op.store
			aopts.Cut = u.recorder.Cut
		}
		a, err := admin.New(aopts)
		if err != nil {
			op.close()
			return nil, err
		}
		// Chat in the console's log, and the mute.
		if err := gg.AddPlugin(a); err != nil {
			op.close()
			return nil, err
		}
		op.admins = append(op.admins, a)
	}
	ln, err := net.Listen("tcp", uc.Admin.Listen)
	if err != nil {
		op.close()
		return nil, fmt.Errorf("plugin/admin: %w", err)
	}
	op.admin, op.addr = op.admins[0], ln.Addr()
	op.http = &http.Server{Handler: op.handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	op.httpDone = make(chan error, 1)
	go func() { op.httpDone <- op.http.Serve(ln) }()
	log.Info("admin console and API listening", "component", "plugin/admin", "url", "http://"+ln.Addr().String()+"/")
	return op, nil
}

// ready marks the server as taking players.
func (op *operator) ready() {
	for _, a := range op.admins {
		a.SetReady(true)
	}
}

// stop closes the HTTP server and the database after the game stopped,
// then logs the session summary.
func (op *operator) stop() {
	if op.http != nil {
		for _, a := range op.admins {
			a.SetReady(false)
			a.Close()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = op.http.Shutdown(ctx)
		cancel()
		<-op.httpDone
	}
	op.summary()
	op.close()
}

func (op *operator) close() {
	if op.stopPrune != nil {
		op.stopPrune()
		op.stopPrune = nil
	}
	if op.store != nil {
		if err := op.store.Close(); err != nil {
			op.log.Error("closing the match history", "component", "plugin/store", "err", err)
		}
		op.store = nil
	}
}

// summary is the session's one-line account at shutdown, one per game.
func (op *operator) summary() {
	for _, u := range op.games {
		st := u.srv.Stats()
		ss := u.srv.SocketStats()
		gs := &u.srv.Game().Stats
		matches := 0
		if u.recorder != nil {
			matches = u.recorder.Recorded
		}
		log := op.log
		if len(op.games) > 1 {
			log = log.With("game", u.label)
		}
		log.Info("session summary",
			"uptime", time.Since(op.started).Round(time.Second),
			"matches_recorded", matches,
			"players_joined", gs.Joins.Load(),
			"datagrams_in", st.DatagramsIn.Load(), "bytes_in", st.BytesIn.Load(),
			"datagrams_out", st.DatagramsOut.Load(), "bytes_out", st.BytesOut.Load(),
			"read_calls", ss.Reads.Load(), "write_calls", ss.Writes.Load())
	}
}

// timedGame is the game as a mission sees it, with the time spent in each
// of the mission's handlers and timers observed for the metrics.
type timedGame struct {
	*engine.Game
	m      *metrics.Metrics
	mode   string
	budget time.Duration
}

func (t timedGame) timed(fn func()) {
	start := time.Now()
	fn()
	t.m.ObserveLua(t.mode, time.Since(start), t.budget)
}

func (t timedGame) On(name string, fn engine.Handler) func() {
	return t.Game.On(name, func(ev engine.Event) { t.timed(func() { fn(ev) }) })
}

func (t timedGame) After(d time.Duration, fn func()) func() {
	return t.Game.After(d, func() { t.timed(fn) })
}

func (t timedGame) Every(d time.Duration, fn func()) func() {
	return t.Game.Every(d, func() { t.timed(fn) })
}

var _ lua.Engine = timedGame{}
