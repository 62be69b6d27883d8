package stats_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/replaytest"
	"github.com/bcserver/bcserver/plugins/record"
	"github.com/bcserver/bcserver/plugins/stats"
	"github.com/bcserver/bcserver/plugins/store"
)

// The survival match of replaytest, tallied: each player's line in the
// store has the mission's numbers, damage by weapon kind, time played and
// the classes flown; the leaderboard orders them, and Lookup (bc.stats)
// gives a career once it has been read behind the match's write.
func TestCareerFromAMatch(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "bcserver.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	posted := make(chan func(), 64)
	tr := stats.New(stats.Options{Store: st, Post: func(fn func()) bool {
		select {
		case posted <- fn:
			return true
		default:
			return false
		}
	}})
	m, err := replaytest.Play(tr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	alice, err := st.Career(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	bob, err := st.Career(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	var al, bl replaytest.Line
	for _, l := range m.Lines {
		switch l.Name {
		case "Alice":
			al = l
		case "Bob":
			bl = l
		}
	}
	if alice.Matches != 1 || alice.Kills != al.Kills || alice.Deaths != al.Deaths || alice.Score != al.Score {
		t.Errorf("Alice %+v; game %+v", alice, al)
	}
	if bob.Matches != 1 || bob.Kills != bl.Kills || bob.Deaths != bl.Deaths || bob.Score != bl.Score {
		t.Errorf("Bob %+v; game %+v", bob, bl)
	}
	// Alice has only phasers; the raider hits Bob with its beams, and with
	// its bolts too when its class has cannons (the class is random).
	if alice.Dealt.Phaser <= 0 || alice.Dealt.Pulse != 0 || bob.Taken.Phaser <= 0 || bob.Taken.Other != 0 {
		t.Errorf("damage: Alice dealt %+v, Bob took %+v", alice.Dealt, bob.Taken)
	}
	if alice.Favourite != "Sovereign" || bob.Favourite != "Akira" || bob.Classes["Akira"] <= 0 {
		t.Errorf("classes: Alice %q %v, Bob %q %v", alice.Favourite, alice.Classes, bob.Favourite, bob.Classes)
	}
	if alice.Seconds < 60 || alice.Seconds > 75 || len(alice.Names) != 1 || alice.Names[0] != "Alice" {
		t.Errorf("Alice played %.1f s as %q", alice.Seconds, alice.Names)
	}
	top, err := st.Leaderboard(ctx, "kills", 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(top) != 2 || top[0].Identity != "alice" || top[0].Favourite != "Sovereign" {
		t.Errorf("leaderboard %+v", top)
	}
	if _, err := st.Leaderboard(ctx, "nonsense", 10, 1); err == nil {
		t.Error("an unknown order was taken")
	}
	// bc.stats: read behind the write, handed back through Post.
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for len(posted) > 0 {
		(<-posted)()
	}
	v, ok := tr.Lookup("ALICE ")
	if !ok || v["kills"] != int64(al.Kills) || v["matches"] != int64(1) || v["favourite_class"] != "Sovereign" {
		t.Fatalf("Lookup: %v %v", ok, v)
	}
}

// Ten rejoins are ten sessions of one match, not ten matches: the
// tracker sums a player's sessions into one line per match.
func TestRejoinsAreSessionsNotMatches(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "bcserver.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tr := stats.New(stats.Options{Store: st})
	tr.BeginMatch(&record.Header{Mode: "deathmatch", Started: time.Unix(1e9, 0)})
	for i := range 10 {
		id := byte(2 + i)
		tr.Record(&record.Record{T: uint32(i * 1000), Kind: record.KindPlayer, Player: id, InGame: true, Name: "Victim", Kills: 1, Deaths: 2, Score: 3})
		tr.Record(&record.Record{T: uint32(i*1000 + 500), Kind: record.KindPlayerLeft, Player: id, Text: "quit"})
	}
	tr.EndMatch(&record.Footer{DurationMS: 10_000, Ended: time.Unix(1e9+10, 0)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := st.Career(ctx, store.Identity("VICTIM"))
	if err != nil || c.Matches != 1 || c.Sessions != 10 || c.Kills != 10 || c.Deaths != 20 || c.Score != 30 || c.Seconds != 5 {
		t.Fatalf("career %+v %v", c, err)
	}
}
