// Package admin is the host's HTTP surface: a JSON API under /api/v1/
// (status, players, kick, ban, say, mission and game control, match
// history), the web console at /, Prometheus metrics at /metrics and the
// /healthz and /readyz probes.
//
// It never touches game state from its own goroutines: every read and
// every action runs on the game goroutine through engine.Server.Do. Every
// mutating call is logged with who asked and what happened (the audit
// line), and the API wants "Authorization: Bearer <token>".
package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Missions is what the API needs from the mission runtime. Mode, Info and
// SetMode run on the game goroutine; Reload may block its caller (it
// compiles on the caller's goroutine) but not the game.
type Missions interface {
	// Mode returns the running game mode; Modes every mode available.
	Mode() string
	Modes() []string
	// Info returns what the mission knows and the engine does not: time
	// left, team scores, its version (game goroutine).
	Info() MissionInfo
	// Reload reloads the running mission's files.
	Reload(ctx context.Context) error
	// SetMode switches to mode: at once when now is set or no match runs
	// (then a new match starts), else when the running match ends. It
	// reports whether the switch is pending (game goroutine).
	SetMode(mode string, now bool) (pending bool, err error)
}

// MissionInfo is the mission's side of the status.
type MissionInfo struct {
	Version     int    `json:"version"`
	Loaded      bool   `json:"loaded"`
	TimeLeft    *int   `json:"time_left"` // seconds; null without a time limit
	Teams       []Team `json:"teams,omitempty"`
	PendingMode string `json:"pending_mode,omitempty"`
	// Error says why the mission could not start (file:line); the game
	// then takes no players until it is fixed.
	Error string `json:"error,omitempty"`
	// Suspended says why the running mission was suspended for its
	// errors ("" while it runs): the game goes on without it (no
	// scoring) until a fixed version is saved or reloaded.
	Suspended string `json:"suspended,omitempty"`
}

// Team is a team's line in the status.
type Team struct {
	Team  int `json:"team"`
	Kills int `json:"kills"`
	Score int `json:"score"`
}

// Options configures New.
type Options struct {
	// Server is the running game server.
	Server *engine.Server
	// Token is the bearer token the API wants (never empty): an admin's.
	Token string
	// Tokens are more tokens, each with its name and role.
	Tokens []Token
	// Moderation serves timed bans, warnings, notes and the audit log;
	// nil answers 501.
	Moderation Moderation
	// Accounts lets the host set an account's password; nil answers 501.
	Accounts Accounts
	// Version is shown in the status.
	Version string
	// Missions, Bans and History may be nil: their endpoints then answer
	// 501 Not Implemented.
	Missions Missions
	Bans     Bans
	History  History
	// Metrics serves /metrics (nil: 404).
	Metrics http.Handler
	// Replays and Career serve the recordings and the career statistics
	// behind the token (extra.go); nil leaves their endpoints out.
	Replays, Career http.Handler
	// Ratings serves the rating leaderboard (plugins/ratings); nil: 501.
	Ratings http.Handler
	// Tail is the log tail shown in the console (nil: none).
	Tail *Tail
	// Game, with several games in one process, is this game's label: its
	// console shows the log lines about it and the process's own.
	Game string
	// Cut, if set, is called on the game goroutine before the API ends
	// or restarts a match, so match history records it (reason:
	// "restarted" or "ended_by_admin").
	Cut func(reason string)
	// Audit, if set, is called after every mutating call (metrics).
	Audit  func(action string)
	Logger *slog.Logger
	// Now is the wall clock (tests); nil means time.Now.
	Now func() time.Time
	// StatusInterval is how often the event stream sends the status
	// (default 1 s).
	StatusInterval time.Duration
}

// Admin serves the API, the console and the probes.
type Admin struct {
	opts    Options
	log     *slog.Logger
	chatLog *slog.Logger // chat lines, under their own component
	mux     *http.ServeMux
	started time.Time
	ready   atomic.Bool
	stop    chan struct{}
	stopped atomic.Bool

	probeMu sync.Mutex

	// badToken throttles the wrong-token warning: the API is reachable
	// without a token, and a line per request would let anyone fill the
	// log and push everything else out of the console's tail.
	badMu      sync.Mutex
	badNext    time.Time
	badSkipped int

	// muted players' chat is not relayed (game goroutine; nil until the
	// plugin starts).
	muted map[*engine.Player]bool
	offs  []func()
}

// badTokenEvery is the shortest time between two wrong-token warnings.
const badTokenEvery = 10 * time.Second

// New builds the handler. Call SetReady once the game takes players.
func New(opts Options) (*Admin, error) {
	if opts.Server == nil {
		return nil, errors.New("admin: no server")
	}
	if opts.Token == "" {
		return nil, errors.New("admin: empty token")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.StatusInterval <= 0 {
		opts.StatusInterval = time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	a := &Admin{opts: opts, log: log.With("component", "plugin/admin"), chatLog: log.With("component", "chat"), mux: http.NewServeMux(), started: opts.Now(), stop: make(chan struct{})}
	a.routes()
	return a, nil
}

// SetReady marks the server as taking players (/readyz).
func (a *Admin) SetReady(ok bool) { a.ready.Store(ok) }

// Close ends the event streams (at shutdown, so http.Server.Shutdown does
// not wait for them).
func (a *Admin) Close() {
	if a.stopped.CompareAndSwap(false, true) {
		close(a.stop)
	}
}

// ServeHTTP implements http.Handler.
func (a *Admin) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

func (a *Admin) routes() {
	m := a.mux
	m.HandleFunc("GET /healthz", a.healthz)
	m.HandleFunc("GET /readyz", a.readyz)
	if a.opts.Metrics != nil {
		m.Handle("GET /metrics", a.opts.Metrics)
	}
	con := console()
	unknown := a.auth(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path)
	})
	m.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/"):
			unknown.ServeHTTP(w, r)
		case r.Method == http.MethodGet || r.Method == http.MethodHead:
			con.ServeHTTP(w, r)
		default:
			writeError(w, http.StatusMethodNotAllowed, "method %s not allowed", r.Method)
		}
	}))

	api := func(pattern string, h http.HandlerFunc) { m.Handle(pattern, a.auth(h)) }
	act := func(pattern, action string, h func(r *http.Request) (any, error)) {
		m.Handle(pattern, a.authRole(roleFor(action), a.mutating(action, h)))
	}
	api("GET /api/v1/status", a.getStatus)
	api("GET /api/v1/players", a.getPlayers)
	api("GET /api/v1/bans", a.getBans)
	api("GET /api/v1/matches", a.getMatches)
	api("GET /api/v1/players/{name}/stats", a.getPlayerStats)
	api("GET /api/v1/modes", a.getModes)
	api("GET /api/v1/log", a.getLog)
	api("GET /api/v1/events", a.events)
	a.extraRoutes(api)
	act("POST /api/v1/kick", "kick", a.kick)
	act("POST /api/v1/ban", "ban", a.ban)
	act("POST /api/v1/unban", "unban", a.unban)
	act("POST /api/v1/say", "say", a.say)
	act("POST /api/v1/mute", "mute", a.mute)
	act("POST /api/v1/mission/reload", "mission_reload", a.missionReload)
	act("POST /api/v1/mission/set", "mission_set", a.missionSet)
	act("POST /api/v1/game/restart", "game_restart", a.gameRestart)
	act("POST /api/v1/game/end", "game_end", a.gameEnd)
	a.moderationRoutes(api, act)
}

// apiError is an error with its HTTP status.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}

func writeErr(w http.ResponseWriter, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		writeError(w, ae.status, "%s", ae.msg)
		return
	}
	writeError(w, http.StatusInternalServerError, "%s", err.Error())
}

// auth checks the bearer token in constant time and that its role is at
// least a viewer's.
func (a *Admin) auth(next http.HandlerFunc) http.Handler { return a.authRole(RoleViewer, next) }

// authRole checks the bearer token and that its role is at least role
// (403 otherwise); the handler finds the caller with CallerOf.
func (a *Admin) authRole(role string, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := a.caller(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="bcserver"`)
			if r.Header.Get("Authorization") != "" {
				a.warnBadToken(r)
			}
			writeError(w, http.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer <token>")
			return
		}
		if rank(c.Role) < rank(role) {
			a.log.Warn("admin request refused: role", "remote", remote(r), "path", r.URL.Path, "by", c.Name, "role", c.Role, "needs", role)
			writeError(w, http.StatusForbidden, "the %s role cannot do this (needs %s)", c.Role, role)
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, c)))
	})
}

// warnBadToken logs a request with a wrong token, at most once per
// badTokenEvery, with how many went unlogged since the last line.
func (a *Admin) warnBadToken(r *http.Request) {
	now := a.opts.Now()
	a.badMu.Lock()
	if now.Before(a.badNext) {
		a.badSkipped++
		a.badMu.Unlock()
		return
	}
	skipped := a.badSkipped
	a.badSkipped = 0
	a.badNext = now.Add(badTokenEvery)
	a.badMu.Unlock()
	a.log.Warn("admin request with a wrong token", "remote", remote(r), "path", r.URL.Path, "unlogged_before", skipped)
}

// mutating runs an action and writes the audit line: who, what, with
// which arguments, and how it went.
func (a *Admin) mutating(action string, h func(r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		args := &auditArgs{}
		r = r.WithContext(context.WithValue(r.Context(), auditKey{}, args))
		res, err := h(r)
		status := http.StatusOK
		if err != nil {
			var ae *apiError
			status = http.StatusInternalServerError
			if errors.As(err, &ae) {
				status = ae.status
			}
		} else if acc, ok := res.(accepted); ok {
			status = http.StatusAccepted
			res = acc.v
		}
		c := CallerOf(r.Context())
		attrs := []any{"action", action, "by", c.Name, "role", c.Role, "remote", remote(r), "status", status}
		argText := ""
		if args.v != nil {
			if b, err := json.Marshal(args.v); err == nil {
				argText = string(b)
				attrs = append(attrs, "args", argText)
			}
		}
		if m := a.opts.Moderation; m != nil {
			// The audit log keeps refusals too: who tried what.
			m.Audit(AuditRecord{At: a.opts.Now(), By: "token:" + c.Name, Role: c.Role, Action: action, Args: argText, Status: status})
		}
		if err != nil {
			attrs = append(attrs, "err", err.Error())
			a.log.Warn("admin action refused", attrs...)
			writeErr(w, err)
			return
		}
		a.log.Info("admin action", attrs...)
		if a.opts.Audit != nil {
			a.opts.Audit(action)
		}
		writeJSON(w, status, res)
	}
}

// accepted marks a result answered with 202 (a change that takes effect
// later).
type accepted struct{ v any }

type auditKey struct{}

type auditArgs struct{ v any }

func remote(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func contextBG() context.Context { return context.Background() }

// do runs fn on the game goroutine.
func (a *Admin) do(ctx context.Context, fn func(g *engine.Game)) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := a.opts.Server.Do(ctx, fn); err != nil {
		return errorf(http.StatusServiceUnavailable, "game loop: %v", err)
	}
	return nil
}

// loopAlive reports whether the game loop answers. The probes need no
// token, so they check one at a time: a flood of them has at most one
// call queued on the game goroutine.
func (a *Admin) loopAlive(r *http.Request) bool {
	a.probeMu.Lock()
	defer a.probeMu.Unlock()
	return a.do(r.Context(), func(*engine.Game) {}) == nil
}

func (a *Admin) healthz(w http.ResponseWriter, r *http.Request) {
	// Healthy means the game loop answers: a stuck loop is what a
	// supervisor should restart.
	if !a.loopAlive(r) {
		http.Error(w, "game loop not answering\n", http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

func (a *Admin) readyz(w http.ResponseWriter, r *http.Request) {
	if !a.ready.Load() {
		http.Error(w, "not ready\n", http.StatusServiceUnavailable)
		return
	}
	state, ok := a.Readiness(r)
	if !ok {
		http.Error(w, state+"\n", http.StatusServiceUnavailable)
		return
	}
	_, _ = w.Write([]byte(state + "\n"))
}

// unavailable returns why the game takes no players at all ("" when it
// takes them, engine.Game.Unavailable), why its mission is suspended (""
// when it runs) and whether its loop answered. Like loopAlive, one probe
// at a time.
func (a *Admin) unavailable(r *http.Request) (why, suspended string, alive bool) {
	a.probeMu.Lock()
	defer a.probeMu.Unlock()
	err := a.do(r.Context(), func(g *engine.Game) {
		why = g.Unavailable()
		if a.opts.Missions != nil {
			suspended = a.opts.Missions.Info().Suspended
		}
	})
	return why, suspended, err == nil
}

// Readiness reports the game's state for a process-wide /readyz: "ready",
// "not ready" (starting or stopping), "not answering" (a stuck loop) or
// "no players: <why>" (no mission).
func (a *Admin) Readiness(r *http.Request) (state string, ok bool) {
	if !a.ready.Load() {
		return "not ready", false
	}
	why, suspended, alive := a.unavailable(r)
	switch {
	case !alive:
		return "game loop not answering", false
	case why != "":
		return "not taking players: " + why, false
	case suspended != "":
		// The players play on, but the mode keeps no score: not what the
		// host means by ready.
		return "game mode suspended: " + suspended, false
	}
	return "ready", true
}

// decode reads a JSON body strictly: unknown fields and trailing data are
// errors (400). The decoded value is kept for the audit line.
func decode(r *http.Request, v any) error {
	return decodeBody(r, v, false)
}

func decodeBody(r *http.Request, v any, optional bool) error {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return errorf(http.StatusRequestEntityTooLarge, "body larger than %d bytes", mbe.Limit)
		}
		return errorf(http.StatusBadRequest, "reading the body: %v", err)
	}
	if optional && len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(http.StatusBadRequest, "bad JSON body: %v", err)
	}
	if rest := bytes.TrimSpace(b[dec.InputOffset():]); len(rest) > 0 {
		return errorf(http.StatusBadRequest, "bad JSON body: trailing data")
	}
	if args, ok := r.Context().Value(auditKey{}).(*auditArgs); ok {
		args.v = v
	}
	return nil
}

// trimmed bounds and cleans a text argument.
func trimmed(s string, max int) string {
	s = strings.TrimSpace(s)
	if len(s) > max {
		s = s[:max]
	}
	return s
}
