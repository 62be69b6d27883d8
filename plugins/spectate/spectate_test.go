package spectate

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// Spectators cannot act: every method but GET and HEAD is refused, and
// each address has its own request budget.
func TestSpectateReadOnlyAndRateLimited(t *testing.T) {
	now := time.Unix(1e9, 0)
	sp := NewSpectator("g", time.Second)
	srv := New(Options{Spectators: []*Spectator{sp}, Rate: 1, Burst: 3, Now: func() time.Time { return now }})
	ask := func(method, path, from string) int {
		r := httptest.NewRequest(method, path, nil)
		r.RemoteAddr = from
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w.Code
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete} {
		if c := ask(m, "/api/view", "192.0.2.1:1000"); c != http.StatusMethodNotAllowed {
			t.Errorf("%s answered %d", m, c)
		}
	}
	for i := range 3 {
		if c := ask(http.MethodGet, "/api/view", "192.0.2.2:1000"); c != http.StatusOK {
			t.Fatalf("request %d: %d", i, c)
		}
	}
	if c := ask(http.MethodGet, "/api/view", "192.0.2.2:1001"); c != http.StatusTooManyRequests {
		t.Fatalf("over the burst: %d", c)
	}
	if c := ask(http.MethodGet, "/api/view", "192.0.2.3:1000"); c != http.StatusOK {
		t.Fatalf("another address: %d", c)
	}
	now = now.Add(time.Second)
	if c := ask(http.MethodGet, "/", "192.0.2.2:1000"); c != http.StatusOK {
		t.Fatalf("after a second: %d", c)
	}
	// The viewer caps.
	capped := New(Options{Spectators: []*Spectator{sp}, MaxViewers: 2, PerAddress: 1, Now: func() time.Time { return now }})
	a1, a2, a3 := addr("192.0.2.10"), addr("192.0.2.11"), addr("192.0.2.12")
	if !capped.enter(a1) || capped.enter(a1) {
		t.Fatal("per-address cap")
	}
	if !capped.enter(a2) || capped.enter(a3) {
		t.Fatal("viewer cap")
	}
	capped.leave(a2)
	if !capped.enter(a3) || capped.Viewers() != 2 {
		t.Fatal("a place freed is taken")
	}
}

func addr(s string) netip.Addr { return netip.MustParseAddr(s) }

// A refused request is told when to come back and its connection is
// closed; every address of one IPv6 /64 shares one stream allowance.
func TestSpectateRefusalsCloseAndCount(t *testing.T) {
	now := time.Unix(1e9, 0)
	sp := NewSpectator("g", time.Second)
	srv := New(Options{Spectators: []*Spectator{sp}, Rate: 1, Burst: 1, PerAddress: 1, Now: func() time.Time { return now }})
	ask := func(from string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, "/api/view", nil)
		r.RemoteAddr = from
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w
	}
	ask("[2001:db8::1]:1000")
	w := ask("[2001:db8::2]:1000") // the same /64: its budget is spent
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Connection") != "close" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("refusal: %d, headers %v", w.Code, w.Header())
	}
	if ask("[2001:db8:0:1::1]:1000").Code != http.StatusOK {
		t.Fatal("the next /64 is refused")
	}
	if !srv.enter(addr("2001:db8::5")) || srv.enter(addr("2001:db8::6")) {
		t.Fatal("a /64 opens more streams than per_address")
	}
	if srv.Refused() != 1 {
		t.Errorf("refused %d, want 1", srv.Refused())
	}
}

// A hidden game (a password, [spectate] hide) is not listed and its view
// is not served; the hide is asked again at every tick (a SIGHUP may set
// or clear the password).
func TestSpectateHiddenGame(t *testing.T) {
	hidden := true
	sp := NewSpectator("22101", 0)
	sp.SetHide(func() bool { return hidden })
	srv := New(Options{Spectators: []*Spectator{sp}})
	ask := func(path string) (int, string) {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.RemoteAddr = "192.0.2.1:1000"
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	if code, body := ask("/api/games"); code != 200 || body != "[]\n" {
		t.Fatalf("games of a hidden game: %d %q", code, body)
	}
	for _, p := range []string{"/api/view", "/api/view?game=22101", "/api/stream?game=22101"} {
		if code, _ := ask(p); code != http.StatusNotFound {
			t.Errorf("%s of a hidden game: %d", p, code)
		}
	}
	hidden = false
	sp.Tick(time.Unix(1e9, 0))
	if code, body := ask("/api/games"); code != 200 || !strings.Contains(body, `"22101"`) {
		t.Fatalf("games once shown: %d %q", code, body)
	}
	if code, _ := ask("/api/view?game=22101"); code != 200 {
		t.Fatalf("view once shown: %d", code)
	}
}

func TestSectionHidden(t *testing.T) {
	for _, tc := range []struct {
		s        Section
		port     int
		password string
		want     bool
	}{
		{Section{}, 22101, "", false},
		{Section{}, 22101, "secret", true},
		{Section{ShowLocked: true}, 22101, "secret", false},
		{Section{ShowLocked: true, Hide: []int{22101}}, 22101, "", true},
		{Section{Hide: []int{22102}}, 22101, "", false},
	} {
		if got := tc.s.Hidden(tc.port, tc.password); got != tc.want {
			t.Errorf("%+v port %d password %q: hidden %v", tc.s, tc.port, tc.password, got)
		}
	}
}
