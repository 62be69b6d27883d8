package gamespy

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/bcserver/bcserver/internal/browse"
)

// Heartbeat defaults (gamespy.md 4).
const (
	// DefaultMasterPort is the master servers' UDP heartbeat port.
	DefaultMasterPort = 27900
	// DefaultHeartbeatInterval is the pace of repeated heartbeats.
	DefaultHeartbeatInterval = 30 * time.Second
	// DefaultHeartbeatRepeats is how many periodic heartbeats follow the
	// first one (or a state change) before the stock server falls silent.
	DefaultHeartbeatRepeats = 10
)

// Values of `\statechanged\`.
const (
	// StateChanged marks a heartbeat sent because the player list, the map
	// or the game state changed (gamespy.md 4, the captured heartbeat).
	StateChanged = 1
	// StateExiting marks the goodbye heartbeat. gamespy.md only says a
	// final heartbeat is sent at shutdown; the GameSpy QR SDK's
	// qr_send_exiting sends `\statechanged\2`, which masters take as
	// "remove me", so that is what we send.
	StateExiting = 2
)

// Resolver looks up the addresses of a master host name. Tests pass a fake
// one so they need no DNS; net.DefaultResolver is used when none is given.
// It must return when ctx ends.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// HeartbeatOptions configures a [Heartbeater].
type HeartbeatOptions struct {
	// Masters lists the master servers as "host" or "host:port"; the port
	// defaults to [DefaultMasterPort]. The original Activision master is
	// gone, so there is no built-in default (gamespy.md 4, item 3).
	Masters []string
	// GamePort is the UDP port of the game the heartbeats announce; see
	// [HeartbeatPort] for what goes on the wire. 0 means the stock 22101.
	GamePort int
	// Interval is the time between periodic heartbeats (default
	// [DefaultHeartbeatInterval]).
	Interval time.Duration
	// MaxRepeats is how many periodic heartbeats follow the first one or a
	// state change (default [DefaultHeartbeatRepeats]). The stock SDK stops
	// after that many unless a state change re-arms it (gamespy.md 4).
	// Negative means never stop.
	MaxRepeats int
	// IdleInterval, when positive, keeps heartbeats going at this slower
	// pace once MaxRepeats are used up, instead of stopping. gamespy.md
	// describes the stop, so 0 (stop) is the default; the GameSpy QR SDK
	// itself falls back to one heartbeat every 5 minutes, which keeps the
	// server on masters that expire silent entries.
	IdleInterval time.Duration
	// Resolve looks up master host names; nil means net.DefaultResolver
	// (IPv4 only, like the stock server).
	Resolve Resolver
	// Logger receives one line when heartbeats start or stop, when a master
	// is resolved, and when a master's name first fails to resolve; nil
	// means slog.Default(). The Heartbeater adds component=plugin/gamespy.
	Logger *slog.Logger
}

// HeartbeatPort is the port a server listening on gamePort puts in
// `\heartbeat\<p>`: 0 on the stock port 22101, so a stock-port server
// sends the stock bytes, and the game port itself otherwise. The
// 333networks master lists and queries `<heartbeat source ip>:<p>`, reading
// 0 as 22101, so a server on another port that sent 0 would be listed at
// the wrong port (gamespy.md 4, interop fact). gamePort 0 (unknown) is
// taken as the stock port.
func HeartbeatPort(gamePort int) int {
	if gamePort == browse.DefaultGamePort {
		return 0
	}
	return gamePort
}

// Heartbeater schedules the heartbeats of one game to the master servers
// and keeps the masters' addresses. It owns no socket and reads no clock:
// the caller passes the time, sends the bytes from [Heartbeater.Next] to the
// addresses it returns from the game socket — masters verify a server by
// querying the heartbeat's source address (gamespy.md 4, item 2) — and
// looks host names up off the game loop ([Heartbeater.ResolveDue],
// [Heartbeater.Resolved]; [Heartbeater.Resolve] does both in one call). It
// is safe for concurrent use. A process running several games runs one
// Heartbeater per game, each with its own GamePort.
//
// Schedule (gamespy.md 4): the first heartbeat is due as soon as a master
// address is known — a name still being resolved holds it back rather
// than using it up — then one every Interval. After MaxRepeats periodic
// heartbeats it falls silent (or slows to IdleInterval) until
// [Heartbeater.MarkStateChanged] re-arms it; that state-change heartbeat is
// due at once, carries `\statechanged\1`, and starts a new run of repeats.
// A master whose address becomes known later (a slow or failed lookup that
// succeeds on a retry, or a master that moved) gets a heartbeat at once
// without disturbing the others' schedule. [Heartbeater.Shutdown] builds
// the goodbye heartbeat.
type Heartbeater struct {
	interval   time.Duration
	maxRepeats int
	idle       time.Duration
	port       int
	resolve    Resolver
	log        *slog.Logger

	mu      sync.Mutex
	masters []master
	started bool
	pending bool // a state change awaits its heartbeat
	stopped bool // Shutdown was called
	quiet   bool // repeats used up; logged once
	last    time.Time
	repeats int
}

// NewHeartbeater checks the options and returns a Heartbeater. A master
// entry that cannot be parsed is an error naming it.
func NewHeartbeater(opts HeartbeatOptions) (*Heartbeater, error) {
	h := &Heartbeater{
		interval:   opts.Interval,
		maxRepeats: opts.MaxRepeats,
		idle:       opts.IdleInterval,
		port:       HeartbeatPort(opts.GamePort),
		resolve:    opts.Resolve,
		log:        opts.Logger,
	}
	if opts.GamePort < 0 || opts.GamePort > 65535 {
		return nil, fmt.Errorf("plugin/gamespy: game port %d: want 0..65535", opts.GamePort)
	}
	if h.interval <= 0 {
		h.interval = DefaultHeartbeatInterval
	}
	if h.maxRepeats == 0 {
		h.maxRepeats = DefaultHeartbeatRepeats
	}
	if h.resolve == nil {
		h.resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip4", host)
		}
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.log = h.log.With("component", "plugin/gamespy")
	for _, spec := range opts.Masters {
		m, err := parseMaster(spec)
		if err != nil {
			return nil, fmt.Errorf("plugin/gamespy: master %q: %w", spec, err)
		}
		h.masters = append(h.masters, m)
	}
	return h, nil
}

// MarkStateChanged records a join, leave, map change or game-state change:
// the next heartbeat is due at once, carries `\statechanged\1`, and re-arms
// the repeats (gamespy.md 4). Several changes before the next heartbeat
// share it.
func (h *Heartbeater) MarkStateChanged() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pending = true
}

// Due reports whether a scheduled heartbeat should be sent at now. It is
// false while no master address is known.
func (h *Heartbeater) Due(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.due(now)
}

func (h *Heartbeater) due(now time.Time) bool {
	switch {
	case h.stopped || !h.anyAddr():
		return false
	case !h.started || h.pending:
		return true
	case h.maxRepeats < 0 || h.repeats < h.maxRepeats:
		return now.Sub(h.last) >= h.interval
	case h.idle > 0:
		return now.Sub(h.last) >= h.idle
	default:
		return false
	}
}

// Next returns the heartbeat to send at now and the master addresses to
// send it to, or nil when none is due, and records it as sent. A scheduled
// heartbeat goes to every known master; between them, a master whose
// address has just become known gets a plain heartbeat of its own.
func (h *Heartbeater) Next(now time.Time) (b []byte, to []netip.AddrPort) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil, nil
	}
	if !h.due(now) {
		if !h.started {
			return nil, nil
		}
		to = h.addrs(func(m *master) bool { return !m.greeted })
		if len(to) == 0 {
			return nil, nil
		}
		h.greet(to)
		return AppendHeartbeat(nil, h.port, 0), to
	}
	state := 0
	if h.pending {
		state = StateChanged
	}
	if !h.started || h.pending {
		// The first heartbeat and a state-change heartbeat start a new run
		// of repeats.
		if !h.started || h.quiet {
			h.log.Info("heartbeats to masters", "masters", len(h.masters), "port", h.port, "statechanged", state)
		}
		h.repeats = 0
		h.quiet = false
	} else {
		h.repeats++
		if h.maxRepeats >= 0 && h.repeats == h.maxRepeats && !h.quiet {
			h.quiet = true
			if h.idle > 0 {
				h.log.Info("heartbeat repeats used up; slowing down until the next state change", "every", h.idle)
			} else {
				h.log.Info("heartbeat repeats used up; silent until the next state change")
			}
		}
	}
	h.started = true
	h.pending = false
	h.last = now
	to = h.addrs(nil)
	h.greet(to)
	return AppendHeartbeat(nil, h.port, state), to
}

// Shutdown returns the goodbye heartbeat (`\statechanged\2`) and the
// masters to send it to, and stops the schedule. Only masters that had a
// heartbeat are told, since the others do not know the server.
func (h *Heartbeater) Shutdown() (b []byte, to []netip.AddrPort) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil, nil
	}
	h.stopped = true
	to = h.addrs(func(m *master) bool { return m.greeted })
	if len(to) == 0 {
		return nil, nil
	}
	return AppendHeartbeat(nil, h.port, StateExiting), to
}

// AppendHeartbeat appends `\heartbeat\<port>\gamename\bcommander`, plus
// `\statechanged\<state>` when state is not 0, to dst (gamespy.md 4). port
// is the value on the wire; see [HeartbeatPort].
func AppendHeartbeat(dst []byte, port, state int) []byte {
	dst = append(dst, `\heartbeat\`...)
	dst = strconv.AppendInt(dst, int64(port), 10)
	dst = append(dst, `\gamename\`...)
	dst = append(dst, GameName...)
	if state != 0 {
		dst = append(dst, `\statechanged\`...)
		dst = strconv.AppendInt(dst, int64(state), 10)
	}
	return dst
}
