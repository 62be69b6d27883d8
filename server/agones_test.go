package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

type sidecarCall struct {
	path string
	body map[string]any
}

// fakeSidecar is the Agones SDK sidecar's HTTP API as the tests need it:
// it records every call. The first Ready fails, as when the sidecar is
// still starting.
func fakeSidecar(t *testing.T) (port string, calls <-chan sidecarCall) {
	t.Helper()
	ch := make(chan sidecarCall, 1024)
	failedReady := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/gameserver" {
			// Allocated at once: the server starts a fresh match.
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"object_meta":{"name":"gs"},"status":{"state":"Allocated"}}`))
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON POST", http.StatusBadRequest)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, "bad JSON", http.StatusBadRequest)
			return
		}
		if r.URL.Path == "/ready" && !failedReady {
			failedReady = true
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		select {
		case ch <- sidecarCall{r.URL.Path, body}:
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u.Port(), ch
}

// next waits for the next call to path, skipping health pings (and
// counting them).
func next(t *testing.T, calls <-chan sidecarCall, path string, health *int) sidecarCall {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case c := <-calls:
			if c.path == "/health" {
				*health++
				if path != "/health" {
					continue
				}
			}
			if c.path != path {
				t.Fatalf("sidecar got %s, want %s", c.path, path)
			}
			return c
		case <-deadline:
			t.Fatalf("no %s call", path)
		}
	}
}

// Under Agones the server says Ready (retrying while the sidecar starts),
// pings Health, starts a fresh match when allocated, reports players
// connecting and leaving, and asks for Shutdown when the match ends.
func TestAgonesSidecar(t *testing.T) {
	port, calls := fakeSidecar(t)
	t.Setenv("AGONES_SDK_HTTP_PORT", port)
	a := serveAdmin(t, func(uc *Config) {
		uc.Agones.ShutdownAfterMatch = true
		uc.Agones.HealthInterval = Duration(20 * time.Millisecond)
	})
	health := 0
	next(t, calls, "/ready", &health)
	a.join(t, "Alice")
	if c := next(t, calls, "/alpha/player/connect", &health); c.body["playerID"] != "Alice" {
		t.Fatalf("connect %v", c.body)
	}
	if code := a.call(t, "POST", "/api/v1/kick", testToken, map[string]string{"player": "Alice"}, nil); code != 200 {
		t.Fatalf("kick: %d", code)
	}
	if c := next(t, calls, "/alpha/player/disconnect", &health); c.body["playerID"] != "Alice" {
		t.Fatalf("disconnect %v", c.body)
	}
	if health == 0 {
		next(t, calls, "/health", &health)
	}
	select {
	case <-a.s.games[0].agones.Allocated():
	case <-time.After(15 * time.Second):
		t.Fatal("the allocation was not seen")
	}
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	next(t, calls, "/shutdown", &health)
	if !strings.Contains(a.logs.String(), "allocated by Agones: a fresh match starts now") {
		t.Fatal("no fresh match at the allocation")
	}
	if !a.s.games[0].agones.Ready() {
		t.Fatal("plugin does not know it is ready")
	}
}

// A bad AGONES_SDK_HTTP_PORT stops the server from starting.
func TestAgonesBadPort(t *testing.T) {
	t.Setenv("AGONES_SDK_HTTP_PORT", "nine")
	uc := loopbackConfig()
	uc.Gamespy.Enabled = false
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	err = serve(t.Context(), uc, rc, discard(), nil)
	if err == nil || !strings.Contains(err.Error(), "AGONES_SDK_HTTP_PORT") {
		t.Fatalf("serve: %v", err)
	}
}
