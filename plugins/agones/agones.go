// Package agones connects the server to Agones, the Kubernetes game-server
// orchestrator, through the SDK sidecar's local HTTP API (agones.dev,
// "REST Game Server Client API"): Ready once the game socket is open,
// Health on a timer while the game loop runs, PlayerConnect and PlayerDisconnect (the alpha player
// tracking) as players come and go, and Shutdown at the end of a match
// when the host asks for one match per game server.
//
// The sidecar is reached at http://localhost:$AGONES_SDK_HTTP_PORT. Calls
// never run on the game goroutine: the plugin queues them for a worker
// goroutine (a full queue drops player updates, never Ready or Shutdown),
// which retries Ready and Shutdown until the sidecar answers, since it may
// start after the game server.
package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// EnvPort is the environment variable Agones sets to the sidecar's HTTP
// port.
const EnvPort = "AGONES_SDK_HTTP_PORT"

// Options configures a Plugin.
type Options struct {
	// BaseURL is the sidecar, e.g. "http://localhost:9358".
	BaseURL string
	// HealthInterval is the time between Health calls (default 5 s; the
	// Fleet's health.periodSeconds should be larger).
	HealthInterval time.Duration
	// ShutdownAfterMatch calls Shutdown once a match ends (END_GAME), so
	// Agones replaces the game server with a fresh one.
	ShutdownAfterMatch bool
	// StartOnAllocation restarts the match when Agones allocates the game
	// server (GameServer state "Allocated"), so the match clock starts when
	// players are sent, not when the pod started; until then a match that
	// ends does not shut the server down. Without it an idle Ready server
	// shut itself down every time limit, and a late allocation got what
	// was left of the running match.
	StartOnAllocation bool
	// PollInterval is how often the GameServer's state is read while
	// waiting for the allocation (default 1 s).
	PollInterval time.Duration
	// RetryInterval is the wait between tries of Ready and Shutdown
	// (default 1 s).
	RetryInterval time.Duration
	// StallLimit withholds Health while the game loop has not run for this
	// long (default 2 s): a stuck loop is what Agones should replace, and
	// a timer of its own would report it healthy.
	StallLimit time.Duration
	// Now is the wall clock (tests); nil means time.Now.
	Now    func() time.Time
	Client *http.Client
	Logger *slog.Logger
}

// FromEnv returns the sidecar URL from AGONES_SDK_HTTP_PORT, and false
// when the variable is unset (not running under Agones).
func FromEnv() (string, bool, error) {
	v, ok := os.LookupEnv(EnvPort)
	if !ok || v == "" {
		return "", false, nil
	}
	port, err := strconv.Atoi(v)
	if err != nil || port < 1 || port > 65535 {
		return "", true, fmt.Errorf("%s=%q: want a port number", EnvPort, v)
	}
	return "http://localhost:" + strconv.Itoa(port), true, nil
}

// Plugin is the engine plugin.
type Plugin struct {
	opts Options
	log  *slog.Logger
	q    chan call
	offs []func()

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// Ready reports whether the sidecar took Ready.
	ready atomic.Bool
	// Dropped counts player updates dropped because the queue was full.
	Dropped atomic.Uint64

	// beat is when the game loop last ran the plugin's timer (unix ns);
	// stalled is set while Health is withheld (health goroutine only).
	beat    atomic.Int64
	stalled bool

	g         engine.API
	allocated atomic.Bool
	allocCh   chan struct{} // closed at the allocation
}

// beatInterval is how often the game loop marks itself alive for Health.
const beatInterval = 250 * time.Millisecond

type call struct {
	path  string
	body  any
	retry bool
}

// New returns the plugin.
func New(opts Options) *Plugin {
	if opts.HealthInterval <= 0 {
		opts.HealthInterval = 5 * time.Second
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = time.Second
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.StallLimit <= 0 {
		opts.StallLimit = 2 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 5 * time.Second}
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Plugin{opts: opts, log: log.With("component", "plugin/agones"), q: make(chan call, 256), allocCh: make(chan struct{})}
}

// Allocated is closed once Agones allocated the game server (with
// StartOnAllocation).
func (p *Plugin) Allocated() <-chan struct{} { return p.allocCh }

// Name implements engine.Plugin.
func (p *Plugin) Name() string { return "agones" }

// Ready reports whether the sidecar acknowledged Ready.
func (p *Plugin) Ready() bool { return p.ready.Load() }

// Start implements engine.Plugin. The server's socket is bound before the
// plugins start, so Ready goes first.
func (p *Plugin) Start(g engine.API) error {
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.beat.Store(p.opts.Now().UnixNano())
	p.offs = append(p.offs, g.Every(beatInterval, func() { p.beat.Store(p.opts.Now().UnixNano()) }))
	p.g = g
	p.q <- call{path: "/ready", body: struct{}{}, retry: true}
	p.wg.Add(2)
	go p.worker()
	go p.health()
	if p.opts.StartOnAllocation {
		p.wg.Go(p.watchAllocation)
	}
	p.offs = append(p.offs,
		g.On(engine.EvPlayerInGame, func(ev engine.Event) {
			p.player("/alpha/player/connect", ev.(*engine.PlayerInGame).Player)
		}),
		g.On(engine.EvPlayerLeft, func(ev engine.Event) {
			if e := ev.(*engine.PlayerLeft); e.WasInGame {
				p.player("/alpha/player/disconnect", e.Player)
			}
		}),
	)
	if p.opts.ShutdownAfterMatch {
		p.offs = append(p.offs, g.On(engine.EvGameEnded, func(engine.Event) {
			if p.opts.StartOnAllocation && !p.allocated.Load() {
				p.log.Info("match over before Agones allocated this game server: not shutting down")
				return
			}
			p.log.Info("match over: asking Agones to shut this game server down")
			select {
			case p.q <- call{path: "/shutdown", body: struct{}{}, retry: true}:
			default:
				p.log.Error("sidecar queue full: Shutdown not sent")
			}
		}))
	}
	return nil
}

// playerID is the id a player is tracked under: the player name, which is
// what a host or matchmaker knows the player by (stock clients carry no
// other identity).
func (p *Plugin) player(path string, pl *engine.Player) {
	id := pl.Name
	if id == "" {
		id = "player-" + strconv.Itoa(int(pl.ID))
	}
	select {
	case p.q <- call{path: path, body: map[string]string{"playerID": id}}:
	default:
		p.Dropped.Add(1)
	}
}

// Stop implements engine.Plugin: the queued calls are sent (bounded by
// the client timeout each), then the worker ends.
func (p *Plugin) Stop(engine.API) {
	for _, off := range p.offs {
		off()
	}
	p.offs = nil
	close(p.q)
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.log.Warn("sidecar calls still pending at shutdown, giving up")
	}
	p.cancel()
}

func (p *Plugin) worker() {
	defer p.wg.Done()
	for c := range p.q {
		for try := 1; ; try++ {
			err := p.post(c.path, c.body)
			if err == nil {
				if c.path == "/ready" {
					p.ready.Store(true)
					p.log.Info("ready: Agones may send players")
				}
				break
			}
			if !c.retry || p.ctx.Err() != nil {
				p.log.Warn("sidecar call failed", "path", c.path, "err", err)
				break
			}
			if try == 1 || try%30 == 0 {
				p.log.Warn("sidecar call failed, retrying", "path", c.path, "try", try, "err", err)
			}
			select {
			case <-time.After(p.opts.RetryInterval):
			case <-p.ctx.Done():
			}
		}
	}
	// Health stops with the worker.
	p.cancel()
}

func (p *Plugin) health() {
	defer p.wg.Done()
	t := time.NewTicker(p.opts.HealthInterval)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.healthTick()
		}
	}
}

// healthTick sends Health if the game loop ran within StallLimit, and
// reports whether it did (health goroutine).
func (p *Plugin) healthTick() bool {
	since := p.opts.Now().Sub(time.Unix(0, p.beat.Load()))
	if since > p.opts.StallLimit {
		if !p.stalled {
			p.stalled = true
			p.log.Error("game loop stuck: Health withheld, so Agones replaces this game server", "stuck_for", since.Round(time.Millisecond))
		}
		return false
	}
	if p.stalled {
		p.stalled = false
		p.log.Warn("game loop running again: Health resumed")
	}
	if err := p.post("/health", struct{}{}); err != nil {
		p.log.Debug("health call failed", "err", err)
	}
	return true
}

// watchAllocation reads the GameServer's state every PollInterval once
// Ready went through, until it is allocated (its own goroutine).
func (p *Plugin) watchAllocation() {
	t := time.NewTicker(p.opts.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-p.ctx.Done():
			return
		case <-t.C:
			if p.ready.Load() && p.checkAllocation() {
				return
			}
		}
	}
}

// checkAllocation reads the GameServer's state once; at the allocation it
// has the game restart (a fresh match: the clock from zero) and reports
// true.
func (p *Plugin) checkAllocation() bool {
	if p.allocated.Load() {
		return true
	}
	var gs struct {
		Status struct {
			State string `json:"state"`
		} `json:"status"`
	}
	if err := p.get("/gameserver", &gs); err != nil {
		p.log.Debug("reading the game server's state", "err", err)
		return false
	}
	if gs.Status.State != "Allocated" {
		return false
	}
	g := p.g
	if !g.Post(func() {
		p.log.Info("allocated by Agones: a fresh match starts now")
		g.RestartGame()
	}) {
		return false // the game's queue is full: the next poll tries again
	}
	p.allocated.Store(true)
	close(p.allocCh)
	return true
}

// get reads a sidecar resource as JSON into out.
func (p *Plugin) get(path string, out any) error {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.opts.BaseURL+path, nil)
	if err != nil {
		return err
	}
	resp, err := p.opts.Client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(out); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

func (p *Plugin) post(path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.opts.BaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.opts.Client.Do(req)
	if err != nil {
		return fmt.Errorf("POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s: %w", path, resp.Status, errors.New(string(bytes.TrimSpace(msg))))
	}
	return nil
}
