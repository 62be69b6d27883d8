package agones

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
