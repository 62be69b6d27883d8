package missiontest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/server"
)

// endMission ends the match when a player says !end, naming him the
// winner with his score.
var endMission = fstest.MapFS{"m/main.lua": {Data: []byte(`
bc.on("mission_load", function() bc.set_mission { map_name = "DM", system = "Multi3" } end)
bc.command("end", function(c)
  bc.set_score(c.player.id, 3, 1, 30)
  bc.end_game(bc.END.SCORE_LIMIT_REACHED, { winner = c.player.id, why = "said so" })
end)
`)}}

// hookServer collects the messages a webhook gets; with hang set, each
// request hangs until release is closed.
type hookServer struct {
	mu      sync.Mutex
	bodies  [][]byte
	entered chan struct{}
	hang    bool
	release chan struct{}
	srv     *httptest.Server
}

func newHookServer(t *testing.T, hang bool) *hookServer {
	h := &hookServer{entered: make(chan struct{}, 16), hang: hang, release: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.bodies = append(h.bodies, b)
		h.mu.Unlock()
		h.entered <- struct{}{}
		if h.hang {
			select {
			case <-h.release:
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(func() { h.srv.Close() })
	return h
}

func (h *hookServer) messages(t *testing.T) []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]any
	for _, b := range h.bodies {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("not JSON: %s", b)
		}
		out = append(out, m)
	}
	return out
}

func webhookConfig(url string, events ...string) func(*server.Config) {
	return func(c *server.Config) {
		c.Webhook.URL, c.Webhook.Format, c.Webhook.Events = url, "json", events
		c.Webhook.MinInterval, c.Webhook.Backoff = 0, 0
	}
}

// Each match that ends sends one well-formed match-end message: mode,
// system, reason, winner, the scoreboard and the duration.
func TestWebhookOneMessagePerMatch(t *testing.T) {
	h := newHookServer(t, false)
	w, err := NewMatch(Options{Mode: "m", FS: endMission, Configure: webhookConfig(h.srv.URL, "match_end")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Join("Bob"); err != nil {
		t.Fatal(err)
	}
	for match := range 2 {
		w.Advance(90 * time.Second)
		if err := a.Chat("!end", false); err != nil {
			t.Fatal(err)
		}
		w.Advance(time.Second)
		if !w.Game.GameOver() {
			t.Fatalf("match %d did not end", match)
		}
		w.Advance(31 * time.Second) // restart_after: the next match
	}
	w.Close() // the sender drains its queue
	ms := h.messages(t)
	if len(ms) != 2 {
		t.Fatalf("%d messages: %v", len(ms), ms)
	}
	for _, m := range ms {
		board, _ := m["scoreboard"].([]any)
		first, _ := board[0].(map[string]any)
		if m["event"] != "match_end" || m["mode"] != "m" || m["system"] != "Multi3" || m["reason"] != "score_limit" ||
			m["winner"] != "Alice" || m["why"] != "said so" || len(board) != 2 || first["name"] != "Alice" || first["score"] != 30.0 {
			t.Fatalf("%v", m)
		}
	}
	if d := ms[0]["duration_seconds"].(float64); d < 90 || d > 92 {
		t.Fatalf("first match lasted %v s", d)
	}
}

// A webhook that hangs never delays the game: while its endpoint holds
// the first post, the game plays on tick after tick, and joins, leaves
// and a match end are queued without waiting.
func TestSlowWebhookNeverDelaysATick(t *testing.T) {
	h := newHookServer(t, true)
	w, err := NewMatch(Options{Mode: "m", FS: endMission, Configure: webhookConfig(h.srv.URL, "match_end", "join", "leave")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Join("Alice")
	if err != nil {
		t.Fatal(err)
	}
	select { // the join's post hangs in the endpoint
	case <-h.entered:
	case <-time.After(30 * time.Second):
		t.Fatal("the join was never posted")
	}
	ticks := w.Game.Ticks()
	b, err := w.Join("Bob")
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Chat("!end", false)
	w.Advance(10 * time.Second)
	if err := b.Leave(); err != nil {
		t.Fatal(err)
	}
	w.Advance(10 * time.Second)
	if got := w.Game.Ticks() - ticks; got < 200 || !w.Game.GameOver() {
		t.Fatalf("%d ticks while the webhook hung; game over %v", got, w.Game.GameOver())
	}
	if n := len(h.messages(t)); n != 1 {
		t.Fatalf("%d posts reached the endpoint while the first hung", n)
	}
	close(h.release)
	w.Close()
	ms := h.messages(t)
	kinds := map[string]int{}
	for _, m := range ms {
		kinds[m["event"].(string)]++
	}
	if kinds["join"] != 2 || kinds["match_end"] != 1 || kinds["leave"] < 1 {
		t.Fatalf("%v", kinds)
	}
}

// A fair-play violation that reaches its rule's notify step is announced,
// once a minute per player and rule however often it recurs.
func TestWebhookViolation(t *testing.T) {
	h := newHookServer(t, false)
	hook := webhookConfig(h.srv.URL, "violation")
	w, err := NewMatch(Options{Mode: "m", FS: endMission, Configure: func(c *server.Config) {
		hook(c)
		c.FairPlay.Enabled = true
		c.FairPlay.Notify = 1
	}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Join("Jumper")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Spawn(1, [3]float32{0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)
	for k := range 5 {
		if err := a.Move([3]float32{0, float32(1000 * (k + 1)), 0}, [3]float32{0, 1, 0}); err != nil {
			t.Fatal(err)
		}
		w.Advance(100 * time.Millisecond)
	}
	w.Close()
	ms := h.messages(t)
	if len(ms) != 1 || ms[0]["event"] != "violation" || ms[0]["player"] != "Jumper" || ms[0]["rule"] != "teleport" || ms[0]["action"] != "notify" {
		t.Fatalf("%v", ms)
	}
}
