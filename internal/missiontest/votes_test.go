package missiontest

import (
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/missions"
	"github.com/bcserver/bcserver/server"
)

func intp(n int) *int { return &n }

// The votes addon over a stock mode: a kick vote passes with the quorum
// and boots its target; a mode vote switches the mode; the [[rotation]]
// moves to its next step when a match ends, with that step's system.
func TestVotesAndRotation(t *testing.T) {
	w, err := NewMatch(Options{Mode: "deathmatch", FS: missions.FS(), Addons: []string{"votes"},
		Config: map[string]any{"votes": map[string]any{"mode_now": true}},
		Configure: func(c *server.Config) {
			c.Rotation = []server.RotationStep{
				{Mode: "deathmatch", System: "Multi1", TimeLimit: intp(1)},
				{Mode: "team-deathmatch", System: "Multi3", TimeLimit: intp(5)},
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var bots []*Bot
	for _, n := range []string{"Ann", "Ben", "Cid", "Dee"} {
		b, err := w.Join(n)
		if err != nil {
			t.Fatal(err)
		}
		bots = append(bots, b)
	}
	ann, ben, cid := bots[0], bots[1], bots[2]

	// Kick: Ann calls, Ben agrees: 2 of the 3 who may vote.
	say(t, w, ann, "!vote kick Dee", nil)
	if w.Game.Player(bots[3].ID()) == nil {
		t.Fatal("kicked on one vote")
	}
	say(t, w, ann, "!vote mode team-deathmatch", nil) // one vote at a time
	say(t, w, ben, "!yes", nil)
	w.Advance(time.Second)
	if w.Game.Player(bots[3].ID()) != nil {
		t.Fatalf("the kick vote did not pass\n%s", w.Logs())
	}
	if !strings.Contains(w.Logs(), `msg="vote passed"`) || !strings.Contains(w.Logs(), "kind=kick") {
		t.Fatalf("no vote log\n%s", w.Logs())
	}
	ann.Take()
	say(t, w, ann, "!vote restart", nil) // Ann's cooldown
	if !strings.Contains(string(flat(ann.Take())), "wait ") {
		t.Fatal("no cooldown")
	}

	// The rotation: the first match (deathmatch on Multi1, 1 minute)
	// ends, and the next starts as team-deathmatch on Multi3.
	if w.Mode() != "deathmatch" || w.Game.Mission().System != "Multi1" {
		t.Fatalf("started as %s on %s", w.Mode(), w.Game.Mission().System)
	}
	w.Advance(62 * time.Second)
	if !w.Game.GameOver() {
		t.Fatal("the timed match did not end")
	}
	w.Advance(31 * time.Second)
	if w.Mode() != "team-deathmatch" || w.Game.Mission().System != "Multi3" || w.Game.GameOver() {
		t.Fatalf("after the match: %s on %s, over %v\n%s", w.Mode(), w.Game.Mission().System, w.Game.GameOver(), w.Logs())
	}

	// A mode vote (mode_now): Ben calls, Cid agrees; the mode switches
	// and a new match starts.
	say(t, w, ben, "!vote mode deathmatch", nil)
	say(t, w, cid, "!vote yes", nil)
	w.Advance(time.Second)
	if w.Mode() != "deathmatch" {
		t.Fatalf("after the mode vote: %s\n%s", w.Mode(), w.Logs())
	}
}

// restart_every restarts the match on schedule, with a countdown in
// chat before it.
func TestScheduledRestart(t *testing.T) {
	w, err := NewMatch(Options{Mode: "deathmatch", FS: missions.FS(), Addons: []string{"votes"},
		Config: map[string]any{"votes": map[string]any{"restart_every": int64(2)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	b, err := w.Join("Ann")
	if err != nil {
		t.Fatal(err)
	}
	w.Advance(125 * time.Second)
	got := string(flat(b.Take()))
	for _, want := range []string{"scheduled restart in 1 min", "scheduled restart in 30 s", "scheduled restart in 10 s", "scheduled restart now"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in chat", want)
		}
	}
	if !strings.Contains(w.Logs(), `msg="game restarted"`) {
		t.Fatalf("no restart\n%s", w.Logs())
	}
}
