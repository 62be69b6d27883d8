package net

import (
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Strangers are addresses that are not peers: a client's first connect,
// GameSpy queries, and anyone flooding the port. Everything about them is
// budgeted before any work is done (STYLE.md, "Hostile scripts and hostile
// peers"): a per-address and a per-game rate of datagrams looked at at all
// (checked before decryption), and a process-wide byte budget for
// everything sent to them in answer (refusals, GameSpy replies), so that a
// spoofed flood cannot turn the server into an amplifier.

// Stranger limits (Host defaults). A stock client repeats its connect
// about once a second and a browser sends one query per server; a LAN
// party behind one address joins a few players at a time.
const (
	DefaultStrangerRate      = 10   // datagrams a second per address
	DefaultStrangerBurst     = 20   // ... at once
	DefaultStrangerTotal     = 2000 // datagrams a second from all strangers of one game
	DefaultStrangerAddresses = 4096 // addresses tracked; the oldest is forgotten
)

// strangerLimiter is a per-address token bucket table of bounded size plus
// a per-game bucket. It allocates nothing once the table is full.
type strangerLimiter struct {
	rate, burst float64
	total       tokenBucket
	index       map[netip.Addr]int32
	ring        []strangerEntry
	size        int
	next        int
}

type strangerEntry struct {
	addr netip.Addr
	b    tokenBucket
}

func newStrangerLimiter(rate, burst, total float64, size int) *strangerLimiter {
	return &strangerLimiter{rate: rate, burst: burst, total: tokenBucket{rate: total, burst: total},
		index: make(map[netip.Addr]int32), size: max(size, 1)}
}

// allow reports whether a datagram from addr may be looked at.
func (l *strangerLimiter) allow(now time.Time, addr netip.Addr) bool {
	i, ok := l.index[addr]
	if !ok {
		e := strangerEntry{addr: addr, b: tokenBucket{rate: l.rate, burst: l.burst}}
		if len(l.ring) < l.size {
			l.ring = append(l.ring, e)
			i = int32(len(l.ring) - 1)
		} else {
			// Forget the oldest address: a spoofed flood from ever new
			// addresses only ever recycles entries.
			i = int32(l.next)
			delete(l.index, l.ring[i].addr)
			l.ring[i] = e
			l.next = (l.next + 1) % len(l.ring)
		}
		l.index[addr] = i
	}
	if !l.ring[i].b.take(now) {
		return false
	}
	return l.total.take(now)
}

// level returns what is left of addr's budget now (the burst for an
// address not seen lately), without taking anything.
func (l *strangerLimiter) level(now time.Time, addr netip.Addr) float64 {
	i, ok := l.index[addr]
	if !ok {
		return l.burst
	}
	return l.ring[i].b.level(now)
}

// AnswerBudget bounds the bytes a process sends to strangers per second,
// over every game it runs. It is safe for concurrent use; share one
// among all Hosts (the GameSpy replies of 64 games count together).
type AnswerBudget struct {
	mu      sync.Mutex
	b       tokenBucket
	dropped atomic.Uint64
}

// DefaultAnswerBytes is the default answer budget: 256 KiB a second, a
// few hundred server-browser replies, and no more than that aimed at a
// spoofed victim however many addresses the queries claim to come from.
const DefaultAnswerBytes = 256 << 10

// NewAnswerBudget allows bytesPerSecond, with bursts of as much.
func NewAnswerBudget(bytesPerSecond int) *AnswerBudget {
	if bytesPerSecond <= 0 {
		bytesPerSecond = DefaultAnswerBytes
	}
	r := float64(bytesPerSecond)
	return &AnswerBudget{b: tokenBucket{rate: r, burst: r}}
}

// Take reports whether n more bytes may be sent now, and books them.
func (a *AnswerBudget) Take(now time.Time, n int) bool {
	a.mu.Lock()
	ok := a.b.takeN(now, float64(n))
	a.mu.Unlock()
	if !ok {
		a.dropped.Add(1)
	}
	return ok
}

// Dropped counts answers not sent for want of budget.
func (a *AnswerBudget) Dropped() uint64 { return a.dropped.Load() }

// tokenBucket is a small deterministic rate limit driven by the caller's
// clock. Time only moves forward for it: a caller whose clock is behind
// (another Host sharing an AnswerBudget) neither refills it nor winds it
// back, which would credit the same interval again.
type tokenBucket struct {
	rate, burst float64
	tokens      float64
	at          time.Time
}

func (b *tokenBucket) take(now time.Time) bool { return b.takeN(now, 1) }

// level is the tokens the bucket would hold at now.
func (b *tokenBucket) level(now time.Time) float64 {
	if b.at.IsZero() {
		return b.burst
	}
	return min(b.burst, b.tokens+max(0, now.Sub(b.at).Seconds())*b.rate)
}

func (b *tokenBucket) takeN(now time.Time, n float64) bool {
	switch {
	case b.at.IsZero():
		b.tokens, b.at = b.burst, now
	case now.After(b.at):
		b.tokens = min(b.burst, b.tokens+now.Sub(b.at).Seconds()*b.rate)
		b.at = now
	}
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}
