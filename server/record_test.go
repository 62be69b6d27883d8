package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/plugins/record"
)

// With [store] path set, every match is recorded beside the database
// (recording is on by default), the admin API lists and serves it, the
// match's players are in the career statistics, and [record] enabled =
// false turns recording off.
func TestMatchesRecordedByDefault(t *testing.T) {
	a := serveAdmin(t, nil)
	alice := a.join(t, "Alice")
	a.join(t, "Bob")
	spawn(t, alice, 1, codec.FirstObjectID(int(alice.Settings().Slot)), [3]float32{-120, 40, 0})
	a.do(t, func(g *engine.Game) {
		for i, p := range g.Players() {
			g.SetScore(p, 2-i, i, 20000-10000*i)
		}
	})
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	for _, s := range a.s.p.sinks {
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.p.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var list []record.Entry
	if code := a.call(t, "GET", "/api/v1/replays", testToken, nil, &list); code != 200 || len(list) != 1 {
		t.Fatalf("replays: %d %+v", code, list)
	}
	if e := list[0]; !e.Finished || e.Reason != "ended_by_admin" || e.Mode != "deathmatch" {
		t.Fatalf("recording %+v", e)
	}
	var sum record.Summary
	if code := a.call(t, "GET", "/api/v1/replays/"+list[0].ID, testToken, nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	if len(sum.Players) != 2 || sum.Players[0].Name != "Alice" || sum.Players[0].Score != 20000 || len(sum.Ships) != 1 {
		t.Fatalf("summary players %+v ships %+v", sum.Players, sum.Ships)
	}
	if code := a.call(t, "GET", "/api/v1/replays/..%2Fbcserver.db", testToken, nil, nil); code != 404 {
		t.Fatalf("a path outside the folder answered %d", code)
	}
	if code := a.call(t, "GET", "/api/v1/replays", "", nil, nil); code != 401 {
		t.Fatalf("replays without the token: %d", code)
	}
	var top []history.Career
	if code := a.call(t, "GET", "/api/v1/leaderboard?by=score", testToken, nil, &top); code != 200 || len(top) != 2 || top[0].Identity != "alice" || top[0].Kills != 2 {
		t.Fatalf("leaderboard: %d %+v", code, top)
	}
	var c history.Career
	if code := a.call(t, "GET", "/api/v1/career/Bob", testToken, nil, &c); code != 200 || c.Matches != 1 || c.Deaths != 1 {
		t.Fatalf("career: %d %+v", code, c)
	}

	off := serveAdmin(t, func(uc *Config) { uc.Record.Enabled = false })
	if code := off.call(t, "GET", "/api/v1/replays", testToken, nil, nil); code != 501 {
		t.Fatalf("replays with recording off: %d", code)
	}
}

// The first match of a run is recorded with the header of the mission
// that runs, not the engine's default (Mission1, "DM"): the recorder
// starts while the mission still loads and waits for it; the match
// history has the mission's map too.
func TestFirstRecordingHasTheMissionsHeader(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) {
		uc.Game.Mode = "team-deathmatch"
		uc.Mission = MissionSection(map[string]any{"system": "Multi3"})
	})
	a.join(t, "Alice")
	if code := a.call(t, "POST", "/api/v1/game/end", testToken, nil, nil); code != 200 {
		t.Fatalf("end: %d", code)
	}
	for _, s := range a.s.p.sinks {
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.s.p.store.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var list []record.Entry
	if code := a.call(t, "GET", "/api/v1/replays", testToken, nil, &list); code != 200 || len(list) != 1 {
		t.Fatalf("replays: %d %+v", code, list)
	}
	var sum record.Summary
	if code := a.call(t, "GET", "/api/v1/replays/"+list[0].ID, testToken, nil, &sum); code != 200 {
		t.Fatalf("summary: %d", code)
	}
	if h := sum.Header; h.Script != "Multiplayer.Episode.Mission2.Mission2" || h.Map != "Multi3" || h.Mode != "team-deathmatch" {
		t.Fatalf("header %+v", h)
	}
	var ms []history.Match
	if code := a.call(t, "GET", "/api/v1/matches", testToken, nil, &ms); code != 200 || len(ms) != 1 || ms[0].Map != "Multi3" {
		t.Fatalf("matches: %d %+v", code, ms)
	}
}

// The start-up log names the mission the mode announces, not the
// engine's default: the socket opens while the mission loads, and the
// mission's own "mission loaded" line names its script and map.
func TestStartupLogNamesTheMission(t *testing.T) {
	r, _ := serveWith(t, func(uc *Config) { uc.Game.Mode = "team-deathmatch" }, nil)
	r.join(t, "Alice") // the mission has loaded
	logs := r.logs.String()
	if strings.Contains(logs, "Mission1") || !strings.Contains(logs, `msg="mission loaded"`) || !strings.Contains(logs, "script=Multiplayer.Episode.Mission2.Mission2 map=Multi1") {
		t.Fatalf("start-up log:\n%s", logs)
	}
}
