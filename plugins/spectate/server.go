package spectate

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/plugins/admin"
)

// Defaults of Options.
const (
	DefaultMaxViewers = 50
	DefaultPerAddress = 4
	DefaultRate       = 5.0
	DefaultBurst      = 20
	DefaultInterval   = 500 * time.Millisecond
	// maxAddresses bounds the rate limiter's table; past it strangers are
	// refused until old entries expire.
	maxAddresses = 10_000
)

//go:embed web
var web embed.FS

// Options configures a Server.
type Options struct {
	// Spectators are the games shown, the first by default.
	Spectators []*Spectator
	// MaxViewers caps the pages watching at once (streams), over every
	// game; PerAddress caps them per IP address.
	MaxViewers, PerAddress int
	// Rate and Burst are the requests a second one address may make.
	Rate  float64
	Burst int
	// Interval is how often a stream sends the view.
	Interval time.Duration
	Logger   *slog.Logger
	// Now is the wall clock of the rate limits (tests); nil is time.Now.
	Now func() time.Time
}

// Server is the spectators' HTTP side: a page, the shared tactical view,
// and the delayed views of the games. It has no route that changes
// anything.
type Server struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	byLabel map[string]*Spectator
	viewers atomic.Int64
	stop    chan struct{}
	stopped atomic.Bool

	mu      sync.Mutex
	buckets map[netip.Addr]*bucket
	Refused atomic.Uint64 // requests refused by the rate limits and caps
}

type bucket struct {
	tokens  float64
	at      time.Time
	streams int
}

// New builds the server.
func New(opts Options) *Server {
	if opts.MaxViewers <= 0 {
		opts.MaxViewers = DefaultMaxViewers
	}
	if opts.PerAddress <= 0 {
		opts.PerAddress = DefaultPerAddress
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, log: log.With("component", "plugin/spectate"), mux: http.NewServeMux(),
		byLabel: map[string]*Spectator{}, stop: make(chan struct{}), buckets: map[netip.Addr]*bucket{}}
	for _, sp := range opts.Spectators {
		s.byLabel[sp.Label()] = sp
	}
	own, _ := fs.Sub(web, "web")
	shared := admin.WebFS()
	files := func(fsys fs.FS) http.Handler { return http.FileServerFS(fsys) }
	s.mux.Handle("GET /{$}", files(own))
	s.mux.Handle("GET /spectate.js", files(own))
	s.mux.Handle("GET /spectate.css", files(own))
	s.mux.Handle("GET /view.js", files(shared))
	s.mux.Handle("GET /style.css", files(shared))
	s.mux.HandleFunc("GET /api/games", s.games)
	s.mux.HandleFunc("GET /api/view", s.view)
	s.mux.HandleFunc("GET /api/stream", s.stream)
	return s
}

// Close ends the streams (at shutdown).
func (s *Server) Close() {
	if s.stopped.CompareAndSwap(false, true) {
		close(s.stop)
	}
}

// ServeHTTP implements http.Handler: read-only, rate-limited per address.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "read only\n", http.StatusMethodNotAllowed)
		return
	}
	if !s.allow(addrOf(r)) {
		s.Refused.Add(1)
		h.Set("Retry-After", "1")
		http.Error(w, "too many requests\n", http.StatusTooManyRequests)
		return
	}
	s.mux.ServeHTTP(w, r)
}

func addrOf(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// allow takes a token from the address's bucket.
func (s *Server) allow(a netip.Addr) bool {
	now := s.opts.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[a]
	if b == nil {
		if len(s.buckets) >= maxAddresses {
			s.prune(now)
			if len(s.buckets) >= maxAddresses {
				return false
			}
		}
		b = &bucket{tokens: float64(s.opts.Burst), at: now}
		s.buckets[a] = b
	}
	b.tokens = min(float64(s.opts.Burst), b.tokens+now.Sub(b.at).Seconds()*s.opts.Rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// prune forgets addresses idle long enough to have a full bucket.
func (s *Server) prune(now time.Time) {
	full := time.Duration(float64(s.opts.Burst) / s.opts.Rate * float64(time.Second))
	for a, b := range s.buckets {
		if b.streams == 0 && now.Sub(b.at) > full {
			delete(s.buckets, a)
		}
	}
}

func (s *Server) spectator(r *http.Request) *Spectator {
	if g := r.URL.Query().Get("game"); g != "" {
		return s.byLabel[g]
	}
	if len(s.opts.Spectators) > 0 {
		return s.opts.Spectators[0]
	}
	return nil
}

// gameInfo is one entry of /api/games.
type gameInfo struct {
	Game   string `json:"game"`
	Server string `json:"server"`
	Mode   string `json:"mode"`
	Map    string `json:"map"`
	Live   bool   `json:"live"`
}

func (s *Server) games(w http.ResponseWriter, r *http.Request) {
	out := []gameInfo{}
	for _, sp := range s.opts.Spectators {
		var v View
		if err := json.Unmarshal(sp.Latest(), &v); err == nil {
			out = append(out, gameInfo{Game: sp.Label(), Server: v.Server, Mode: v.Mode, Map: v.Map, Live: v.Live})
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(out)
}

func (s *Server) view(w http.ResponseWriter, r *http.Request) {
	sp := s.spectator(r)
	if sp == nil {
		http.Error(w, "no such game\n", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(sp.Latest())
}

// stream sends the view as server-sent events whenever it changed.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	sp := s.spectator(r)
	if sp == nil {
		http.Error(w, "no such game\n", http.StatusNotFound)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming not supported\n", http.StatusInternalServerError)
		return
	}
	a := addrOf(r)
	if !s.enter(a) {
		s.Refused.Add(1)
		http.Error(w, "too many spectators: try again later\n", http.StatusServiceUnavailable)
		return
	}
	defer s.leave(a)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	var last []byte
	t := time.NewTicker(s.opts.Interval)
	defer t.Stop()
	for {
		if v := sp.Latest(); !bytes.Equal(v, last) {
			last = v
			if _, err := fmt.Fprintf(w, "event: view\ndata: %s\n\n", v); err != nil {
				return
			}
			fl.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		case <-t.C:
		}
	}
}

// enter counts a stream against the caps.
func (s *Server) enter(a netip.Addr) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[a]
	if b == nil || b.streams >= s.opts.PerAddress {
		return false
	}
	if s.viewers.Add(1) > int64(s.opts.MaxViewers) {
		s.viewers.Add(-1)
		return false
	}
	b.streams++
	return true
}

func (s *Server) leave(a netip.Addr) {
	s.viewers.Add(-1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.buckets[a]; b != nil && b.streams > 0 {
		b.streams--
	}
}

// Viewers returns the streams open now.
func (s *Server) Viewers() int { return int(s.viewers.Load()) }
