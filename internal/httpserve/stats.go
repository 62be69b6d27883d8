package httpserve

import (
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Reason is why a connection or request was refused.
type Reason int

// Reasons of a refusal; their names are the metric's reason label.
const (
	// PerAddress: the address already holds its share of connections.
	PerAddress Reason = iota
	// Connections: the process's connections are all taken (for this
	// listener: the admin listener's reserve is not its to take).
	Connections
	// Rate: the address asks faster than its request budget.
	Rate
	// Viewers: the spectator streams are all taken, in total or for the
	// address.
	Viewers
	nReasons
)

var reasonNames = [nReasons]string{"per_address", "connections", "rate", "viewers"}

func (r Reason) String() string {
	if r >= 0 && r < nReasons {
		return reasonNames[r]
	}
	return "unknown"
}

// Reasons lists every reason, in order.
func Reasons() []Reason { return []Reason{PerAddress, Connections, Rate, Viewers} }

// LogEvery is the shortest time between two refusal lines of a listener:
// a flood must not fill the log (and push everything else out of the
// console's tail).
const LogEvery = 10 * time.Second

// Stats counts one listener's connections and refusals; safe for
// concurrent use. Refuse logs, at most once per LogEvery.
type Stats struct {
	name string
	log  *slog.Logger
	now  func() time.Time

	open    atomic.Int64
	refused [nReasons]atomic.Uint64

	mu      sync.Mutex
	next    time.Time
	pending [nReasons]uint64
	last    netip.Addr
}

// NewStats returns the counters of the listener called name ("admin",
// "spectate": the metric's listener label). log may be nil; now nil is
// time.Now.
func NewStats(name string, log *slog.Logger, now func() time.Time) *Stats {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if now == nil {
		now = time.Now
	}
	return &Stats{name: name, log: log, now: now}
}

// Name is the listener's name.
func (s *Stats) Name() string { return s.name }

// Open returns the connections open now.
func (s *Stats) Open() int64 { return s.open.Load() }

// Refused returns the refusals for a reason so far.
func (s *Stats) Refused(r Reason) uint64 { return s.refused[r].Load() }

// Refuse counts a refusal of a connection or request from a, and logs a
// line about the refusals since the last one when LogEvery has passed.
func (s *Stats) Refuse(r Reason, a netip.Addr) {
	s.refused[r].Add(1)
	now := s.now()
	s.mu.Lock()
	s.pending[r]++
	s.last = a
	if now.Before(s.next) {
		s.mu.Unlock()
		return
	}
	s.next = now.Add(LogEvery)
	p, last := s.pending, s.last
	s.pending = [nReasons]uint64{}
	s.mu.Unlock()
	attrs := []any{"listener", s.name, "latest_from", last.String()}
	for i, n := range p {
		if n > 0 {
			attrs = append(attrs, Reason(i).String(), n)
		}
	}
	s.log.Warn("http connections or requests refused (logged at most every 10 s)", attrs...)
}
