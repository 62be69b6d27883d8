package spectate

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/plugins/record"
)

func getView(t *testing.T, s *Server) View {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/api/view", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("view: %d %s", w.Code, w.Body)
	}
	var v View
	if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func shipAt(v View, id int32) ([3]float32, bool) {
	for _, s := range v.Frame.Ships {
		if s.ID == id {
			return s.Pos, true
		}
	}
	return [3]float32{}, false
}

// The spectator page shows a ship only once the delay has passed since it
// appeared, and shows it where it was then, not where it is now (fake
// clock: the game advances, nothing sleeps).
func TestSpectatorSeesShipsOnlyAfterTheDelay(t *testing.T) {
	w, err := missiontest.NewMatch(missiontest.Options{Mode: "deathmatch", FS: missions.FS()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sp := NewSpectator("22101", DefaultDelay)
	if err := w.Game.AddPlugin(record.NewCapture(record.CaptureOptions{Game: "22101"}, sp)); err != nil {
		t.Fatal(err)
	}
	srv := New(Options{Spectators: []*Spectator{sp}, Now: func() time.Time { return w.Now }})
	alice, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)
	ship, err := alice.Spawn(5, [3]float32{100, 20, 0})
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(29 * time.Second)
	if p, ok := shipAt(getView(t, srv), ship); ok {
		t.Fatalf("29 s after the spawn the spectators see the ship at %v", p)
	}
	w.Advance(1500 * time.Millisecond)
	v := getView(t, srv)
	p, ok := shipAt(v, ship)
	if !ok || p != [3]float32{100, 20, 0} {
		t.Fatalf("30.5 s after the spawn: ship %v at %v; view %+v", ok, p, v.Frame)
	}
	if !v.Live || len(v.Frame.Players) != 1 || v.Frame.Players[0].Name != "Alice" {
		t.Fatalf("view %+v", v)
	}
	// It moves; the spectators see the old place for the delay.
	if err := alice.Move([3]float32{-50, 80, 10}, [3]float32{0, 1, 0}); err != nil {
		t.Fatal(err)
	}
	w.Advance(29 * time.Second)
	if p, _ := shipAt(getView(t, srv), ship); p != [3]float32{100, 20, 0} {
		t.Fatalf("29 s after the move the spectators see %v", p)
	}
	w.Advance(1500 * time.Millisecond)
	if p, _ := shipAt(getView(t, srv), ship); p != [3]float32{-50, 80, 10} {
		t.Fatalf("30.5 s after the move the spectators see %v", p)
	}
}

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
	for _, a := range []string{"192.0.2.10", "192.0.2.11", "192.0.2.12"} {
		capped.allow(addr(a))
	}
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
