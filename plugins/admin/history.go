package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
)

// History is the match history as the API reads it (the store plugin's
// Store). Reads run on the HTTP goroutine, never the game's.
type History interface {
	Matches(ctx context.Context, limit int, before int64) ([]history.Match, error)
	Player(ctx context.Context, identity string) (history.PlayerStats, error)
}

func (a *Admin) getMatches(w http.ResponseWriter, r *http.Request) {
	if a.opts.History == nil {
		writeError(w, http.StatusNotImplemented, "no match history: set [store] path")
		return
	}
	q := r.URL.Query()
	limit, before := 20, int64(0)
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 500 {
			writeError(w, http.StatusBadRequest, "limit %q: want 1..500", s)
			return
		}
		limit = n
	}
	if s := q.Get("before"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, "before %q: want a match id", s)
			return
		}
		before = n
	}
	ms, err := a.opts.History.Matches(r.Context(), limit, before)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ms)
}

func (a *Admin) getPlayerStats(w http.ResponseWriter, r *http.Request) {
	if a.opts.History == nil {
		writeError(w, http.StatusNotImplemented, "no match history: set [store] path")
		return
	}
	name := strings.TrimSpace(r.PathValue("name"))
	if name == "" || len(name) > 128 {
		writeError(w, http.StatusBadRequest, "bad player name")
		return
	}
	st, err := a.opts.History.Player(r.Context(), names.Key(name))
	if errors.Is(err, history.ErrNotFound) {
		writeError(w, http.StatusNotFound, "no recorded match for %q", name)
		return
	}
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}
