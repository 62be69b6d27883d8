package gamespy

import (
	"container/list"
	"net/netip"
	"time"
)

// Rate-limit defaults. A stock client sends one `\status\` per server and
// then waits (gamespy.md 3); a master verifies with one query per
// heartbeat. Eight queries at once and four a second leave plenty of room
// for both, while a spoofed flood aimed at a victim gets at most that many
// replies per second per victim address.
const (
	DefaultRateBurst      = 8
	DefaultRatePerSecond  = 4
	DefaultRateMaxSources = 4096
)

// RateLimit configures the per-source token bucket of a [Responder]. The
// zero value means the defaults.
type RateLimit struct {
	// Disabled turns rate limiting off (tests, trusted LANs).
	Disabled bool
	// Burst is the number of queries a source may send at once
	// (default [DefaultRateBurst]).
	Burst int
	// PerSecond is the sustained rate per source (default
	// [DefaultRatePerSecond]).
	PerSecond float64
	// MaxSources bounds the table of tracked sources; when it is full the
	// source seen longest ago is forgotten (default [DefaultRateMaxSources]).
	MaxSources int
}

func (rl RateLimit) withDefaults() RateLimit {
	if rl.Burst <= 0 {
		rl.Burst = DefaultRateBurst
	}
	if rl.PerSecond <= 0 {
		rl.PerSecond = DefaultRatePerSecond
	}
	if rl.MaxSources <= 0 {
		rl.MaxSources = DefaultRateMaxSources
	}
	return rl
}

// limiter is a table of token buckets keyed by source address, with LRU
// eviction so that a flood of spoofed addresses costs bounded memory. It is
// not safe for concurrent use; the Responder's mutex guards it.
type limiter struct {
	burst  float64
	rate   float64
	max    int
	byAddr map[netip.Addr]*list.Element
	lru    list.List // front = most recently seen; values are *bucket
}

type bucket struct {
	addr   netip.Addr
	tokens float64
	last   time.Time
}

func newLimiter(rl RateLimit) *limiter {
	rl = rl.withDefaults()
	return &limiter{
		burst:  float64(rl.Burst),
		rate:   rl.PerSecond,
		max:    rl.MaxSources,
		byAddr: make(map[netip.Addr]*list.Element),
	}
}

// sourceKey maps an address to its bucket. IPv6 sources share one bucket
// per /64, since a single host commonly owns a whole /64.
func sourceKey(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.Addr()
		}
	}
	return a.WithZone("")
}

// allow takes one token from the source's bucket. evicted reports that a
// new source pushed the longest-unseen one out of the full table.
func (l *limiter) allow(now time.Time, src netip.Addr) (ok, evicted bool) {
	key := sourceKey(src)
	if e, found := l.byAddr[key]; found {
		b := e.Value.(*bucket)
		l.lru.MoveToFront(e)
		if dt := now.Sub(b.last).Seconds(); dt > 0 {
			b.tokens = min(l.burst, b.tokens+dt*l.rate)
			b.last = now
		}
		if b.tokens < 1 {
			return false, false
		}
		b.tokens--
		return true, false
	}
	if l.lru.Len() >= l.max {
		// Reuse the longest-unseen entry, so a flood of spoofed sources
		// allocates nothing once the table is full.
		e := l.lru.Back()
		b := e.Value.(*bucket)
		delete(l.byAddr, b.addr)
		*b = bucket{addr: key, tokens: l.burst - 1, last: now}
		l.lru.MoveToFront(e)
		l.byAddr[key] = e
		return true, true
	}
	l.byAddr[key] = l.lru.PushFront(&bucket{addr: key, tokens: l.burst - 1, last: now})
	return true, false
}
