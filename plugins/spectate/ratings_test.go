package spectate

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// The public leaderboard is served only when [ratings] public gives it,
// read-only like the rest of the page.
func TestPublicRatings(t *testing.T) {
	lb := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"ratings":[]}`)) })
	for _, tc := range []struct {
		ratings      http.Handler
		method, path string
		want         int
	}{
		{lb, "GET", "/api/ratings", 200},
		{lb, "GET", "/ratings.html", 200},
		{lb, "POST", "/api/ratings", 405},
		{nil, "GET", "/api/ratings", 404},
		{nil, "GET", "/ratings.html", 404},
	} {
		srv := New(Options{Ratings: tc.ratings, Rate: 100, Burst: 100})
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, tc.path, nil)
		req.RemoteAddr = "127.0.0.1:5000"
		srv.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("ratings %v %s %s: %d, want %d", tc.ratings != nil, tc.method, tc.path, rec.Code, tc.want)
		}
		srv.Close()
	}
}
