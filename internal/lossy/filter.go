// Package lossy impairs datagram traffic on purpose: loss, duplication,
// reordering, delay and blackouts. Filter is the deterministic core (a
// seeded random source decides each datagram's fate), usable with a fake
// clock; Proxy puts it on a real loopback UDP path between clients and a
// server, for integration tests and for load runs (bcbot -loss).
package lossy

import (
	"math/rand/v2"
	"time"
)

// Config is the impairment of one direction.
type Config struct {
	// Loss is the probability that a datagram is dropped.
	Loss float64
	// Duplicate is the probability that a datagram is delivered twice.
	Duplicate float64
	// Reorder is the probability that a datagram is held back and
	// delivered after the next one.
	Reorder float64
	// Delay is added to every datagram (Proxy only; a Filter has no clock),
	// and Jitter at most on top: each datagram's share is drawn uniformly
	// from [0, Jitter], so jitter also reorders.
	Delay, Jitter time.Duration
	// Burst is the mean length, in datagrams, of a run of losses: above 1
	// the losses come in bursts (a two-state Gilbert model: in a burst
	// every datagram is lost), still Loss of all datagrams on average; 0
	// or 1 loses each datagram on its own.
	Burst float64
}

// Stats counts what a Filter did.
type Stats struct {
	In, Out              uint64
	Lost, Duplicated     uint64
	Reordered, Blackouts uint64 // Blackouts: datagrams dropped by a blackout
}

// Filter decides the fate of each datagram of one direction. It is not
// safe for concurrent use.
type Filter struct {
	cfg      Config
	rng      *rand.Rand
	blackout bool
	inBurst  bool // the Gilbert model's "bad" state
	held     []byte
	hasHeld  bool
	Stats    Stats
}

// NewFilter returns a Filter whose decisions follow from seed alone.
func NewFilter(cfg Config, seed uint64) *Filter {
	return &Filter{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))}
}

// Set changes the impairment from the next datagram on.
func (f *Filter) Set(cfg Config) { f.cfg = cfg }

// SetBlackout drops everything while on, held datagrams included.
func (f *Filter) SetBlackout(on bool) {
	f.blackout = on
	if on && f.hasHeld {
		f.hasHeld = false
		f.Stats.Blackouts++
	}
}

// Pass takes one datagram and appends to out what leaves now, in order: d
// (possibly twice), a datagram held back earlier, or nothing. d is copied
// only when it is held back; the caller must not change d until it has sent
// what Pass returned.
func (f *Filter) Pass(d []byte, out [][]byte) [][]byte {
	f.Stats.In++
	if f.blackout {
		f.Stats.Blackouts++
		return out
	}
	if f.lose() {
		f.Stats.Lost++
		return out
	}
	n := 1
	if f.cfg.Duplicate > 0 && f.rng.Float64() < f.cfg.Duplicate {
		f.Stats.Duplicated++
		n = 2
	}
	if !f.hasHeld && f.cfg.Reorder > 0 && f.rng.Float64() < f.cfg.Reorder {
		f.Stats.Reordered++
		f.held = append(f.held[:0], d...)
		f.hasHeld = true
		if n == 2 {
			// One copy now, the other after the next datagram.
			f.Stats.Out++
			return append(out, d)
		}
		return out
	}
	for range n {
		f.Stats.Out++
		out = append(out, d)
	}
	if f.hasHeld {
		f.hasHeld = false
		f.Stats.Out++
		out = append(out, f.held)
	}
	return out
}

// lose decides whether the next datagram is lost.
func (f *Filter) lose() bool {
	loss := f.cfg.Loss
	if !(loss > 0) {
		f.inBurst = false
		return false
	}
	if f.cfg.Burst <= 1 || loss >= 1 {
		return f.rng.Float64() < loss
	}
	// A burst ends with probability 1/Burst a datagram, so it lasts Burst
	// datagrams on average; one starts with the probability that makes
	// the share of datagrams in bursts Loss.
	end := 1 / f.cfg.Burst
	start := loss * end / (1 - loss)
	if f.inBurst {
		f.inBurst = f.rng.Float64() >= end
	} else {
		f.inBurst = f.rng.Float64() < start
	}
	return f.inBurst
}

// Delay returns the delay of the next datagram that leaves: Delay plus a
// uniform share of Jitter.
func (f *Filter) Delay() time.Duration {
	d := f.cfg.Delay
	if f.cfg.Jitter > 0 {
		d += time.Duration(f.rng.Int64N(int64(f.cfg.Jitter) + 1))
	}
	return d
}

// Release appends the held-back datagram, if any, to out: the caller's
// timer calls it when no later datagram came to overtake it. The returned
// slice is valid until the next Pass or Release.
func (f *Filter) Release(out [][]byte) [][]byte {
	if !f.hasHeld {
		return out
	}
	f.hasHeld = false
	f.Stats.Out++
	return append(out, f.held)
}

// Holding reports whether a datagram is held back.
func (f *Filter) Holding() bool { return f.hasHeld }
