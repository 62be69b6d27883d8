package admin

import "net/http"

// extraRoutes mounts the handlers other plugins serve behind the admin
// token: the match recordings for the replay viewer (plugins/record) and
// the career statistics for the leaderboard (plugins/stats).
func (a *Admin) extraRoutes(api func(pattern string, h http.HandlerFunc)) {
	notFound := func(what, key string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			writeError(w, http.StatusNotImplemented, "no %s: set %s", what, key)
		}
	}
	replays := notFound("match recordings", "[store] path or [record] dir")
	if h := a.opts.Replays; h != nil {
		replays = h.ServeHTTP
	}
	api("GET /api/v1/replays", replays)
	api("GET /api/v1/replays/", replays)
	career := notFound("career statistics", "[store] path")
	if h := a.opts.Career; h != nil {
		career = h.ServeHTTP
	}
	api("GET /api/v1/leaderboard", career)
	api("GET /api/v1/career/{name}", career)
	ratings := notFound("ratings", "[ratings] enabled")
	if h := a.opts.Ratings; h != nil {
		ratings = h.ServeHTTP
	}
	api("GET /api/v1/ratings", ratings)
}
