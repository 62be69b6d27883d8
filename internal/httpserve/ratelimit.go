package httpserve

import (
	"net/netip"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// DefaultRateAddresses is the size of a RateLimiter's table.
const DefaultRateAddresses = 10_000

// RateLimiter is a token bucket per address (Key) in a table of bounded
// size. A full table forgets the address seen least recently: a new
// address always gets a budget (a forgotten one starts again with a full
// bucket, which only an address that stayed quiet longest can gain), so
// no number of addresses, nor any one IPv6 /64, locks anyone out.
type RateLimiter struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu sync.Mutex
	t  *simplelru.LRU[netip.Prefix, *bucket]
}

type bucket struct {
	tokens float64
	at     time.Time
}

// NewRateLimiter allows each address rate requests a second with bursts
// of burst, remembering at most size addresses (DefaultRateAddresses
// when 0). now nil is time.Now.
func NewRateLimiter(rate float64, burst, size int, now func() time.Time) *RateLimiter {
	if size <= 0 {
		size = DefaultRateAddresses
	}
	if now == nil {
		now = time.Now
	}
	t, _ := simplelru.NewLRU[netip.Prefix, *bucket](size, nil) // size > 0: no error
	return &RateLimiter{rate: rate, burst: float64(burst), now: now, t: t}
}

// Allow takes a token from a's bucket.
func (l *RateLimiter) Allow(a netip.Addr) bool {
	k := Key(a)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.t.Get(k)
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.t.Add(k, b)
	}
	b.tokens = min(l.burst, b.tokens+max(0, now.Sub(b.at).Seconds())*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Len returns the addresses remembered.
func (l *RateLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.t.Len()
}
