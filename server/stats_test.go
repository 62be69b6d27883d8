package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/capture"
	"github.com/bcserver/bcserver/engine/names"
	"github.com/bcserver/bcserver/internal/replaytest"
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
	tr.BeginMatch(&capture.Header{Mode: "deathmatch", Started: time.Unix(1e9, 0)})
	for i := range 10 {
		id := byte(2 + i)
		tr.Record(&capture.Record{T: uint32(i * 1000), Kind: capture.KindPlayer, Player: id, InGame: true, Name: "Victim", Kills: 1, Deaths: 2, Score: 3})
		tr.Record(&capture.Record{T: uint32(i*1000 + 500), Kind: capture.KindPlayerLeft, Player: id, Text: "quit"})
	}
	tr.EndMatch(&capture.Footer{DurationMS: 10_000, Ended: time.Unix(1e9+10, 0)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := st.Career(ctx, names.Key("VICTIM"))
	if err != nil || c.Matches != 1 || c.Sessions != 10 || c.Kills != 10 || c.Deaths != 20 || c.Score != 30 || c.Seconds != 5 {
		t.Fatalf("career %+v %v", c, err)
	}
}

// The outcome the mission gave counts as a win for the winning team's
// players (or the winner); the careers API says so, with the damage
// totals beside the kinds.
func TestCareerWinsAndDamageTotal(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "bcserver.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tr := stats.New(stats.Options{Store: st})
	start := time.Unix(1000, 0).UTC()
	team := 1
	for i, o := range []*engine.Outcome{{Team: &team, Why: "the freighter was destroyed"}, {Player: 2, PlayerName: "Kirk"}, nil} {
		tr.BeginMatch(&capture.Header{Mode: "convoy", Started: start.Add(time.Duration(i) * time.Hour)})
		tr.Record(&capture.Record{T: 0, Kind: capture.KindPlayer, Player: 2, InGame: true, Team: 0, Name: "Kirk"})
		tr.Record(&capture.Record{T: 0, Kind: capture.KindPlayer, Player: 3, InGame: true, Team: 1, Name: "Kor"})
		tr.Record(&capture.Record{T: 10, Kind: capture.KindDamage, Object: 0x4003FFFF, Player: 3, Weapons: capture.WeaponTorpedo, Cause: capture.CauseWeapon, Damage: 150})
		tr.Record(&capture.Record{T: 10, Kind: capture.KindDamage, Object: 0x4003FFFF, Player: 3, Weapons: capture.WeaponPhaser, Cause: capture.CauseWeapon, Damage: 50})
		tr.EndMatch(&capture.Footer{Ended: start.Add(time.Duration(i)*time.Hour + time.Minute), DurationMS: 60000, Reason: "its_just_over", Outcome: o})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	stats.API(st).ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/career/Kor", nil))
	var kor struct {
		Wins  int `json:"wins"`
		Dealt struct {
			Torpedo, Total float64
		} `json:"damage_dealt"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &kor); err != nil || kor.Wins != 1 || kor.Dealt.Torpedo != 450 || kor.Dealt.Total != 600 {
		t.Fatalf("Kor's career %s (%v)", rec.Body.String(), err)
	}
	kirk, err := st.Career(ctx, "kirk")
	if err != nil || kirk.Wins != 1 || kirk.Matches != 3 {
		t.Fatalf("Kirk %+v %v", kirk, err)
	}
	top, err := st.Leaderboard(ctx, "score", 10, 1)
	if err != nil || len(top) != 2 || top[0].Wins != 1 || top[1].Wins != 1 {
		t.Fatalf("leaderboard %+v %v", top, err)
	}
}
