package main

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/bcserver/bcserver/engine"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/gamespy"
	"github.com/bcserver/bcserver/plugins/metrics"
	"github.com/bcserver/bcserver/plugins/store"
)

// GameTable is one [[games]] table: one more game in this process, on its
// own port, with its own mission. A key left out takes the top-level
// value ([server], [game], [mission]); every other section is shared.
type GameTable struct {
	Port            *int      `toml:"port"`
	Address         *string   `toml:"address"`
	Name            *string   `toml:"name"`
	Mode            *string   `toml:"mode"`
	MaxPlayers      *int      `toml:"max_players"`
	Password        *string   `toml:"password"`
	MissionsDir     *string   `toml:"missions_dir"`
	Addons          *[]string `toml:"addons"`
	JoinInProgress  *bool     `toml:"join_in_progress"`
	CollisionDamage *bool     `toml:"collision_damage"`
	// Mission keys are merged over the top-level [mission] table.
	Mission MissionSection `toml:"mission"`
}

// maxGames bounds one process; more games scale by more processes.
const maxGames = 1024

// games returns the configuration of every game the process runs: the
// top-level one alone, its -games copies on consecutive ports, or one per
// [[games]] table.
func (c UserConfig) games() ([]UserConfig, error) {
	base := c
	base.Games, base.copies = nil, 0
	switch {
	case len(c.Games) > 0 && c.copies > 1:
		return nil, errors.New("-games copies the top-level game; the configuration has [[games]] tables: use one or the other")
	case len(c.Games) > maxGames || c.copies > maxGames:
		return nil, fmt.Errorf("more than %d games in one process: run more processes", maxGames)
	case c.copies > 1:
		if c.Server.Port == 0 {
			return nil, errors.New("-games needs a fixed server.port to count from")
		}
		if c.Server.Port+c.copies-1 > 65535 {
			return nil, fmt.Errorf("-games %d from port %d runs past 65535", c.copies, c.Server.Port)
		}
		out := make([]UserConfig, c.copies)
		for i := range out {
			g := base
			g.Mission = maps.Clone(c.Mission)
			g.Server.Port = c.Server.Port + i
			out[i] = g
		}
		return out, nil
	case len(c.Games) == 0:
		return []UserConfig{base}, nil
	}
	out := make([]UserConfig, 0, len(c.Games))
	seen := map[string]int{}
	for i, t := range c.Games {
		g := base
		g.Mission = maps.Clone(c.Mission)
		set(&g.Server.Port, t.Port)
		set(&g.Server.Address, t.Address)
		set(&g.Server.Name, t.Name)
		set(&g.Game.Mode, t.Mode)
		set(&g.Server.MaxPlayers, t.MaxPlayers)
		set(&g.Server.Password, t.Password)
		set(&g.Game.Addons, t.Addons)
		set(&g.Game.JoinInProgress, t.JoinInProgress)
		set(&g.Game.CollisionDamage, t.CollisionDamage)
		if t.MissionsDir != nil {
			g.Game.MissionsDir = *t.MissionsDir
			if d := g.Game.MissionsDir; d != "" && !filepath.IsAbs(d) && c.dir != "" {
				g.Game.MissionsDir = filepath.Join(c.dir, d)
			}
		}
		if g.Mission == nil && len(t.Mission) > 0 {
			g.Mission = MissionSection{}
		}
		maps.Copy(g.Mission, t.Mission)
		if g.Server.Port != 0 {
			key := net.JoinHostPort(g.Server.Address, strconv.Itoa(g.Server.Port))
			if j, dup := seen[key]; dup {
				return nil, fmt.Errorf("games[%d] and games[%d] both use %s", j, i, key)
			}
			seen[key] = i
		}
		out = append(out, g)
	}
	return out, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// gameUnit is one running game and what serves it.
type gameUnit struct {
	label    string // the game label in logs and metrics: its port
	uc       UserConfig
	srv      *engine.Server
	missions *missionSlot
	gamespy  *gamespy.Plugin
	metrics  *metrics.Metrics
	recorder *store.Recorder // with match history on
}

// process holds what the games of one process share.
type process struct {
	log      *slog.Logger
	registry *prometheus.Registry // nil with one game: its own registry
	answers  *bcnet.AnswerBudget
	watches  *missionWatches // one watcher per missions folder
}

// startGame binds one game's socket and starts its mission, GameSpy and
// metrics plugins (before it runs).
// label names it in logs and metrics: its port, or its index when the
// port is left to the system.
func startGame(p *process, uc UserConfig, rc engine.Config, label string, multi bool) (*gameUnit, error) {
	rc.Answers = p.answers
	log := p.log
	if multi {
		// Every line of this game says which game it is.
		log = log.With("game", label)
	}
	srv, err := engine.Listen(engine.ServerOptions{
		Addr:   net.JoinHostPort(uc.Server.Address, strconv.Itoa(uc.Server.Port)),
		Config: rc,
		Logger: log,
	})
	if err != nil {
		return nil, err
	}
	u := &gameUnit{label: label, uc: uc, srv: srv}
	mo := metrics.Options{Server: srv, Logger: log, Registry: p.registry}
	if multi {
		mo.Game = u.label
	}
	u.metrics = metrics.New(mo)
	if u.missions, err = startMission(p.watches, uc, srv.Game(), log, u.metrics); err != nil {
		return nil, err
	}
	// The heartbeats announce the port actually bound (server.port may be
	// 0), so masters list this game where players can reach it.
	u.gamespy = gamespy.NewPlugin(uc.Plugins.Gamespy.Runtime(), gamespy.PluginOptions{GamePort: int(srv.Addr().Port()), Logger: log})
	if err := srv.Game().AddPlugin(u.gamespy); err != nil {
		return nil, err
	}
	gs := u.gamespy
	u.metrics.SetGamespy(func() (uint64, uint64) { s := gs.Stats(); return s.Queries, s.RateLimited })
	return u, nil
}

// runGames runs every game on its own goroutine until ctx ends. A game
// that fails (Server.Run recovers a panic and returns it) is logged and
// left stopped; the others play on.
func runGames(ctx context.Context, units []*gameUnit, log *slog.Logger) error {
	var wg sync.WaitGroup
	errs := make([]error, len(units))
	for i, u := range units {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := u.srv.Run(ctx)
			if err != nil && !errors.Is(err, context.Canceled) {
				errs[i] = err
				if len(units) > 1 {
					log.Error("game stopped; the other games play on", "game", u.label, "err", err)
				}
			}
		}()
	}
	wg.Wait()
	if len(units) == 1 {
		return errs[0]
	}
	return nil
}

// handler routes the admin HTTP server: /games lists the games, and
// /games/<label>/... is that game's API; everything else is the first
// game's (its console, API, /metrics and the probes).
func (op *operator) handler() http.Handler {
	if len(op.admins) == 1 {
		return op.admins[0]
	}
	mux := http.NewServeMux()
	for i, u := range op.games {
		prefix := "/games/" + u.label
		mux.Handle(prefix+"/", http.StripPrefix(prefix, op.admins[i]))
	}
	mux.HandleFunc("GET /games", op.listGames)
	mux.HandleFunc("GET /readyz", op.readyz)
	mux.Handle("/", op.admins[0])
	return mux
}

// readyz reports every game's state, one line each; it answers 200 while
// at least one game takes players (the process serves), else 503. A
// game's own state is also at /games/<label>/readyz.
func (op *operator) readyz(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	serving := false
	for i, u := range op.games {
		state, ok := op.admins[i].Readiness(r)
		serving = serving || ok
		fmt.Fprintf(&b, "game %s: %s\n", u.label, state)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !serving {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_, _ = w.Write([]byte(b.String()))
}

// gameInfo is one entry of GET /games.
type gameInfo struct {
	Game       string `json:"game"`
	Addr       string `json:"addr"`
	Name       string `json:"name"`
	Mode       string `json:"mode"`
	Players    int    `json:"players"`
	MaxPlayers int    `json:"max_players"`
	API        string `json:"api"`
	Running    bool   `json:"running"`
	// Error says why the game takes no players (its mission could not
	// start), "" when it does.
	Error string `json:"error,omitempty"`
}

func (op *operator) listGames(w http.ResponseWriter, r *http.Request) {
	want := "Bearer " + op.token
	if got := r.Header.Get("Authorization"); subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	out := make([]gameInfo, 0, len(op.games))
	for _, u := range op.games {
		gi := gameInfo{Game: u.label, Addr: u.srv.Addr().String(), Mode: u.missions.Mode(), API: "/games/" + u.label + "/api/v1/", Error: u.missions.Failure()}
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		err := u.srv.Do(ctx, func(g *engine.Game) {
			gi.Name, gi.Players, gi.MaxPlayers = g.Config().ServerName, g.NumPlayers(false), g.MaxPlayers()
		})
		cancel()
		gi.Running = err == nil
		out = append(out, gi)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// watchHUP re-reads the configuration on SIGHUP and applies it to every
// game (each to its own table); the returned func stops watching.
func watchHUP(ctx context.Context, units []*gameUnit, log *slog.Logger) func() {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	cur := make([]UserConfig, len(units))
	for i, u := range units {
		cur[i] = u.uc
		if cur[i].reload != nil {
			reload := u.uc.reload
			cur[i].reload = func() (UserConfig, error) {
				all, err := reload()
				if err != nil {
					return all, err
				}
				specs, err := all.games()
				if err != nil {
					return all, err
				}
				if len(specs) != len(units) {
					return all, fmt.Errorf("the configuration now has %d games, %d run: adding or removing games needs a restart", len(specs), len(units))
				}
				specs[i].reload = cur[i].reload
				return specs[i], nil
			}
		}
	}
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				for i, u := range units {
					l := log
					if len(units) > 1 {
						l = log.With("game", u.label)
					}
					cur[i] = reconfigure(ctx, cur[i], u.srv, u.missions, l)
				}
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		cancel()
		<-done
	}
}
