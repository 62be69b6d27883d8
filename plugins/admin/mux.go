package admin

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine"
)

// Game is one game of a process as the HTTP server of several games
// serves it (Mux).
type Game struct {
	// Label names the game in paths (/games/<label>/...): its port.
	Label string
	// API is the game's own API, console and probes.
	API *Admin
	// Server is the running game.
	Server *engine.Server
	// Mode returns the running mode and Failure why the game's mission
	// could not start ("" while one runs); both from any goroutine.
	Mode, Failure func() string
}

// Mux routes one HTTP server over the games of a process: /games lists
// them, /games/<label>/... is that game's API, everything else is the
// first game's (its console, API, /metrics and the probes), and /readyz
// answers for the whole process. With one game /readyz is that game's
// own, and /games lists the one game (so a tool written for several
// works on one). token is the bearer token /games wants.
func Mux(games []Game, token string) http.Handler {
	m := &mux{games: games, token: token}
	h := http.NewServeMux()
	for _, g := range games {
		prefix := "/games/" + g.Label
		h.Handle(prefix+"/", http.StripPrefix(prefix, g.API))
	}
	h.HandleFunc("GET /games", m.listGames)
	if len(games) > 1 {
		h.HandleFunc("GET /readyz", m.readyz)
	}
	h.Handle("/", games[0].API)
	return h
}

type mux struct {
	games []Game
	token string
}

// readyz reports every game's state, one line each; it answers 200 while
// at least one game takes players (the process serves), else 503. A
// game's own state is also at /games/<label>/readyz.
func (m *mux) readyz(w http.ResponseWriter, r *http.Request) {
	var b strings.Builder
	serving := false
	for _, g := range m.games {
		state, ok := g.API.Readiness(r)
		serving = serving || ok
		fmt.Fprintf(&b, "game %s: %s\n", g.Label, state)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if !serving {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_, _ = w.Write([]byte(b.String()))
}

// GameInfo is one entry of GET /games (several games in one process).
type GameInfo struct {
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

func (m *mux) listGames(w http.ResponseWriter, r *http.Request) {
	want := "Bearer " + m.token
	if got := r.Header.Get("Authorization"); subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	out := make([]GameInfo, 0, len(m.games))
	for _, g := range m.games {
		gi := GameInfo{Game: g.Label, Addr: g.Server.Addr().String(), Mode: g.Mode(), API: "/games/" + g.Label + "/api/v1/", Error: g.Failure()}
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		err := g.Server.Do(ctx, func(eg *engine.Game) {
			gi.Name, gi.Players, gi.MaxPlayers = eg.Config().ServerName, eg.NumPlayers(false), eg.MaxPlayers()
		})
		cancel()
		gi.Running = err == nil
		out = append(out, gi)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
