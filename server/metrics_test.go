package server

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
)

// scrape reads /metrics (no token needed) and returns the families.
func (a *adminRun) scrape(t *testing.T) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(a.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d", resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	mf, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return mf
}

// value returns the value of the series of name whose labels include
// those given (name=value pairs), and whether it exists.
func value(mf map[string]*dto.MetricFamily, name string, labels ...string) (float64, bool) {
	f := mf[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.Label {
				found = found || l.GetName() == labels[i] && l.GetValue() == labels[i+1]
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		case m.Untyped != nil:
			return m.Untyped.GetValue(), true
		}
	}
	return 0, false
}

// The metrics follow the game: players, traffic, mission handler time,
// reloads, leaves by reason, admin actions, ticks; names are bcserver_*,
// and no label carries a player name.
func TestMetrics(t *testing.T) {
	a := serveAdmin(t, nil)
	a.join(t, "Alice")
	bob := a.join(t, "Bob")
	// Let at least one game tick pass so the tick histogram has a sample.
	deadline := time.Now().Add(5 * time.Second)
	for ticks := uint64(0); ticks < 2 && time.Now().Before(deadline); {
		a.do(t, func(g *engine.Game) { ticks = g.Ticks() })
	}
	mf := a.scrape(t)
	want := map[string]float64{"bcserver_players": 2, "bcserver_players_joining": 0, "bcserver_games": 1, "bcserver_game_over": 0, "bcserver_joins_total": 2}
	for name, v := range want {
		if got, ok := value(mf, name); !ok || got != v {
			t.Fatalf("%s = %v (%v), want %v", name, got, ok, v)
		}
	}
	for _, name := range []string{"bcserver_datagrams_received_total", "bcserver_datagrams_sent_total", "bcserver_received_bytes_total", "bcserver_sent_bytes_total",
		"bcserver_tick_duration_seconds", "bcserver_relay_latency_seconds", "bcserver_ticks_total"} {
		if got, ok := value(mf, name); !ok || got <= 0 {
			t.Fatalf("%s = %v (%v), want > 0", name, got, ok)
		}
	}
	if runtime.GOOS == "linux" { // where the kernel timestamps arrivals
		if got, ok := value(mf, "bcserver_receive_delay_seconds"); !ok || got <= 0 {
			t.Fatalf("bcserver_receive_delay_seconds = %v (%v), want > 0", got, ok)
		}
	}
	if got, ok := value(mf, "bcserver_lua_handler_seconds", "mission", "deathmatch"); !ok || got <= 0 {
		t.Fatalf("lua handler samples %v %v", got, ok)
	}
	for _, name := range []string{"go_goroutines", "process_resident_memory_bytes", "bcserver_dropped_total", "bcserver_retransmits_total", "bcserver_rtt_seconds", "bcserver_gamespy_queries_total", "bcserver_store_writes_dropped_total"} {
		if _, ok := mf[name]; !ok {
			t.Fatalf("no %s", name)
		}
	}
	if _, ok := value(mf, "bcserver_dropped_total", "reason", "throttled"); !ok {
		t.Fatal("no throttled drop series")
	}
	if _, ok := value(mf, "bcserver_fairplay_violations_total", "rule", "teleport"); !ok {
		t.Fatal("no fair-play violation series")
	}

	if code := a.call(t, "POST", "/api/v1/mission/reload", testToken, nil, nil); code != 200 {
		t.Fatalf("reload: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/kick", testToken, map[string]string{"player": "Bob"}, nil); code != 200 {
		t.Fatalf("kick: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bob.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	mf = a.scrape(t)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"bcserver_players", nil, 1},
		{"bcserver_mission_reloads_total", []string{"mission", "deathmatch", "result", "ok"}, 1},
		{"bcserver_player_leaves_total", []string{"reason", "kicked"}, 1},
		{"bcserver_admin_actions_total", []string{"action", "kick"}, 1},
		{"bcserver_admin_actions_total", []string{"action", "mission_reload"}, 1},
	} {
		if got, ok := value(mf, c.name, c.labels...); !ok || got != c.want {
			t.Fatalf("%s%v = %v (%v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	for name, f := range mf {
		if !strings.HasPrefix(name, "bcserver_") && !strings.HasPrefix(name, "go_") && !strings.HasPrefix(name, "process_") {
			t.Fatalf("metric %s outside the bcserver_ namespace", name)
		}
		for _, m := range f.Metric {
			for _, l := range m.Label {
				if v := l.GetValue(); v == "Alice" || v == "Bob" {
					t.Fatalf("%s has a player name as a label: %v", name, l)
				}
			}
		}
	}
}

// A mission handler that runs into its time budget is counted as an
// overrun of its mission; a reload that fails is counted as an error.
func TestMetricsLuaOverrun(t *testing.T) {
	dir := copyMissions(t)
	if err := os.MkdirAll(filepath.Join(dir, "spin"), 0o755); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "spin", "main.lua")
	if err := os.WriteFile(main, []byte(`bc.on("chat", function() while true do end end)`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := serveAdmin(t, func(uc *Config) {
		uc.Game.MissionsDir, uc.Game.Mode = dir, "spin"
		uc.Lua.Watch = "off"
		uc.Lua.Budget = Duration(5 * time.Millisecond)
		// The metric compares the handler's wall time with the budget, so
		// the budget must be wall time too: with virtual steps the spin is
		// stopped after 5 ms of steps, which a fast machine runs in less.
		uc.Lua.stepTime = 0
	})
	alice := a.join(t, "Alice")
	if err := alice.Chat("spin", false); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	got := 0.0
	for i := 0; i < 1000 && got == 0 && time.Now().Before(deadline); i++ {
		got, _ = value(a.scrape(t), "bcserver_lua_budget_overruns_total", "mission", "spin")
	}
	if got != 1 {
		t.Fatalf("overruns %v, want 1", got)
	}
	if err := os.WriteFile(main, []byte("this is not lua\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := a.call(t, "POST", "/api/v1/mission/reload", testToken, nil, nil); code != 422 {
		t.Fatalf("broken reload: %d", code)
	}
	if got, ok := value(a.scrape(t), "bcserver_mission_reloads_total", "mission", "spin", "result", "error"); !ok || got != 1 {
		t.Fatalf("failed reloads %v %v", got, ok)
	}
}
