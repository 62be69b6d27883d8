package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/world"
)

// A match records its players once each, and no more than maxMatchPlayers
// of them however many new names join: the first ones are kept.
func TestRecorderMatchPlayersBounded(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(s, RecorderOptions{})
	if err := r.Start(g); err != nil {
		t.Fatal(err)
	}
	for i := range maxMatchPlayers + 50 {
		p := &engine.Player{Owner: world.Owner{ID: byte(2 + i%16)}, Name: fmt.Sprintf("Rejoiner %d", i)}
		g.Emit(&engine.PlayerInGame{Player: p})
		g.Emit(&engine.PlayerInGame{Player: p}) // the same identity again: one entry
	}
	r.Stop(g)
	flush(t, s)
	ms, err := s.Matches(context.Background(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || len(ms[0].Players) != maxMatchPlayers {
		t.Fatalf("%d matches; players %d", len(ms), len(ms[0].Players))
	}
	names := map[string]bool{}
	for _, p := range ms[0].Players {
		names[p.Name] = true
	}
	for i := range maxMatchPlayers {
		if !names[fmt.Sprintf("Rejoiner %d", i)] {
			t.Fatalf("Rejoiner %d (one of the first %d) not recorded", i, maxMatchPlayers)
		}
	}
}

// A player's rejoins are sessions of one match: its history line sums
// them (each rejoin starts from zero), as its career does.
func TestRecorderSumsSessions(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(s, RecorderOptions{})
	if err := r.Start(g); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		p := &engine.Player{Owner: world.Owner{ID: byte(2 + i)}, Name: "Victim", Kills: 1, Deaths: 2, Score: 100}
		g.Emit(&engine.PlayerInGame{Player: p})
		p.Kills, p.Score = 2, 200
		g.Emit(&engine.PlayerLeft{Player: p, WasInGame: true})
	}
	r.Stop(g)
	flush(t, s)
	ms, err := s.Matches(context.Background(), 10, 0)
	if err != nil || len(ms) != 1 || len(ms[0].Players) != 1 {
		t.Fatalf("matches %+v %v", ms, err)
	}
	if p := ms[0].Players[0]; p.Kills != 6 || p.Deaths != 6 || p.Score != 600 {
		t.Fatalf("line %+v: want the three sessions summed", p)
	}
	st, err := s.Player(context.Background(), Identity("victim"))
	if err != nil || st.Matches != 1 || st.Kills != 6 {
		t.Fatalf("player stats %+v %v", st, err)
	}
}

// The outcome the mission gave at END_GAME (who won, why, the team
// scores) is kept with the match; a match ended without one has none.
func TestRecorderKeepsOutcome(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(s, RecorderOptions{})
	if err := r.Start(g); err != nil {
		t.Fatal(err)
	}
	p := &engine.Player{Owner: world.Owner{ID: 2, Team: 1}, Name: "Kirk"}
	g.Emit(&engine.PlayerInGame{Player: p})
	team := 1
	g.EndGameWith(0, &engine.Outcome{Team: &team, Why: "the freighter was destroyed", Teams: []engine.TeamScore{{Team: 0, Kills: 1, Score: 10}, {Team: 1, Kills: 4, Score: 90}}})
	g.RestartGame()
	g.Emit(&engine.PlayerInGame{Player: p})
	r.Stop(g)
	flush(t, s)
	ms, err := s.Matches(context.Background(), 10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Outcome != nil || ms[1].Reason != "its_just_over" {
		t.Fatalf("matches %+v", ms)
	}
	o := ms[1].Outcome
	if o == nil || o.Team == nil || *o.Team != 1 || o.Why != "the freighter was destroyed" || len(o.Teams) != 2 || o.Teams[1] != (engine.TeamScore{Team: 1, Kills: 4, Score: 90}) {
		t.Fatalf("outcome %+v", o)
	}
}

// A player on a registered name who has not logged in (his points do not
// count) is in no match record; once he counts, he is.
func TestRecorderSkipsUnscoredPlayers(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	g, err := engine.NewGame(engine.Options{Config: engine.DefaultConfig(), Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(s, RecorderOptions{})
	if err := r.Start(g); err != nil {
		t.Fatal(err)
	}
	imp := &engine.Player{Owner: world.Owner{ID: 2}, Name: "Victim"}
	g.SetScored(imp, false)
	g.SetScore(imp, 3, 0, 300)
	g.Emit(&engine.PlayerInGame{Player: imp})
	ok := &engine.Player{Owner: world.Owner{ID: 3}, Name: "Other"}
	g.SetScore(ok, 1, 0, 100)
	g.Emit(&engine.PlayerInGame{Player: ok})
	r.Stop(g)
	flush(t, s)
	ms, err := s.Matches(context.Background(), 10, 0)
	if err != nil || len(ms) != 1 {
		t.Fatalf("%v %v", ms, err)
	}
	if len(ms[0].Players) != 1 || ms[0].Players[0].Name != "Other" {
		t.Fatalf("%+v", ms[0].Players)
	}
}
