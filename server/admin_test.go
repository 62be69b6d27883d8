package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/internal/testutil"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
)

const testToken = "test-token-0123456789abcdef"

// adminRun is a served configuration with the admin HTTP server on.
type adminRun struct {
	running
	s    *served
	base string
	stop func() // stops the server (also done at cleanup)
}

// hangUp sends the process a SIGHUP once the server handles it.
func (a *adminRun) hangUp(t *testing.T) {
	t.Helper()
	select {
	case <-a.s.hupWatched:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGHUP not handled 10 s after Run")
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
}

func serveAdmin(t *testing.T, mutate func(*Config)) *adminRun {
	t.Helper()
	dir := t.TempDir()
	var s *served
	r, stop := serveWith(t, func(uc *Config) {
		uc.Admin.Listen = "127.0.0.1:0"
		uc.Admin.Token = testToken
		uc.Store.Path = filepath.Join(dir, "bcserver.db")
		uc.Bans.File = filepath.Join(dir, "banlist.txt")
		if mutate != nil {
			mutate(uc)
		}
	}, func(x *served) { s = x })
	return &adminRun{running: *r, s: s, base: "http://" + s.AdminAddr().String(), stop: stop}
}

// serveWith serves a test configuration on a free loopback port; got, if
// not nil, sees the served internals. The server stops at the end of the
// test or when stop is called.
func serveWith(t *testing.T, mutate func(*Config), got func(*served)) (*running, func()) {
	t.Helper()
	uc := loopbackConfig()
	uc.Gamespy.Enabled = false
	uc.Lua.stepTime = 100 * time.Nanosecond // deterministic budgets
	if mutate != nil {
		mutate(&uc)
	}
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	logs := &testutil.LogBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *running, 1)
	done := make(chan error, 1)
	go func() {
		done <- serveFull(ctx, uc, rc, log, func(s *served) {
			if got != nil {
				got(s)
			}
			ready <- &running{srv: s.srv, host: s.missions.current(), logs: logs, errs: s.errs}
		})
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Error("server did not stop")
			}
		})
	}
	t.Cleanup(stop)
	select {
	case r := <-ready:
		return r, stop
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("server not ready")
	}
	return nil, stop
}

// call makes an API request and decodes the JSON answer into out (if not
// nil); it returns the status.
func (a *adminRun) call(t *testing.T, method, path, token string, body any, out any) int {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, a.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %d %q: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	if resp.StatusCode >= 400 && !strings.Contains(string(raw), `"error"`) {
		t.Fatalf("%s %s: %d without a JSON error: %q", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode
}

func (a *adminRun) status(t *testing.T) admin.Status {
	t.Helper()
	var st admin.Status
	if code := a.call(t, "GET", "/api/v1/status", testToken, nil, &st); code != 200 {
		t.Fatalf("status: %d", code)
	}
	return st
}

func names(ps []admin.PlayerInfo) string {
	var n []string
	for _, p := range ps {
		n = append(n, p.Name)
	}
	return strings.Join(n, ",")
}

// Without the token nothing in /api/ answers; the probes and the console
// need none.
func TestAdminAuth(t *testing.T) {
	a := serveAdmin(t, nil)
	for _, path := range []string{"/api/v1/status", "/api/v1/players", "/api/v1/bans", "/api/v1/matches", "/api/v1/nope"} {
		for _, tok := range []string{"", "wrong-token-0123456789"} {
			var e map[string]string
			if code := a.call(t, "GET", path, tok, nil, &e); code != 401 || e["error"] == "" {
				t.Fatalf("GET %s with %q: %d %v", path, tok, code, e)
			}
		}
	}
	if code := a.call(t, "POST", "/api/v1/kick", "", map[string]string{"player": "x"}, nil); code != 401 {
		t.Fatalf("kick without token: %d", code)
	}
	for _, path := range []string{"/healthz", "/readyz", "/", "/app.js", "/style.css"} {
		resp, err := http.Get(a.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
	}
	if code := a.call(t, "GET", "/api/v1/nope", testToken, nil, nil); code != 404 {
		t.Fatalf("unknown endpoint: %d", code)
	}
}

// Status and players list the bots; kick takes one off the server (it
// gets the stock "kicked" boot) and is audited; bad input is refused.
func TestAdminStatusKick(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	st := a.status(t)
	if names(st.Players) != "Alice,Bob" || st.Mission.Mode != "deathmatch" || st.Mission.Map != "Multi1" || st.Server.Name != "bcserver" || st.Mission.GameOver {
		t.Fatalf("status: %+v", st)
	}
	for _, p := range st.Players {
		if p.State != "in-game" || p.Address == "" || p.Team != -1 || p.ID < 2 {
			t.Fatalf("player: %+v", p)
		}
	}
	var ps []admin.PlayerInfo
	if code := a.call(t, "GET", "/api/v1/players", testToken, nil, &ps); code != 200 || len(ps) != 2 {
		t.Fatalf("players: %d %+v", code, ps)
	}

	for _, c := range []struct {
		body any
		want int
	}{
		{`{"player":`, 400},
		{`{"player":"Bob","extra":1}`, 400},
		{map[string]string{"reason": "no player"}, 400},
		{map[string]string{"player": "Nobody"}, 404},
		{map[string]any{"player": 99}, 404},
	} {
		var e map[string]string
		if code := a.call(t, "POST", "/api/v1/kick", testToken, c.body, &e); code != c.want {
			t.Fatalf("kick %v: %d %v, want %d", c.body, code, e, c.want)
		}
	}
	var res map[string]admin.PlayerInfo
	if code := a.call(t, "POST", "/api/v1/kick", testToken, map[string]string{"player": "bob", "reason": "testing"}, &res); code != 200 || res["kicked"].Name != "Bob" {
		t.Fatalf("kick: %d %+v", code, res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bob.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	if bob.BootReason() != bcnet.BootKicked {
		t.Fatalf("boot reason %d", bob.BootReason())
	}
	if st := a.status(t); names(st.Players) != "Alice" {
		t.Fatalf("after the kick: %s", names(st.Players))
	}
	// Alice is told why, from the host's id.
	await(t, alice, "kick notice", codec.Chat{Sender: 1, Text: []byte("Bob was kicked by the host: testing")}.AppendTo(nil), 5*time.Second)
	if logs := a.logs.String(); !strings.Contains(logs, "admin action") || !strings.Contains(logs, "action=kick") || !strings.Contains(logs, `\"player\":\"bob\"`) {
		t.Fatalf("no audit line:\n%s", logs)
	}
	// By id.
	if code := a.call(t, "POST", "/api/v1/kick", testToken, map[string]any{"player": int(alice.ID())}, nil); code != 200 {
		t.Fatalf("kick by id: %d", code)
	}
	if err := alice.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
}

// say reaches everyone, or one player, as a chat line from the host.
func TestAdminSay(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	bob := a.join(t, "Bob")
	for _, c := range []struct {
		body any
		want int
	}{
		{map[string]string{"text": "  "}, 400},
		{map[string]string{"text": strings.Repeat("x", 300)}, 400},
		{map[string]string{"text": "hi", "player": "Zed"}, 404},
		{`[]`, 400},
	} {
		if code := a.call(t, "POST", "/api/v1/say", testToken, c.body, nil); code != c.want {
			t.Fatalf("say %v: %d, want %d", c.body, code, c.want)
		}
	}
	var res map[string]int
	if code := a.call(t, "POST", "/api/v1/say", testToken, map[string]string{"text": "hello all"}, &res); code != 200 || res["sent_to"] != 2 {
		t.Fatalf("say: %d %v", code, res)
	}
	all := codec.Chat{Sender: 1, Text: []byte("hello all")}.AppendTo(nil)
	await(t, alice, "host chat", all, 5*time.Second)
	await(t, bob, "host chat", all, 5*time.Second)
	if code := a.call(t, "POST", "/api/v1/say", testToken, map[string]string{"text": "just you", "player": "Bob"}, &res); code != 200 || res["sent_to"] != 1 {
		t.Fatalf("say to Bob: %d %v", code, res)
	}
	await(t, bob, "private host chat", codec.Chat{Sender: 1, Text: []byte("just you")}.AppendTo(nil), 5*time.Second)
}

// The game can be ended and restarted; the match is recorded and
// queryable; reload bumps the mission version.
func TestAdminGameAndHistory(t *testing.T) {
	a := serveAdmin(t, nil)
	a.join(t, "Alice")
	a.join(t, "Bob")
	a.do(t, func(g *engine.Game) {
		for _, p := range g.Players() {
			if p.Name == "Alice" {
				g.SetScore(p, 3, 1, 30000)
			}
		}
	})
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, map[string]int{"reason": 42}, nil); code != 400 {
		t.Fatalf("bad reason: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	if st := a.status(t); !st.Mission.GameOver {
		t.Fatal("not over")
	}
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 409 {
		t.Fatalf("end twice: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/game/restart", testToken, "{}", nil); code != 200 {
		t.Fatalf("restart: %d", code)
	}
	if st := a.status(t); st.Mission.GameOver {
		t.Fatal("still over after the restart")
	}
	v := a.status(t).Mission.Version
	var rel map[string]any
	if code := a.call(t, "POST", "/api/v1/mission/reload", testToken, nil, &rel); code != 200 || int(rel["version"].(float64)) != v+1 {
		t.Fatalf("reload: %d %v (was v%d)", code, rel, v)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.p.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var ms []struct {
		ID      int64
		Mode    string
		Reason  string
		Players []struct {
			Name  string
			Score int
		}
	}
	if code := a.call(t, "GET", "/api/v1/matches", testToken, nil, &ms); code != 200 || len(ms) != 1 {
		t.Fatalf("matches: %d %+v", code, ms)
	}
	if m := ms[0]; m.Mode != "deathmatch" || m.Reason != "ended_by_admin" || len(m.Players) != 2 || m.Players[0].Name != "Alice" || m.Players[0].Score != 30000 {
		t.Fatalf("match: %+v", m)
	}
	var stats map[string]any
	if code := a.call(t, "GET", "/api/v1/players/ALICE/stats", testToken, nil, &stats); code != 200 || stats["matches"].(float64) != 1 || stats["score"].(float64) != 30000 {
		t.Fatalf("stats: %d %v", code, stats)
	}
	if code := a.call(t, "GET", "/api/v1/players/Nobody/stats", testToken, nil, nil); code != 404 {
		t.Fatalf("unknown player stats: %d", code)
	}
	if code := a.call(t, "GET", "/api/v1/matches?limit=0", testToken, nil, nil); code != 400 {
		t.Fatalf("bad limit: %d", code)
	}
}

// mission/set switches the mode when the running match ends (or at once
// with now); unknown modes are refused.
func TestAdminMissionSet(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) { uc.Mission["restart_after"] = int64(-1) })
	a.join(t, "Alice")
	for _, body := range []any{map[string]string{"mode": "nope"}, map[string]string{}, map[string]any{"mode": 3}} {
		if code := a.call(t, "POST", "/api/v1/mission/set", testToken, body, nil); code != 400 {
			t.Fatalf("set %v: %d", body, code)
		}
	}
	var res map[string]any
	if code := a.call(t, "POST", "/api/v1/mission/set", testToken, map[string]string{"mode": "team-deathmatch"}, &res); code != 202 || res["pending"] != true {
		t.Fatalf("set: %d %v", code, res)
	}
	if st := a.status(t); st.Mission.Mode != "deathmatch" || st.Mission.PendingMode != "team-deathmatch" {
		t.Fatalf("before the end: %+v", st.Mission)
	}
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	waitMode(t, a, "team-deathmatch")
	if code := a.call(t, "POST", "/api/v1/mission/set", testToken, map[string]any{"mode": "deathmatch", "now": true}, &res); code != 200 || res["pending"] != false {
		t.Fatalf("set now: %d %v", code, res)
	}
	if st := a.status(t); st.Mission.Mode != "deathmatch" || st.Mission.GameOver {
		t.Fatalf("after set now: %+v", st.Mission)
	}
}

// waitMode polls the status (bounded) until the mode is want: the switch
// at END_GAME happens on the next loop pass.
func waitMode(t *testing.T, a *adminRun, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; i < 5000 && time.Now().Before(deadline); i++ {
		if st := a.status(t); st.Mission.Mode == want && st.Mission.PendingMode == "" {
			return
		}
	}
	t.Fatalf("mode never became %s: %+v", want, a.status(t).Mission)
}

// The event stream starts with the log tail and a status with the ships.
func TestAdminEvents(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	spawn(t, alice, 1, codec.FirstObjectID(int(alice.Settings().Slot)), [3]float32{10, 20, 30})
	req, _ := http.NewRequest("GET", a.base+"/api/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var event string
	sawLog := false
	for i := 0; i < 10000 && sc.Scan(); i++ {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		if event == "log" {
			sawLog = sawLog || strings.Contains(data, "player joined")
			continue
		}
		if event != "status" {
			t.Fatalf("event %s: %s", event, data)
		}
		var st admin.Status
		if err := json.Unmarshal([]byte(data), &st); err != nil {
			t.Fatal(err)
		}
		if names(st.Players) != "Alice" {
			t.Fatalf("status players %s", names(st.Players))
		}
		// The ship appears once its creation reached the server.
		if len(st.Ships) == 1 {
			s := st.Ships[0]
			if s.Owner != "Alice" || s.Position == nil || *s.Position != [3]float32{10, 20, 30} || s.Hull == nil || *s.Hull != 1 || !s.Alive {
				t.Fatalf("ship %+v", s)
			}
			if !sawLog {
				t.Fatal("no log lines before the status")
			}
			return
		}
	}
	t.Fatalf("no status with the ship: %v", sc.Err())
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// The status carries what the stock mission library keeps: the time left
// and, in team modes, the team scores.
func TestAdminTimeLeftAndTeams(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) {
		uc.Game.Mode = "team-deathmatch"
		uc.Mission["time_limit"] = int64(5)
	})
	a.join(t, "Alice")
	m := a.status(t).Mission
	if m.TimeLeft == nil || *m.TimeLeft > 300 || *m.TimeLeft < 250 || m.TimeLimit != 5 {
		t.Fatalf("time left %v (limit %d)", m.TimeLeft, m.TimeLimit)
	}
	if len(m.Teams) != 2 || m.Teams[0].Team != 0 || m.Teams[1].Team != 1 || m.Mode != "team-deathmatch" {
		t.Fatalf("teams %+v mode %s", m.Teams, m.Mode)
	}
	b := serveAdmin(t, nil)
	if m := b.status(t).Mission; m.TimeLeft != nil || len(m.Teams) != 0 {
		t.Fatalf("deathmatch without a time limit: %+v", m)
	}
}

func chatFromHost(text string) []byte { return codec.Chat{Sender: 1, Text: []byte(text)}.AppendTo(nil) }
