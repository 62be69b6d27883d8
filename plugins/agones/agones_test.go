package agones

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
)

func TestFromEnv(t *testing.T) {
	t.Setenv(EnvPort, "")
	if _, ok, err := FromEnv(); ok || err != nil {
		t.Fatalf("unset: %v %v", ok, err)
	}
	t.Setenv(EnvPort, "9358")
	if u, ok, err := FromEnv(); !ok || err != nil || u != "http://localhost:9358" {
		t.Fatalf("9358: %q %v %v", u, ok, err)
	}
	for _, bad := range []string{"x", "0", "70000"} {
		t.Setenv(EnvPort, bad)
		if _, ok, err := FromEnv(); !ok || err == nil {
			t.Fatalf("%q: %v %v", bad, ok, err)
		}
	}
}

// Driven by engine events on a game with no network: Ready (retried past
// a sidecar error), player connect and disconnect by name, Shutdown at
// END_GAME; Stop sends what is queued.
func TestPluginCalls(t *testing.T) {
	calls := make(chan string, 64)
	bodies := make(chan map[string]string, 64)
	readyFails := 2
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ready" && readyFails > 0 {
			readyFails--
			http.Error(w, "not yet", http.StatusInternalServerError)
			return
		}
		var b map[string]string
		_ = json.NewDecoder(r.Body).Decode(&b)
		if r.URL.Path != "/health" {
			calls <- r.URL.Path
			bodies <- b
		}
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{BaseURL: srv.URL, ShutdownAfterMatch: true, RetryInterval: time.Millisecond, HealthInterval: time.Hour})
	if err := g.AddPlugin(p); err != nil {
		t.Fatal(err)
	}
	pl := &engine.Player{Owner: world.Owner{ID: 2}, Name: "Picard"}
	g.Emit(&engine.PlayerInGame{Player: pl})
	g.Emit(&engine.PlayerLeft{Player: pl, WasInGame: true})
	g.Emit(&engine.PlayerLeft{Player: &engine.Player{Owner: world.Owner{ID: 3}}, WasInGame: false}) // never in the game: not reported
	g.Emit(&engine.GameEnded{Reason: 1})
	g.Shutdown(time.Now())
	close(calls)
	var got []string
	for c := range calls {
		b := <-bodies
		if c != "/ready" && c != "/shutdown" {
			c += " " + b["playerID"]
		}
		got = append(got, c)
	}
	want := []string{"/ready", "/alpha/player/connect Picard", "/alpha/player/disconnect Picard", "/shutdown"}
	if len(got) != len(want) {
		t.Fatalf("calls %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("calls %q, want %q", got, want)
		}
	}
	if !p.Ready() {
		t.Fatal("not ready")
	}
}

// Health is tied to the game loop (issue 21): it goes to the sidecar only
// while the loop has run within StallLimit, stops when the loop is stuck
// for longer, and comes back when it runs again.
func TestHealthFollowsTheGameLoop(t *testing.T) {
	var health atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" {
			health.Add(1)
		}
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	now := time.Unix(5000, 0)
	clock := func() time.Time { return now }
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{BaseURL: srv.URL, HealthInterval: time.Hour, Now: clock})
	if err := g.AddPlugin(p); err != nil {
		t.Fatal(err)
	}
	defer g.Shutdown(now)
	if !p.healthTick() || health.Load() != 1 {
		t.Fatalf("a running loop: health %d", health.Load())
	}
	// The loop runs for a second and a half: still healthy.
	now = now.Add(1500 * time.Millisecond)
	g.Advance(now)
	if !p.healthTick() || health.Load() != 2 {
		t.Fatalf("after the loop ran: health %d", health.Load())
	}
	// Stuck: the wall clock moves, the loop does not.
	now = now.Add(2100 * time.Millisecond)
	first, second := p.healthTick(), p.healthTick()
	if first || second || health.Load() != 2 {
		t.Fatalf("a loop stuck for 2.1 s: health %d", health.Load())
	}
	g.Advance(now)
	if !p.healthTick() || health.Load() != 3 {
		t.Fatalf("the loop ran again: health %d", health.Load())
	}
}

// With StartOnAllocation the match clock starts when Agones allocates the
// game server: a match that ends while the server waits is not a reason
// to shut down (an idle Ready server used to end itself every time
// limit), and the allocation restarts the game, a fresh match.
func TestMatchStartsAtAllocation(t *testing.T) {
	var state atomic.Value
	state.Store("Ready")
	calls := make(chan string, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/gameserver" {
			_ = json.NewEncoder(w).Encode(map[string]any{"object_meta": map[string]any{"name": "gs-1"}, "status": map[string]any{"state": state.Load()}})
			return
		}
		if r.URL.Path != "/health" {
			calls <- r.URL.Path
		}
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	now := time.Unix(5000, 0)
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	restarts := 0
	g.On(engine.EvGameRestarted, func(engine.Event) { restarts++ })
	p := New(Options{BaseURL: srv.URL, ShutdownAfterMatch: true, StartOnAllocation: true, HealthInterval: time.Hour, PollInterval: time.Hour})
	if err := g.AddPlugin(p); err != nil {
		t.Fatal(err)
	}
	// The time limit ends a match nobody was sent to: no Shutdown.
	g.Emit(&engine.GameEnded{Reason: 1})
	if p.checkAllocation() {
		t.Fatal("allocated while Ready")
	}
	state.Store("Allocated")
	if !p.checkAllocation() {
		t.Fatal("the allocation not seen")
	}
	select {
	case <-p.Allocated():
	default:
		t.Fatal("Allocated not closed")
	}
	g.RunPosted()
	if restarts != 1 {
		t.Fatalf("%d restarts at the allocation, want 1", restarts)
	}
	// Now a match's end asks for Shutdown.
	g.Emit(&engine.GameEnded{Reason: 1})
	g.Shutdown(now)
	close(calls)
	var got []string
	for c := range calls {
		got = append(got, c)
	}
	if len(got) != 2 || got[0] != "/ready" || got[1] != "/shutdown" {
		t.Fatalf("calls %q, want /ready then one /shutdown", got)
	}
}
