package gamespy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Master name resolution. Lookups run off the game loop, so the schedule
// only ever sees their outcome; these bound how often they run.
const (
	// ResolveEvery is how often a resolved master name is looked up again,
	// so a master that moves is followed without a restart.
	ResolveEvery = 10 * time.Minute
	// ResolveRetryMin and ResolveRetryMax bound the backoff between
	// attempts to resolve a name that failed: the first retry comes after
	// ResolveRetryMin, each further one after twice the wait before,
	// never more than ResolveRetryMax.
	ResolveRetryMin = 2 * time.Second
	ResolveRetryMax = 5 * time.Minute
	// LookupTimeout bounds one lookup.
	LookupTimeout = 10 * time.Second
)

// master is one configured master server and what is known of its address.
type master struct {
	spec string // as configured, for messages
	host string
	port uint16

	literal  bool           // host is an address: no lookups
	addr     netip.AddrPort // where heartbeats go; invalid until resolved
	greeted  bool           // addr has had a heartbeat since it became known
	next     time.Time      // when the next lookup is due (zero: at once)
	inFlight bool           // a lookup was handed out and has not come back
	backoff  time.Duration  // wait before the next retry after a failure
	failures int            // failed lookups in a row
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
		m.literal = true
		m.addr = netip.AddrPortFrom(a.Unmap(), m.port)
	}
	return m, nil
}

// anyAddr reports whether some master has a known address. h.mu is held.
func (h *Heartbeater) anyAddr() bool {
	for i := range h.masters {
		if h.masters[i].addr.IsValid() {
			return true
		}
	}
	return false
}

// addrs returns the known master addresses, in configuration order without
// duplicates, of the masters keep accepts (nil: all). h.mu is held.
func (h *Heartbeater) addrs(keep func(*master) bool) []netip.AddrPort {
	var out []netip.AddrPort
	for i := range h.masters {
		m := &h.masters[i]
		if !m.addr.IsValid() || keep != nil && !keep(m) {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || o == m.addr
		}
		if !dup {
			out = append(out, m.addr)
		}
	}
	return out
}

// greet records that the addresses in to had a heartbeat. h.mu is held.
func (h *Heartbeater) greet(to []netip.AddrPort) {
	for i := range h.masters {
		for _, a := range to {
			if h.masters[i].addr == a {
				h.masters[i].greeted = true
			}
		}
	}
}

// greeted reports whether a master at addr had a heartbeat. h.mu is held.
func (h *Heartbeater) greeted(addr netip.AddrPort) bool {
	for i := range h.masters {
		if h.masters[i].addr == addr && h.masters[i].greeted {
			return true
		}
	}
	return false
}

// ResolveDue returns the master host names to look up at now, without
// duplicates, and marks them in flight: never-resolved names at once,
// failed ones after their backoff, resolved ones every [ResolveEvery].
// Literal addresses are never looked up. Report every outcome with
// [Heartbeater.Resolved]; a name is not handed out again until then.
func (h *Heartbeater) ResolveDue(now time.Time) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return nil
	}
	var hosts []string
	for i := range h.masters {
		m := &h.masters[i]
		if m.literal || m.inFlight || now.Before(m.next) {
			continue
		}
		for j := range h.masters {
			if h.masters[j].host == m.host && !h.masters[j].literal {
				h.masters[j].inFlight = true
			}
		}
		hosts = append(hosts, m.host)
	}
	return hosts
}

// Resolved records the outcome at now of looking host up. Success points
// the masters of that name at the first address (the stock server does the
// same) and schedules the next lookup in [ResolveEvery]; a master whose
// address changes gets a heartbeat at once from [Heartbeater.Next].
// Failure keeps any address the master had — a stale address beats none —
// and retries with backoff. The first failure in a row is logged as a
// warning, the rest at debug level, and the recovery once.
func (h *Heartbeater) Resolved(now time.Time, host string, addrs []netip.Addr, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	for i := range h.masters {
		m := &h.masters[i]
		if m.literal || m.host != host || !m.inFlight {
			continue
		}
		m.inFlight = false
		if err != nil {
			m.failures++
			m.backoff = min(max(2*m.backoff, ResolveRetryMin), ResolveRetryMax)
			m.next = now.Add(m.backoff)
			if m.failures == 1 {
				h.log.Warn("cannot resolve master server; retrying with backoff", "master", m.spec, "err", err, "retry_in", m.backoff)
			} else {
				h.log.Debug("cannot resolve master server", "master", m.spec, "err", err, "failures", m.failures, "retry_in", m.backoff)
			}
			continue
		}
		addr := netip.AddrPortFrom(addrs[0].Unmap(), m.port)
		switch {
		case m.failures > 0 || !m.addr.IsValid():
			h.log.Info("master server resolved", "master", m.spec, "addr", addr, "failures", m.failures)
		case addr != m.addr:
			h.log.Info("master server moved", "master", m.spec, "from", m.addr, "addr", addr)
		}
		if addr != m.addr {
			// A new address needs a heartbeat of its own, unless another
			// master entry already gave that address one.
			m.addr, m.greeted = addr, h.greeted(addr)
		}
		m.failures, m.backoff = 0, 0
		m.next = now.Add(ResolveEvery)
	}
}

// Resolve looks up, at now, every master name [Heartbeater.ResolveDue]
// hands out, each under [LookupTimeout], and records the outcomes. It
// blocks for the lookups: a game loop calls ResolveDue and Resolved itself
// and runs the lookups elsewhere. The error joins the failures.
func (h *Heartbeater) Resolve(ctx context.Context, now time.Time) error {
	var errs []error
	for _, host := range h.ResolveDue(now) {
		addrs, err := h.Lookup(ctx, host)
		h.Resolved(now, host, addrs, err)
		if err != nil {
			errs = append(errs, fmt.Errorf("resolving master %q: %w", host, err))
		}
	}
	return errors.Join(errs...)
}

// Lookup resolves one master host name with the configured resolver under
// [LookupTimeout]; an empty answer is an error. It may block; call it off
// the game loop.
func (h *Heartbeater) Lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	ctx, cancel := context.WithTimeout(ctx, LookupTimeout)
	defer cancel()
	addrs, err := h.resolve(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	if err != nil {
		return nil, err
	}
	return addrs, nil
}
