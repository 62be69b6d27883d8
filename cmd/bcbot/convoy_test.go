package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/world"
	"github.com/bcserver/bcserver/internal/testutil"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/server"
)

const convoyToken = "convoy-test-token-0123456789"

// A live run of Convoy-like rules over loopback UDP, with bcbot as the
// players: an escort (-team 0) and a raider (-team 1, -weapons torpedo,
// -fire-at the host freighter by name). The raider's torpedoes go
// through the mission's damage rule (1.5x on the freighter), the
// freighter dies with the raider credited, and the match history and the
// recording show team 1 (the client's Team 2) as the winner.
func TestBotPlaysConvoyLive(t *testing.T) {
	dir := t.TempDir()
	cfg := server.DefaultConfig()
	cfg.Server.Address, cfg.Server.Port = "127.0.0.1", 0
	cfg.Gamespy.Enabled = false
	cfg.Admin.Listen, cfg.Admin.Token = "127.0.0.1:0", convoyToken
	cfg.Store.Path = filepath.Join(dir, "bcserver.db")
	cfg.Bans.File = filepath.Join(dir, "banlist.txt")
	cfg.Game.Mode = "convoy"
	// A worn freighter, so a volley or two finish it; no restart after
	// the end, so the record stays the last word.
	// Budgets a loaded race-detector run cannot exhaust: the test is of
	// the damage rule, and a call refused for the tick's spent budget
	// (wall time, which a busy machine inflates) leaves a hit unchanged.
	cfg.Lua.Budget, cfg.Lua.TickBudget = server.Duration(time.Second), server.Duration(time.Second)
	cfg.Mission = server.MissionSection(map[string]any{"freighter_hull": 0.05, "restart_after": int64(-1)})
	var logs testutil.LogBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := server.New(ctx, cfg, server.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()
	select {
	case <-srv.Ready():
	case err := <-done:
		t.Fatalf("server: %v\n%s", err, logs.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not get ready")
	}
	game := srv.Games()[0]
	// The engine's view: every torpedo hit on the freighter, its death.
	var mu sync.Mutex
	var torpedoes []float64
	var killer int
	ended, died := make(chan struct{}), make(chan struct{})
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	err = game.Do(dctx, func(g *engine.Game) {
		g.On(engine.EvWeaponHit, func(e engine.Event) {
			if h := e.(*engine.WeaponHit); h.Target != nil && h.Target.Name == "Freighter" && h.Kind == world.KindTorpedo {
				mu.Lock()
				torpedoes = append(torpedoes, h.Damage)
				mu.Unlock()
			}
		})
		g.On(engine.EvShipDestroyed, func(e engine.Event) {
			if d := e.(*engine.ShipDestroyed); d.Victim.Name == "Freighter" {
				mu.Lock()
				if killer == 0 {
					killer = d.KillerID
					close(died)
				}
				mu.Unlock()
			}
		})
		g.On(engine.EvGameEnded, func(engine.Event) { close(ended) })
	})
	dcancel()
	if err != nil {
		t.Fatal(err)
	}
	botCtx, stopBots := context.WithCancel(ctx)
	var wg sync.WaitGroup
	botLogs := make([]testutil.LogBuffer, 2)
	addr := game.Addr().String()
	for i, args := range [][]string{
		{"-name", "Kirk", "-team", "0", "-spawn", "Akira", "-pos", "60,0,0"},
		{"-name", "Kor", "-team", "1", "-spawn", "Vorcha", "-pos", "-50,10,0", "-weapons", "torpedo", "-fire-at", "Freighter", "-fire-every", "200ms"},
	} {
		wg.Add(1)
		go func(i int, args []string) {
			defer wg.Done()
			runContext(botCtx, append([]string{"-addr", addr, "-timeout", "10s"}, args...), &bytes.Buffer{}, &botLogs[i])
		}(i, args)
	}
	defer func() { stopBots(); wg.Wait() }()
	// The mission ends the game from inside the freighter's death, before
	// the plugins (and this test's handler) see the death: wait for both.
	timeout := time.After(60 * time.Second)
	for _, ch := range []chan struct{}{ended, died} {
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("the game did not end with the freighter's death\nKor:\n%s\nserver:\n%s", botLogs[1].String(), logs.String())
		}
	}
	mu.Lock()
	hits, by := append([]float64(nil), torpedoes...), killer
	mu.Unlock()
	if len(hits) == 0 || by == 0 {
		t.Fatalf("torpedo hits on the freighter %v, killer %d (want Kor)", hits, by)
	}
	for _, d := range hits {
		// A Klingon torpedo is 1400 hit points; the rule makes it 2100.
		if d != 2100 {
			t.Errorf("a torpedo hit on the freighter dealt %v, want 1400 x 1.5 (hits %v)\nKor:\n%s\nserver:\n%s", d, hits, botLogs[1].String(), logs.String())
			break
		}
	}

	// The record: the match history and the recording, written in the
	// background, name the winning team.
	var m history.Match
	var rec record.Entry
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for m.Outcome == nil || rec.Outcome == nil {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("no record of the winner: match %+v, recording %+v", m, rec)
		}
		var ms []history.Match
		if getJSON(t, srv, "/api/v1/matches", &ms) && len(ms) > 0 {
			m = ms[0]
		}
		var rs []record.Entry
		if getJSON(t, srv, "/api/v1/replays", &rs) && len(rs) > 0 && rs[0].Finished {
			rec = rs[0]
		}
	}
	for what, o := range map[string]*engine.Outcome{"history": m.Outcome, "recording": rec.Outcome} {
		if o.Team == nil || *o.Team != 1 || o.Why != "the freighter was destroyed by Kor" {
			t.Errorf("%s: outcome %+v", what, o)
		}
	}
	var sum record.Summary
	if !getJSON(t, srv, "/api/v1/replays/"+rec.ID, &sum) || len(sum.Kills) == 0 {
		t.Fatalf("replay summary %+v", sum)
	}
	if k := sum.Kills[len(sum.Kills)-1]; k.Victim != "Freighter" || k.Killer != "Kor" || !k.VictimIsHost {
		t.Fatalf("the last kill in the replay: %+v", k)
	}
	if !strings.Contains(botLogs[1].String(), `msg=END_GAME reason=0`) || !strings.Contains(botLogs[1].String(), "The freighter was destroyed by Kor. Team 2 wins!") {
		t.Fatalf("Kor's log:\n%s", botLogs[1].String())
	}
}

// getJSON reads an admin API path into v; false when it did not answer
// 200.
func getJSON(t *testing.T, srv *server.Server, path string, v any) bool {
	t.Helper()
	req, err := http.NewRequest("GET", fmt.Sprintf("http://%s%s", srv.AdminAddr(), path), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+convoyToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == 200 && json.NewDecoder(resp.Body).Decode(v) == nil
}
