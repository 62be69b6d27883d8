package stats

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
)

// API serves the career statistics (the admin plugin mounts it behind its
// token; the leaderboard page reads it):
//
//	GET /api/v1/leaderboard?by=score&limit=50&min=1   the top players (by: score, kills, kd, assists, matches, time, damage)
//	GET /api/v1/career/{name}                          one player's career
//
// Reads run on the HTTP goroutine against the database, never the game.
func API(st Store) http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/v1/leaderboard", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		by := q.Get("by")
		if by == "" {
			by = "score"
		}
		limit, min := 50, 1
		var err error
		if s := q.Get("limit"); s != "" {
			if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > 500 {
				writeError(w, http.StatusBadRequest, "limit %q: want 1..500", s)
				return
			}
		}
		if s := q.Get("min"); s != "" {
			if min, err = strconv.Atoi(s); err != nil || min < 1 || min > 1_000_000 {
				writeError(w, http.StatusBadRequest, "min %q: want a number of matches", s)
				return
			}
		}
		list, err := st.Leaderboard(r.Context(), by, limit, min)
		if err != nil {
			if strings.HasPrefix(err.Error(), "order ") {
				writeError(w, http.StatusBadRequest, "%v", err)
				return
			}
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, list)
	})
	m.HandleFunc("GET /api/v1/career/{name}", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSpace(r.PathValue("name"))
		if name == "" || len(name) > 128 {
			writeError(w, http.StatusBadRequest, "bad player name")
			return
		}
		c, err := st.Career(r.Context(), names.Key(name))
		if errors.Is(err, history.ErrNotFound) {
			writeError(w, http.StatusNotFound, "no recorded match for %q", name)
			return
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		writeJSON(w, http.StatusOK, c)
	})
	return m
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, map[string]string{"error": fmt.Sprintf(format, args...)})
}
