package spectate

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/internal/httpserve"
	"github.com/bcserver/bcserver/plugins/admin"
)

// Defaults of Options.
const (
	DefaultMaxViewers = 50
	DefaultPerAddress = 4
	DefaultRate       = 5.0
	DefaultBurst      = 20
	DefaultInterval   = 500 * time.Millisecond
	// DefaultRetry is the Retry-After of a refused stream; the page backs
	// off from it (doubling, up to a minute).
	DefaultRetry = 5 * time.Second
	// streamWrite is how long one event of a stream may take to write: a
	// viewer that stops reading is cut off then, and its place freed.
	streamWrite = 15 * time.Second
)

//go:embed web
var web embed.FS

// Options configures a Server.
type Options struct {
	// Spectators are the games shown, the first by default.
	Spectators []*Spectator
	// MaxViewers caps the pages watching at once (streams), over every
	// game; PerAddress caps them per IP address (an IPv6 /64).
	MaxViewers, PerAddress int
	// Rate and Burst are the requests a second one address may make.
	Rate  float64
	Burst int
	// Ratings, when set, serves the public rating leaderboard at
	// /api/ratings (GET, query family, season, limit) and the page
	// /ratings.html ([ratings] public).
	Ratings http.Handler
	// Interval is how often a stream sends the view.
	Interval time.Duration
	// Stats counts the refusals (the listener's, shared with its
	// connection caps); nil counts them here alone.
	Stats  *httpserve.Stats
	Logger *slog.Logger
	// Now is the wall clock of the rate limits (tests); nil is time.Now.
	Now func() time.Time
}

// Server is the spectators' HTTP side: a page, the shared tactical view,
// and the delayed views of the games. It has no route that changes
// anything. It reads each request's address from RemoteAddr (the
// listener puts a trusted proxy's client there).
type Server struct {
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	byLabel map[string]*Spectator
	viewers atomic.Int64
	stop    chan struct{}
	stopped atomic.Bool
	rate    *httpserve.RateLimiter

	mu      sync.Mutex
	streams map[netip.Prefix]int // open streams per address (Key)
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
	log = log.With("component", "plugin/spectate")
	if opts.Stats == nil {
		opts.Stats = httpserve.NewStats("spectate", log, opts.Now)
	}
	s := &Server{opts: opts, log: log, mux: http.NewServeMux(),
		byLabel: map[string]*Spectator{}, stop: make(chan struct{}), streams: map[netip.Prefix]int{},
		rate: httpserve.NewRateLimiter(opts.Rate, opts.Burst, 0, opts.Now)}
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
	if opts.Ratings != nil {
		s.mux.Handle("GET /ratings.html", files(own))
		s.mux.Handle("GET /ratings.js", files(own))
		s.mux.Handle("GET /api/ratings", opts.Ratings)
	}
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
	a := httpserve.AddrOf(r.RemoteAddr)
	if !s.rate.Allow(a) {
		s.refuse(w, httpserve.Rate, a, time.Second, http.StatusTooManyRequests, "too many requests")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// refuse answers a refused request and closes its connection: a client
// over a limit gets no connection to keep open.
func (s *Server) refuse(w http.ResponseWriter, why httpserve.Reason, a netip.Addr, retry time.Duration, status int, text string) {
	s.opts.Stats.Refuse(why, a)
	secs := max(1, int(retry/time.Second))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	w.Header().Set("Connection", "close")
	http.Error(w, text+"\n", status)
}

// spectator returns the game a request asks for (the first shown one by
// default), nil for none or a hidden one.
func (s *Server) spectator(r *http.Request) *Spectator {
	if g := r.URL.Query().Get("game"); g != "" {
		if sp := s.byLabel[g]; sp != nil && !sp.Hidden() {
			return sp
		}
		return nil
	}
	for _, sp := range s.opts.Spectators {
		if !sp.Hidden() {
			return sp
		}
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
		if sp.Hidden() {
			continue
		}
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
	a := httpserve.AddrOf(r.RemoteAddr)
	if !s.enter(a) {
		s.refuse(w, httpserve.Viewers, a, DefaultRetry, http.StatusServiceUnavailable, "full: too many spectators")
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
			httpserve.Extend(w, streamWrite)
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
	k := httpserve.Key(a)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams[k] >= s.opts.PerAddress {
		return false
	}
	if s.viewers.Add(1) > int64(s.opts.MaxViewers) {
		s.viewers.Add(-1)
		return false
	}
	s.streams[k]++
	return true
}

func (s *Server) leave(a netip.Addr) {
	k := httpserve.Key(a)
	s.viewers.Add(-1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := s.streams[k]; n <= 1 {
		delete(s.streams, k)
	} else {
		s.streams[k] = n - 1
	}
}

// Viewers returns the streams open now.
func (s *Server) Viewers() int { return int(s.viewers.Load()) }

// Refused returns the requests refused so far by the rate limit and the
// stream caps.
func (s *Server) Refused() uint64 {
	return s.opts.Stats.Refused(httpserve.Rate) + s.opts.Stats.Refused(httpserve.Viewers)
}
