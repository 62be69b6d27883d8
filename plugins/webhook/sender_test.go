package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// endpoint is a local webhook answering each request with the next
// status of its script (the last one repeats), keeping the bodies.
type endpoint struct {
	mu       sync.Mutex
	statuses []int
	header   http.Header
	bodies   [][]byte
	srv      *httptest.Server
}

func newEndpoint(t *testing.T, statuses ...int) *endpoint {
	e := &endpoint{statuses: statuses}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		e.mu.Lock()
		e.bodies = append(e.bodies, b)
		st := e.statuses[0]
		if len(e.statuses) > 1 {
			e.statuses = e.statuses[1:]
		}
		for k, v := range e.header {
			w.Header()[k] = v
		}
		e.mu.Unlock()
		w.WriteHeader(st)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

func (e *endpoint) requests() [][]byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bodies
}

// waits records the sender's pauses instead of sleeping.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) wait(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return nil
}

func testSender(t *testing.T, url string, w *waits, mod func(*Options)) *Sender {
	t.Helper()
	o := Options{URL: url, Queue: 10, Timeout: 5 * time.Second, Retries: 3, Backoff: 2 * time.Second, MaxBackoff: 10 * time.Second, Wait: w.wait}
	if mod != nil {
		mod(&o)
	}
	s, err := NewSender(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A message to an endpoint that fails is tried again after 2 s, 4 s, 8 s
// (capped at max_backoff), a 429's Retry-After is honoured, a 4xx other
// than 429 is not retried, and a message out of tries is given up.
func TestSenderRetries(t *testing.T) {
	for _, tc := range []struct {
		name       string
		statuses   []int
		retryAfter string
		waits      []time.Duration
		sent       uint64
		failed     uint64
	}{
		{"ok at once", []int{204}, "", nil, 1, 0},
		{"5xx then ok", []int{500, 502, 200}, "", []time.Duration{2 * time.Second, 4 * time.Second}, 1, 0},
		{"429 with Retry-After", []int{429, 200}, "7", []time.Duration{7 * time.Second}, 1, 0},
		{"Retry-After capped", []int{429, 200}, "3600", []time.Duration{10 * time.Second}, 1, 0},
		{"400 not retried", []int{400}, "", nil, 0, 1},
		{"out of tries", []int{500}, "", []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEndpoint(t, tc.statuses...)
			if tc.retryAfter != "" {
				e.header = http.Header{"Retry-After": {tc.retryAfter}}
			}
			w := &waits{}
			s := testSender(t, e.srv.URL+"/hook", w, nil)
			if !s.Enqueue(Message{Kind: EventServerUp, Server: "bc"}) {
				t.Fatal("not queued")
			}
			s.Close(context.Background())
			if s.Stats.Sent.Load() != tc.sent || s.Stats.Failed.Load() != tc.failed {
				t.Fatalf("sent %d failed %d", s.Stats.Sent.Load(), s.Stats.Failed.Load())
			}
			if !equalDurations(w.d, tc.waits) {
				t.Fatalf("waits %v, want %v", w.d, tc.waits)
			}
			if n := len(e.requests()); n != len(tc.waits)+1 {
				t.Fatalf("%d requests", n)
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Posts are spaced by min_interval on the sender's clock.
func TestSenderSpacesPosts(t *testing.T) {
	e := newEndpoint(t, 204)
	w := &waits{}
	now := time.Unix(1000, 0)
	s := testSender(t, e.srv.URL, w, func(o *Options) {
		o.MinInterval = 2 * time.Second
		o.Now = func() time.Time { return now } // frozen: each post waits the whole interval
	})
	for range 3 {
		s.Enqueue(Message{Kind: EventServerUp})
	}
	s.Close(context.Background())
	if !equalDurations(w.d, []time.Duration{2 * time.Second, 2 * time.Second}) || s.Stats.Sent.Load() != 3 {
		t.Fatalf("waits %v sent %d", w.d, s.Stats.Sent.Load())
	}
}

// A slow endpoint never blocks the caller: Enqueue returns at once while
// a post hangs, the queue's excess is dropped and counted, and Close
// with a deadline abandons what is left.
func TestSlowEndpointNeverBlocks(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	s := testSender(t, srv.URL, &waits{}, func(o *Options) { o.Queue = 2; o.Retries = 0 })
	s.Enqueue(Message{Kind: EventServerUp})
	select { // the first post hangs in the endpoint
	case <-entered:
	case <-time.After(30 * time.Second):
		t.Fatal("nothing posted")
	}
	queued := 0
	for range 10 {
		if s.Enqueue(Message{Kind: EventJoin, Player: "x"}) {
			queued++
		}
	}
	if queued != 2 || s.Stats.Dropped.Load() != 8 {
		t.Fatalf("queued %d dropped %d", queued, s.Stats.Dropped.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no time left: Close abandons the hanging post and the queue
	s.Close(ctx)
	if s.Stats.Sent.Load() != 0 || s.Stats.Failed.Load() != 3 {
		t.Fatalf("sent %d failed %d", s.Stats.Sent.Load(), s.Stats.Failed.Load())
	}
	if s.Enqueue(Message{Kind: EventServerDown}) {
		t.Fatal("queued after Close")
	}
}

// The webhook URL holds a secret (a Discord webhook's token is in its
// path): no log line has it, whether the endpoint fails, refuses the
// connection or times out.
func TestURLSecretNeverLogged(t *testing.T) {
	const secret = "s3cr3t-T0KEN-abcdef"
	e := newEndpoint(t, 500)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	for _, url := range []string{e.srv.URL + "/api/webhooks/1/" + secret, closedURL + "/api/webhooks/1/" + secret + "?wait=" + secret} {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		s := testSender(t, url, &waits{}, func(o *Options) { o.Logger = log; o.Retries = 1 })
		s.Enqueue(Message{Kind: EventServerUp})
		s.Close(context.Background())
		if s.Stats.Failed.Load() != 1 {
			t.Fatalf("failed %d", s.Stats.Failed.Load())
		}
		if strings.Contains(logs.String(), secret) || !strings.Contains(logs.String(), "not delivered") {
			t.Fatalf("log:\n%s", logs.String())
		}
	}
	if err := (Section{URL: "ftp://x/" + secret, Format: FormatJSON, Queue: 1, Timeout: 1}).Validate(); err == nil || strings.Contains(err.Error(), secret) {
		t.Fatalf("validate: %v", err)
	}
}

// A Discord match-end message is well formed: names are shown as typed
// (markdown escaped, no mention can ping anyone), the scoreboard is
// ordered, the winner and the replay link are there.
func TestDiscordMatchEnd(t *testing.T) {
	team := 1
	b, err := Render(Message{Kind: EventMatchEnd, Server: "My *server*", Time: time.Unix(0, 0), Mode: "team-deathmatch", System: "Multi3",
		Reason: "frag_limit", WinnerTeam: &team, Why: "@everyone look", Duration: 754 * time.Second,
		Teams:      []TeamLine{{Team: 0, Kills: 2, Score: 20}, {Team: 1, Kills: 5, Score: 50}},
		Scoreboard: []PlayerLine{{Name: "@everyone", Score: 30, Kills: 3}, {Name: "`x```", Score: 10}},
		Replay:     "https://bc.example.net/replay.html"}, FormatDiscord)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Username        string
		AllowedMentions struct{ Parse *[]string } `json:"allowed_mentions"`
		Embeds          []struct {
			Title, Description, URL string
			Fields                  []struct{ Name, Value string }
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.AllowedMentions.Parse == nil || len(*d.AllowedMentions.Parse) != 0 || len(d.Embeds) != 1 {
		t.Fatalf("%s", b)
	}
	e := d.Embeds[0]
	if e.Title != "Match over: team-deathmatch on Multi3" || !strings.Contains(e.Description, "team 1") ||
		!strings.Contains(e.Description, `\@everyone look`) || !strings.Contains(e.Description, "12m34s") || e.URL == "" {
		t.Fatalf("%+v", e)
	}
	board := e.Fields[len(e.Fields)-1].Value
	if !strings.HasPrefix(board, "```\n") || strings.Count(board, "```") != 2 || !strings.Contains(board, "@everyone") {
		t.Fatalf("scoreboard %q", board)
	}
}
