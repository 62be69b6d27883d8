// Package metrics exports a running server's numbers to Prometheus
// (client_golang): players, datagrams and bytes, drops by reason,
// retransmits, round trips, tick and relay timings, mission handler time,
// reloads, GameSpy queries and the Go runtime. Names follow the Prometheus
// conventions under the bcserver_ prefix; labels are few and bounded
// (reason, mission, result), never a player name.
//
// Most figures are counters the game already keeps; a scrape reads them
// through one short call on the game goroutine (Server.Do), so the tick
// loop pays nothing between scrapes. Timings are observed where they
// happen (engine.Observer) into lock-free histograms.
package metrics

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/bcserver/bcserver/engine"
)

// Options configures New.
type Options struct {
	// Server is the running server the numbers come from.
	Server *engine.Server
	// Gamespy, if set, returns the GameSpy responder's counters.
	Gamespy func() (queries, rateLimited uint64)
	// StoreDropped, if set, returns the store's dropped and failed writes.
	StoreDropped func() (dropped, failed uint64)
	// Webhook, if set, returns the webhook sender's counts (one game of
	// the process reports them: the sender is the process's).
	Webhook func() (sent, failed, dropped, retried uint64)
	// RecordDropped, if set, returns the blocks and records the match
	// recorder dropped.
	RecordDropped func() (blocks, records uint64)
	// ChatDropped, if set, returns the chat lines not recorded for being
	// over their player's allowance.
	ChatDropped func() uint64
	// Mission returns the running mission's name (for the lua labels).
	Mission func() string
	Logger  *slog.Logger
	// Registry, when set, is shared by the games of one process: each
	// game's Metrics registers its series there with a game label (Game),
	// and the caller registers the Go and process collectors once. nil
	// gives this Metrics a registry of its own with those collectors.
	Registry *Registry
	// Game labels every series of this game (game="22101") in a shared
	// Registry; empty for none.
	Game string
}

// Metrics is the engine plugin and the Prometheus registry behind
// /metrics.
type Metrics struct {
	opts Options
	log  *slog.Logger
	reg  *Registry

	tick, batch, rtt prometheus.Histogram
	recvDelay        prometheus.Histogram
	luaTime          *prometheus.HistogramVec
	luaOverruns      *prometheus.CounterVec
	reloads          *prometheus.CounterVec
	leaves           *prometheus.CounterVec
	ended            *prometheus.CounterVec
	adminActions     *prometheus.CounterVec
	offs             []func()
	departed         transport // counters of connections that closed (game goroutine)
	snapMu           sync.Mutex
	last             snapshot
	snapshotTimeout  time.Duration
}

// New builds the registry. Add the Metrics to the game with AddPlugin and
// serve Handler.
func New(opts Options) *Metrics {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Mission == nil {
		opts.Mission = func() string { return "" }
	}
	m := &Metrics{opts: opts, log: log.With("component", "plugin/metrics"), reg: opts.Registry, snapshotTimeout: 2 * time.Second}
	if m.reg == nil {
		m.reg = NewRegistry()
	}
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "bcserver_tick_duration_seconds", Help: "Time one game-loop pass with game ticks took (missions, simulation, StateUpdates, transport timers).",
		Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25},
	})
	m.batch = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "bcserver_relay_latency_seconds", Help: "Time from taking received datagrams off the socket queue to the flush that sends what they caused (relays, answers).",
		Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .05},
	})
	m.recvDelay = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "bcserver_receive_delay_seconds", Help: "Time the oldest datagram of a batch waited in the socket before its game read it (Linux): grows when the process lacks CPU.",
		Buckets: []float64{.00001, .000025, .00005, .0001, .00025, .0005, .001, .0025, .005, .01, .05},
	})
	m.rtt = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "bcserver_rtt_seconds", Help: "Players' smoothed round-trip times, sampled once a second per in-game player.",
		Buckets: []float64{.005, .01, .025, .05, .075, .1, .15, .2, .3, .5, 1, 2},
	})
	m.luaTime = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "bcserver_lua_handler_seconds", Help: "Time the mission spent handling one engine event or timer.",
		Buckets: []float64{.00001, .00005, .0001, .0005, .001, .005, .01, .025, .05, .1},
	}, []string{"mission"})
	m.luaOverruns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bcserver_lua_budget_overruns_total", Help: "Mission calls that ran up to their time budget (and were aborted).",
	}, []string{"mission"})
	m.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bcserver_mission_reloads_total", Help: "Mission reloads by outcome (ok, error).",
	}, []string{"mission", "result"})
	m.leaves = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bcserver_player_leaves_total", Help: "Players that left the game, by reason (quit, timeout, kicked, overflow, shutdown).",
	}, []string{"reason"})
	m.ended = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bcserver_matches_ended_total", Help: "Matches ended by END_GAME, by reason.",
	}, []string{"reason"})
	m.adminActions = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bcserver_admin_actions_total", Help: "Mutating admin API calls, by action.",
	}, []string{"action"})
	var labels prometheus.Labels
	if opts.Game != "" {
		labels = prometheus.Labels{"game": opts.Game}
	}
	m.reg.add(labels, m.tick, m.batch, m.recvDelay, m.rtt, m.luaTime, m.luaOverruns, m.reloads, m.leaves, m.ended, m.adminActions, collector{m})
	return m
}

// Registry returns the registry to serve (promhttp.HandlerFor).
func (m *Metrics) Registry() *Registry { return m.reg }

// Name implements engine.Plugin.
func (m *Metrics) Name() string { return "metrics" }

// Start implements engine.Plugin: it installs the loop observer and keeps
// the counters of closing connections.
func (m *Metrics) Start(g *engine.Game) error {
	g.SetObserver(observer{m})
	m.offs = append(m.offs,
		g.On(engine.EvPlayerLeft, func(ev engine.Event) {
			e := ev.(*engine.PlayerLeft)
			m.departed.add(e.Player.TransportStats())
			if e.WasInGame {
				m.leaves.WithLabelValues(string(e.Reason)).Inc()
			}
		}),
		g.On(engine.EvGameEnded, func(ev engine.Event) {
			m.ended.WithLabelValues(ev.(*engine.GameEnded).ReasonName()).Inc()
		}),
		g.Every(time.Second, func() {
			for _, p := range g.Players() {
				if d, ok := p.RTT(); ok && p.InGame() {
					m.rtt.Observe(d.Seconds())
				}
			}
		}),
	)
	return nil
}

// Stop implements engine.Plugin.
func (m *Metrics) Stop(g *engine.Game) {
	g.SetObserver(nil)
	for _, off := range m.offs {
		off()
	}
	m.offs = nil
}

// ObserveLua records one call into the mission; an overrun is a call that
// took its whole budget.
func (m *Metrics) ObserveLua(mission string, d, budget time.Duration) {
	m.luaTime.WithLabelValues(mission).Observe(d.Seconds())
	if budget > 0 && d >= budget {
		m.luaOverruns.WithLabelValues(mission).Inc()
	}
}

// Reloaded counts a mission reload and its outcome.
func (m *Metrics) Reloaded(mission string, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.reloads.WithLabelValues(mission, result).Inc()
}

// AdminAction counts a mutating admin call.
func (m *Metrics) AdminAction(action string) { m.adminActions.WithLabelValues(action).Inc() }

type observer struct{ m *Metrics }

func (o observer) TickDone(d time.Duration)  { o.m.tick.Observe(d.Seconds()) }
func (o observer) BatchDone(d time.Duration) { o.m.batch.Observe(d.Seconds()) }
func (o observer) ReceiveDelay(d time.Duration) {
	o.m.recvDelay.Observe(d.Seconds())
}

// snapshotNow reads what lives on the game goroutine; on failure (the
// server stopped) the last snapshot stands.
func (m *Metrics) snapshotNow() snapshot {
	// /metrics needs no token: scrapes take their snapshots one at a
	// time, so a flood of them has at most one call queued on the game
	// goroutine.
	m.snapMu.Lock()
	defer m.snapMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), m.snapshotTimeout)
	defer cancel()
	var s snapshot
	err := m.opts.Server.Do(ctx, func(g *engine.Game) { s = m.take(g) })
	if err != nil {
		m.log.Debug("snapshot failed, serving the last one", "err", err)
		return m.last
	}
	m.last = s
	return s
}

// SetGamespy sets the source of the GameSpy counters (before the first
// scrape).
func (m *Metrics) SetGamespy(fn func() (queries, rateLimited uint64)) { m.opts.Gamespy = fn }

// SetStore sets the source of the store's dropped and failed writes.
func (m *Metrics) SetStore(fn func() (dropped, failed uint64)) { m.opts.StoreDropped = fn }

// SetWebhook sets the source of the webhook sender's counts.
func (m *Metrics) SetWebhook(fn func() (sent, failed, dropped, retried uint64)) { m.opts.Webhook = fn }

// SetRecord sets the source of the recorder's dropped blocks and records.
func (m *Metrics) SetRecord(fn func() (blocks, records uint64)) { m.opts.RecordDropped = fn }

// SetRecordChat sets Options.ChatDropped (before the first scrape).
func (m *Metrics) SetRecordChat(fn func() uint64) { m.opts.ChatDropped = fn }
