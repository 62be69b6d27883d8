package gamespy

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Size limits of the query protocol.
const (
	// MaxReply is the largest datagram a Responder sends, queryid included:
	// the stock server splits replies above 1349 (0x545) bytes
	// (gamespy.md 2.3).
	MaxReply = 1349
	// MaxQuery is how much of a query datagram is read: the stock query
	// buffer holds 255 bytes and longer queries are truncated (gamespy.md 1).
	MaxQuery = 255
	// MaxValueLen caps every value the Responder writes, so that any one
	// key, plus `\validate\` and `\final\` and the queryid, always fits in a
	// single datagram and splitting at key boundaries always succeeds.
	MaxValueLen = 255
	// DefaultMaxDatagrams is the default cap on datagrams per query.
	DefaultMaxDatagrams = 8
)

// Options configures a [Responder].
type Options struct {
	// Info returns the current server snapshot. It is called at most once
	// per answered query, from the goroutine calling Handle, while the
	// Responder's lock is held; it must be cheap and must not call back
	// into the Responder. Required.
	Info func() ServerInfo
	// RateLimit configures the per-source limit; the zero value gives the
	// defaults (burst 8, 4 queries/s, 4096 sources).
	RateLimit RateLimit
	// MaxDatagrams caps the datagrams one query can produce (default
	// [DefaultMaxDatagrams]). A reply that would need more is cut short:
	// the keys that do not fit are left out and the last allowed datagram
	// still carries `\validate\` and `\final\`, so browsers see a complete,
	// if shortened, reply.
	MaxDatagrams int
	// HostEntry is the name listed as `player_0` ahead of the real players.
	// The stock dedicated server lists itself this way, even with
	// numplayers 0 (gamespy.md 2.1), so it is on by default with the stock
	// name [DefaultHostEntry]; the real players follow as player_1,
	// player_2, ...
	HostEntry string
	// NoHostEntry leaves the host entry out; the real players are then
	// numbered from player_0.
	NoHostEntry bool
	// Logger receives debug lines about dropped queries; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Stats counts what a Responder has done. All counters only grow.
type Stats struct {
	// Queries is the number of queries answered.
	Queries uint64
	// Datagrams and Bytes count what was handed to send.
	Datagrams uint64
	Bytes     uint64
	// RateLimited counts queries dropped by the per-source limit.
	RateLimited uint64
	// NotQuery counts datagrams dropped because they were empty or did not
	// start with `\` (the socket loop should not route those here at all).
	NotQuery uint64
	// Truncated counts answered queries that were longer than [MaxQuery]
	// and were cut, as the stock server does.
	Truncated uint64
	// Clipped counts replies cut short by Options.MaxDatagrams.
	Clipped uint64
	// Evicted counts rate-limit entries forgotten because the source table
	// was full.
	Evicted uint64
}

// Dropped is the number of query datagrams that got no reply.
func (s Stats) Dropped() uint64 { return s.RateLimited + s.NotQuery }

// Responder answers GameSpy QR1 query datagrams (gamespy.md 2). It owns no
// socket: the caller feeds it datagrams and sends what it returns. It is
// safe for concurrent use.
//
// Every reply datagram ends in `\queryid\N.M`. N counts the queries this
// Responder answered, numbered as the stock server does: its counter
// starts at 1 and is incremented before each reply, so the first reply is
// N=2 (the captured `\status\` answer carried 2.1; gamespy.md 2.2, 2.3).
// Datagrams that are dropped (rate-limited, not a query) do not advance it.
// M numbers the datagrams of one reply from 1.
type Responder struct {
	info         func() ServerInfo
	log          *slog.Logger
	hostEntry    string // "" when the host entry is disabled
	maxDatagrams int

	mu      sync.Mutex
	queryID uint32
	limit   *limiter // nil when rate limiting is disabled
	w       reply

	queries, datagrams, bytes    atomic.Uint64
	limited, notQuery, truncated atomic.Uint64
	clipped, evicted             atomic.Uint64
}

// NewResponder returns a Responder for the given options.
func NewResponder(opts Options) (*Responder, error) {
	if opts.Info == nil {
		return nil, errors.New("plugin/gamespy: new responder: Options.Info is required")
	}
	if opts.MaxDatagrams < 0 {
		return nil, errors.New("plugin/gamespy: new responder: Options.MaxDatagrams is negative")
	}
	r := &Responder{
		info:         opts.Info,
		log:          opts.Logger,
		hostEntry:    opts.HostEntry,
		maxDatagrams: opts.MaxDatagrams,
		// The stock SDK starts its counter at 1 and increments it before
		// answering, so the first reply carries queryid 2.1 and later ones
		// 3.1, 4.1, ... (the capture in gamespy.md 2.2 and 2.3).
		queryID: 1,
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	r.log = r.log.With("component", "plugin/gamespy")
	if r.hostEntry == "" {
		r.hostEntry = DefaultHostEntry
	}
	if opts.NoHostEntry {
		r.hostEntry = ""
	}
	if r.maxDatagrams == 0 {
		r.maxDatagrams = DefaultMaxDatagrams
	}
	if !opts.RateLimit.Disabled {
		r.limit = newLimiter(opts.RateLimit)
	}
	r.w.buf = make([]byte, 0, MaxReply+64)
	r.w.spare = make([]byte, 0, MaxReply+64)
	return r, nil
}

// Stats returns a snapshot of the counters.
func (r *Responder) Stats() Stats {
	return Stats{
		Queries:     r.queries.Load(),
		Datagrams:   r.datagrams.Load(),
		Bytes:       r.bytes.Load(),
		RateLimited: r.limited.Load(),
		NotQuery:    r.notQuery.Load(),
		Truncated:   r.truncated.Load(),
		Clipped:     r.clipped.Load(),
		Evicted:     r.evicted.Load(),
	}
}

// Handle answers one query datagram received at now from the address from.
// Each reply datagram is passed to send, in order; the slice is only valid
// during the call (it is reused), which suits net.UDPConn's write methods.
// send is called with the Responder's lock held and must not call back
// into it.
//
// Handle never panics on hostile input and never allocates in proportion to
// it: a query is cut to [MaxQuery] bytes, replies never exceed [MaxReply]
// bytes or Options.MaxDatagrams datagrams, and sources over their rate
// limit get nothing.
func (r *Responder) Handle(now time.Time, from netip.AddrPort, query []byte, send func([]byte)) {
	if len(query) == 0 || query[0] != '\\' {
		r.notQuery.Add(1)
		return
	}
	truncated := false
	if len(query) > MaxQuery {
		query = query[:MaxQuery]
		truncated = true
	}
	// The stock server treats the query as a C string.
	if i := bytes.IndexByte(query, 0); i >= 0 {
		query = query[:i]
	}
	q := parseQuery(query)

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.limit != nil {
		ok, evicted := r.limit.allow(now, from.Addr())
		if evicted {
			r.evicted.Add(1)
		}
		if !ok {
			r.limited.Add(1)
			if r.log.Enabled(context.Background(), slog.LevelDebug) {
				r.log.Debug("query rate-limited", "from", from)
			}
			return
		}
	}
	if truncated {
		r.truncated.Add(1)
	}
	r.queryID++
	r.queries.Add(1)

	w := &r.w
	var tail [len(`\validate\`) + maxValidateLen + len(`\final\`)]byte
	t := tail[:0]
	if len(q.secure) > 0 && len(q.secure) <= MaxChallengeLen {
		t = append(t, `\validate\`...)
		t = appendValidate(t, q.secure)
	}
	t = append(t, `\final\`...)
	w.reset(r.queryID, r.maxDatagrams, len(t), send)

	var si ServerInfo
	if q.sections() {
		si = r.info()
	}
	// Query words are served in the stock SDK's fixed order, whatever their
	// order in the datagram (gamespy.md 2).
	if q.basic {
		w.basicSection(&si)
	}
	if q.info {
		w.infoSection(&si)
	}
	if q.rules {
		w.rulesSection(&si)
	}
	if q.players {
		w.playersSection(&si, r.hostEntry)
	}
	if q.status {
		w.basicSection(&si)
		w.infoSection(&si)
		w.rulesSection(&si)
		w.playersSection(&si, r.hostEntry)
	}
	if q.packets {
		// Each section flushed as its own datagram (gamespy.md 2); the
		// players datagram also carries the final.
		w.basicSection(&si)
		w.boundary()
		w.infoSection(&si)
		w.boundary()
		w.rulesSection(&si)
		w.boundary()
		w.playersSection(&si, r.hostEntry)
	}
	if q.hasEcho {
		w.raw("echo", q.echo)
	}
	w.finish(t)

	r.datagrams.Add(uint64(w.frag))
	r.bytes.Add(uint64(w.bytes))
	if w.clipped {
		r.clipped.Add(1)
		if r.log.Enabled(context.Background(), slog.LevelDebug) {
			r.log.Debug("reply cut short", "from", from, "datagrams", w.frag)
		}
	}
	w.send = nil
}
