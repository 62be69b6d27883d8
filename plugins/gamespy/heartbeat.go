package gamespy

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
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
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// HeartbeatOptions configures a [Heartbeater].
type HeartbeatOptions struct {
	// Masters lists the master servers as "host" or "host:port"; the port
	// defaults to [DefaultMasterPort]. The original Activision master is
	// gone, so there is no built-in default (gamespy.md 4, item 3).
	Masters []string
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
	// Port is the value sent as `\heartbeat\<p>`. The stock server sends 0
	// and the master queries the heartbeat's source address instead
	// (gamespy.md 4, item 1).
	Port int
	// Resolve looks up master host names; nil means net.DefaultResolver
	// (IPv4 only, like the stock server).
	Resolve Resolver
	// Logger receives one line when heartbeats start, stop or fail to
	// resolve; nil means slog.Default().
	Logger *slog.Logger
}

// Heartbeater schedules the heartbeats to the master servers. It owns no
// socket: the caller asks [Heartbeater.Next] on every tick and sends the
// bytes it returns to every address from [Heartbeater.Targets], from the
// game socket, because masters verify a server by querying the heartbeat's
// source address (gamespy.md 4, item 2). It is safe for concurrent use.
//
// Schedule (gamespy.md 4): the first heartbeat is due at once, then one
// every Interval. After MaxRepeats periodic heartbeats it falls silent
// (or slows to IdleInterval) until [Heartbeater.MarkStateChanged] re-arms
// it; that state-change heartbeat is due at once, carries
// `\statechanged\1`, and starts a new run of repeats. [Heartbeater.Shutdown]
// builds the goodbye heartbeat.
type Heartbeater struct {
	masters    []master
	interval   time.Duration
	maxRepeats int
	idle       time.Duration
	port       int
	resolve    Resolver
	log        *slog.Logger

	mu      sync.Mutex
	started bool
	pending bool // a state change awaits its heartbeat
	stopped bool // Shutdown was called
	quiet   bool // repeats used up; logged once
	last    time.Time
	repeats int
}

type master struct {
	spec string // as configured, for messages
	host string
	port uint16
	addr netip.Addr // set when host is a literal address
}

// NewHeartbeater checks the options and returns a Heartbeater. A master
// entry that cannot be parsed is an error naming it.
func NewHeartbeater(opts HeartbeatOptions) (*Heartbeater, error) {
	h := &Heartbeater{
		interval:   opts.Interval,
		maxRepeats: opts.MaxRepeats,
		idle:       opts.IdleInterval,
		port:       opts.Port,
		resolve:    opts.Resolve,
		log:        opts.Logger,
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

func parseMaster(spec string) (master, error) {
	s := strings.TrimSpace(spec)
	m := master{spec: spec, host: s, port: DefaultMasterPort}
	if s == "" {
		return m, errors.New("empty address")
	}
	if strings.Contains(s, ":") {
		host, port, err := net.SplitHostPort(s)
		if err != nil {
			return m, err
		}
		p, err := strconv.ParseUint(port, 10, 16)
		if err != nil || p == 0 {
			return m, fmt.Errorf("bad port %q", port)
		}
		m.host, m.port = host, uint16(p)
	}
	if m.host == "" {
		return m, errors.New("empty host")
	}
	if a, err := netip.ParseAddr(m.host); err == nil {
		m.addr = a.Unmap()
	}
	return m, nil
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

// Due reports whether a heartbeat should be sent at now.
func (h *Heartbeater) Due(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.due(now)
}

func (h *Heartbeater) due(now time.Time) bool {
	switch {
	case h.stopped || len(h.masters) == 0:
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

// Next returns the heartbeat to send at now, or nil when none is due, and
// records it as sent.
func (h *Heartbeater) Next(now time.Time) []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.due(now) {
		return nil
	}
	state := 0
	if h.pending {
		state = StateChanged
	}
	if !h.started || h.pending {
		// The first heartbeat and a state-change heartbeat start a new run
		// of repeats.
		if !h.started || h.quiet {
			h.log.Info("heartbeats to masters", "masters", len(h.masters), "statechanged", state)
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
	return AppendHeartbeat(nil, h.port, state)
}

// Shutdown returns the goodbye heartbeat (`\statechanged\2`) and stops the
// schedule. It returns nil if no heartbeat was ever sent, since the masters
// do not know the server then.
func (h *Heartbeater) Shutdown() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil
	}
	h.stopped = true
	if !h.started || len(h.masters) == 0 {
		return nil
	}
	return AppendHeartbeat(nil, h.port, StateExiting)
}

// Targets resolves the configured masters to the addresses to send
// heartbeats to, in configuration order without duplicates. Literal
// addresses need no lookup. Masters that fail to resolve are left out and
// reported in the joined error; the others are still returned. Run it
// with a deadline and outside the game loop if names need DNS.
func (h *Heartbeater) Targets(ctx context.Context) ([]netip.AddrPort, error) {
	out := make([]netip.AddrPort, 0, len(h.masters))
	var errs []error
	add := func(ap netip.AddrPort) {
		for _, o := range out {
			if o == ap {
				return
			}
		}
		out = append(out, ap)
	}
	for _, m := range h.masters {
		if m.addr.IsValid() {
			add(netip.AddrPortFrom(m.addr, m.port))
			continue
		}
		addrs, err := h.resolve(ctx, m.host)
		if err == nil && len(addrs) == 0 {
			err = errors.New("no addresses")
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("resolving master %q: %w", m.spec, err))
			continue
		}
		// The stock server uses the first address of the lookup.
		add(netip.AddrPortFrom(addrs[0].Unmap(), m.port))
	}
	err := errors.Join(errs...)
	if err != nil {
		h.log.Warn("resolving masters", "err", err)
		err = fmt.Errorf("plugin/gamespy: %w", err)
	}
	return out, err
}

// AppendHeartbeat appends `\heartbeat\<port>\gamename\bcommander`, plus
// `\statechanged\<state>` when state is not 0, to dst (gamespy.md 4).
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
