// Package loadgen is the load tool behind `bcbot -bots` and `make
// loadtest`: N games × M simulated players × a message rate against any
// list of server addresses, optionally through the lossy proxy. It reports
// what matters when comparing servers: delivered %, relay latency, server
// CPU per relayed copy, RSS, and each game's tick rate, measured from the
// outside so the same figures come out for any implementation.
//
// The generator shares the machine with the server, so it is built to be
// cheap: one goroutine per bot that sleeps in its socket read until a
// datagram or its next timer, ACKs batched per AckDelay (as a stock client
// batches per network tick), no channels or locks on the hot path, and
// latency histograms instead of sample lists. Its own CPU time is reported
// next to the server's.
package loadgen

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/lossy"
)

// Config is one load run.
type Config struct {
	// Servers are the games, one address each.
	Servers []netip.AddrPort
	// Bots joins this many players to every game.
	Bots int
	// Rate is the relayed messages each bot sends a second.
	Rate float64
	// Duration is the measured sending time.
	Duration time.Duration
	// Warmup follows the join and the ship creation, before measuring
	// (default 1 s).
	Warmup time.Duration
	// Drain is the longest wait for stragglers after sending (default 3 s).
	Drain time.Duration
	// JoinTimeout bounds the joining of every bot (default 60 s).
	JoinTimeout time.Duration
	// JoinRate is how many bots start joining per second (default 200),
	// so the joins do not arrive as one burst.
	JoinRate float64
	// StateUpdates adds an unreliable StateUpdate to every message, as
	// clients send.
	StateUpdates bool
	// Chat sends chat lines (0x2C) instead of StartFiring events.
	Chat bool
	// AckDelay is how long a bot may hold its ACKs (default 20 ms).
	AckDelay time.Duration
	// Loss puts a lossy proxy in front of every server, dropping this
	// fraction of datagrams each way; Blackout cuts every link for that
	// long, BlackoutAt into the sending.
	Loss       float64
	Blackout   time.Duration
	BlackoutAt time.Duration
	// BlackoutDown cuts only the server-to-client direction: the server
	// holds the backlog, so the report shows its recovery alone.
	BlackoutDown bool
	Seed         uint64
	Password     string
	Manifest     *checksum.Manifest
	// Flood, if set, is sent at the first game while the bots send.
	Flood *Flood
	// Pids are the server processes whose CPU and RSS are reported.
	Pids   []int
	Logger *slog.Logger
}

type gameRun struct {
	idx    int
	server netip.AddrPort
	target netip.AddrPort // the proxy's address with loss, else the server
	proxy  *lossy.Proxy
	bots   []*lbot
}

type runner struct {
	cfg           Config
	period        time.Duration
	t0            time.Time
	phase         atomic.Int32
	sendStart     atomic.Int64
	measuring     atomic.Bool
	joined        atomic.Int64
	blackoutStart atomic.Int64
	blackoutEnd   atomic.Int64
	games         []*gameRun
	joiners       []*lbot
	floodSent     atomic.Int64
	floodErr      atomic.Pointer[error]
	wg            sync.WaitGroup // the bots' goroutines
	closeOnce     sync.Once
}

// Run joins the bots, runs the load and reports. The bots leave at the end.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if len(cfg.Servers) == 0 {
		return Report{}, errors.New("no server address")
	}
	if cfg.Bots < 2 {
		return Report{}, fmt.Errorf("need at least 2 bots per game, got %d", cfg.Bots)
	}
	if cfg.Bots > 16 {
		return Report{}, fmt.Errorf("%d bots per game: a game holds at most 16 players", cfg.Bots)
	}
	if !(cfg.Rate > 0) || math.IsInf(cfg.Rate, 0) {
		return Report{}, errors.New("rate must be positive")
	}
	if cfg.Warmup <= 0 {
		cfg.Warmup = time.Second
	}
	if cfg.Drain <= 0 {
		cfg.Drain = 3 * time.Second
	}
	if cfg.JoinTimeout <= 0 {
		cfg.JoinTimeout = 60 * time.Second
	}
	if cfg.JoinRate <= 0 {
		cfg.JoinRate = 200
	}
	if cfg.AckDelay <= 0 {
		cfg.AckDelay = 20 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Manifest == nil {
		m, err := checksum.Vanilla()
		if err != nil {
			return Report{}, err
		}
		cfg.Manifest = m
	}
	r := &runner{cfg: cfg, period: time.Duration(float64(time.Second) / cfg.Rate), t0: time.Now()}
	defer r.close()
	for i, s := range cfg.Servers {
		g := &gameRun{idx: i, server: s, target: s}
		if cfg.Loss > 0 || cfg.Blackout > 0 {
			lc := lossy.Config{Loss: cfg.Loss}
			p, err := lossy.New(lossy.Options{Upstream: s, Up: lc, Down: lc, Seed: cfg.Seed + uint64(i)*1000})
			if err != nil {
				return Report{}, err
			}
			g.proxy, g.target = p, p.Addr()
		}
		r.games = append(r.games, g)
	}
	var rep Report
	rep.Games, rep.BotsPerGame = len(r.games), cfg.Bots
	cpu0, rss0, err := sample(cfg.Pids)
	if err != nil {
		return rep, err
	}
	rep.RSSIdle = rss0
	wholeStart := time.Now()
	stopPeak := r.watchRSS(&rep.RSSPeak)
	defer stopPeak()
	if err := r.joinAll(ctx); err != nil {
		return rep, err
	}
	// Ships first: a StartFiring names the sender's ship.
	r.phase.Store(phShip)
	if err := sleep(ctx, cfg.Warmup); err != nil {
		return rep, err
	}
	_, rep.RSSJoined, err = sample(cfg.Pids)
	if err != nil {
		return rep, err
	}

	cpuA, _, err := sample(cfg.Pids)
	if err != nil {
		return rep, err
	}
	selfA, _ := processCPU("self")
	start := time.Now().Add(50 * time.Millisecond)
	r.sendStart.Store(start.UnixNano())
	measureStart := time.Now()
	r.measuring.Store(true)
	r.phase.Store(phSend)
	if cfg.Blackout > 0 {
		go r.blackout(ctx, start)
	}
	fctx, fcancel := context.WithCancel(ctx)
	defer fcancel()
	if cfg.Flood != nil {
		r.startFlood(fctx, start)
	}
	if err := sleep(ctx, time.Until(start.Add(cfg.Duration))); err != nil {
		return rep, err
	}
	r.measuring.Store(false)
	fcancel()
	sendEnd := time.Now()
	r.phase.Store(phDrain)
	r.drain(ctx)
	end := time.Now()
	cpuB, rssB, err := sample(cfg.Pids)
	if err != nil {
		return rep, err
	}
	selfB, _ := processCPU("self")
	stopPeak()
	rep.RSSEnd = rssB
	rep.RSSPeak = max(rep.RSSPeak, rssB)
	rep.ServerCPU = cpuB - cpuA
	rep.WholeCPU = cpuB - cpu0
	rep.Whole = end.Sub(wholeStart)
	rep.GeneratorCPU = selfB - selfA
	rep.Elapsed = end.Sub(start)
	rep.Sending = sendEnd.Sub(start)
	rep.measured = sendEnd.Sub(measureStart)
	r.close() // the bots' counters are theirs until they stop
	r.collect(&rep)
	return rep, nil
}

// watchRSS samples the servers' RSS every 50 ms into *peak until the
// returned func is called (it may be called more than once).
func (r *runner) watchRSS(peak *int64) (stop func()) {
	if len(r.cfg.Pids) == 0 {
		return func() {}
	}
	done := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			if _, rss, err := sample(r.cfg.Pids); err == nil && rss > *peak {
				*peak = rss
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { once.Do(func() { close(done); wg.Wait() }) }
}

// startFlood sends the flood at the first game and starts the joiners,
// evenly spread over the sending.
func (r *runner) startFlood(ctx context.Context, start time.Time) {
	f := *r.cfg.Flood
	g := r.games[0]
	go func() {
		if err := runFlood(ctx, &f, g.target, r.cfg.Seed+99, &r.floodSent); err != nil {
			r.floodErr.Store(&err)
		}
	}()
	if f.Joiners <= 0 {
		return
	}
	// The joiners exist before the bots' goroutines may be waited for.
	for k := 0; k < f.Joiners; k++ {
		b, err := newBot(r, g, r.cfg.Bots+k)
		if err != nil {
			continue
		}
		b.joiner = true
		r.joiners = append(r.joiners, b)
	}
	gap := r.cfg.Duration / time.Duration(f.Joiners+1)
	for k, b := range r.joiners {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			if sleep(ctx, time.Until(start.Add(time.Duration(k+1)*gap))) != nil {
				b.state.Store(stClosed)
				return
			}
			b.loop()
		}()
	}
}

// joinAll starts the bots at JoinRate and waits until every one is in
// its game.
func (r *runner) joinAll(ctx context.Context) error {
	total := len(r.games) * r.cfg.Bots
	gap := time.Duration(float64(time.Second) / r.cfg.JoinRate)
	deadline := time.Now().Add(r.cfg.JoinTimeout)
	for k := 0; k < r.cfg.Bots; k++ {
		for _, g := range r.games {
			b, err := newBot(r, g, k)
			if err != nil {
				return err
			}
			g.bots = append(g.bots, b)
			r.wg.Add(1)
			go func() { defer r.wg.Done(); b.loop() }()
			if err := sleep(ctx, gap); err != nil {
				return err
			}
		}
	}
	for r.joined.Load() < int64(total) {
		if time.Now().After(deadline) {
			return fmt.Errorf("joining: %d of %d bots in their games after %v%s", r.joined.Load(), total, r.cfg.JoinTimeout, r.firstError())
		}
		if err := r.firstErr(); err != nil {
			return fmt.Errorf("joining: %w", err)
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) firstErr() error {
	for _, g := range r.games {
		for _, b := range g.bots {
			if b.state.Load() == stClosed && b.err != nil {
				return fmt.Errorf("game %s bot %d: %w", g.server, b.idx, b.err)
			}
		}
	}
	return nil
}

func (r *runner) firstError() string {
	if err := r.firstErr(); err != nil {
		return " (" + err.Error() + ")"
	}
	return ""
}

// drain waits until every expected copy arrived and every flood joiner is
// in (or gave up), or the drain time ran out: a joiner started late in the
// sending still gets the drain time to finish its join. Bots write their
// counters on their own goroutines, so the totals are only read once they
// stop; the wait polls a cheap approximation.
func (r *runner) drain(ctx context.Context) {
	end := time.Now().Add(r.cfg.Drain)
	for time.Now().Before(end) {
		var sent, got int64
		for _, g := range r.games {
			for _, b := range g.bots {
				sent += b.sent.Load()
				got += b.delivered.Load()
			}
		}
		if got >= sent*int64(r.cfg.Bots-1) && r.joinersDone() {
			return
		}
		if sleep(ctx, 50*time.Millisecond) != nil {
			return
		}
	}
}

// joinersDone reports whether every flood joiner got in or stopped.
func (r *runner) joinersDone() bool {
	for _, b := range r.joiners {
		if !b.reached.Load() && b.state.Load() != stClosed {
			return false
		}
	}
	return true
}

func (r *runner) blackout(ctx context.Context, start time.Time) {
	if sleep(ctx, time.Until(start.Add(r.cfg.BlackoutAt))) != nil {
		return
	}
	r.blackoutStart.Store(time.Now().UnixNano())
	r.blackoutEnd.Store(math.MaxInt64)
	for _, g := range r.games {
		g.proxy.SetBlackouts(!r.cfg.BlackoutDown, true)
	}
	if sleep(ctx, r.cfg.Blackout) != nil {
		return
	}
	for _, g := range r.games {
		g.proxy.SetBlackouts(false, false)
	}
	r.blackoutEnd.Store(time.Now().UnixNano())
}

// close makes every bot leave and waits for them, then stops the proxies.
func (r *runner) close() {
	r.closeOnce.Do(func() {
		r.phase.Store(phQuit)
		r.wg.Wait()
		for _, g := range r.games {
			if g.proxy != nil {
				g.proxy.Close()
			}
		}
	})
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
