package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/world"
)

// [store] keep_matches and keep_days bound the history: the newest
// matches stay, old ones go with their players' lines.
func TestRetention(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 6; i++ {
		ended := now.Add(-time.Duration(5-i) * 24 * time.Hour) // 5 days ago .. now
		s.RecordMatch(history.Match{Mode: "dm", Map: "Multi1", Started: ended.Add(-time.Minute), Ended: ended, Reason: "time_up",
			Players: []history.MatchPlayer{{Identity: fmt.Sprint("p", i), Name: fmt.Sprint("P", i)}}})
	}
	ctx := context.Background()
	count := func() (matches, players int) {
		if err := s.DB().QueryRowContext(ctx, `SELECT (SELECT count(*) FROM matches), (SELECT count(*) FROM match_players)`).Scan(&matches, &players); err != nil {
			t.Fatal(err)
		}
		return
	}
	if n, err := s.Prune(ctx, Retention{}, now); err != nil || n != 0 {
		t.Fatalf("no retention: %d %v", n, err)
	}
	// Older than 3 days: the matches of 5 and 4 days ago.
	if n, err := s.Prune(ctx, Retention{KeepDays: 3}, now); err != nil || n != 2 {
		t.Fatalf("keep_days: %d %v", n, err)
	}
	if m, p := count(); m != 4 || p != 4 {
		t.Fatalf("after keep_days: %d matches, %d players", m, p)
	}
	if n, err := s.Prune(ctx, Retention{KeepMatches: 1}, now); err != nil || n != 3 {
		t.Fatalf("keep_matches: %d %v", n, err)
	}
	ms, err := s.Matches(ctx, 10, 0)
	if err != nil || len(ms) != 1 || ms[0].Players[0].Name != "P5" {
		t.Fatalf("kept %+v %v", ms, err)
	}
	if _, p := count(); p != 1 {
		t.Fatalf("%d player lines left", p)
	}
	// KeepPruned applies it at once, then on its timer, until cancelled.
	s.RecordMatch(history.Match{Mode: "dm", Started: now, Ended: now, Players: []history.MatchPlayer{{Identity: "q", Name: "Q"}}})
	// The match is written first (RecordMatch only queues it): otherwise
	// the loop below could see the one match left from before and stop
	// before this one lands.
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if m, _ := count(); m != 2 {
		t.Fatalf("%d matches before KeepPruned, want 2", m)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		s.KeepPruned(cctx, Retention{KeepMatches: 1}, time.Hour, func() time.Time { return now })
		close(done)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for m, _ := count(); m != 1 && time.Now().Before(deadline); m, _ = count() {
		if err := s.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	<-done
	if m, _ := count(); m != 1 {
		t.Fatalf("KeepPruned left %d matches", m)
	}
}

// The history keeps the server's name as the match ends: a SIGHUP
// rename during the match is what the record shows.
func TestRecorderServerNameAtEnd(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bcserver.db"))
	cfg := engine.DefaultConfig()
	cfg.ServerName = "Before"
	g, err := engine.NewGame(engine.Options{Config: cfg, Now: time.Unix(1000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRecorder(s, RecorderOptions{Server: "Before"})
	if err := r.Start(g); err != nil {
		t.Fatal(err)
	}
	g.Emit(&engine.PlayerInGame{Player: &engine.Player{Owner: world.Owner{ID: 2}, Name: "Alice"}})
	if err := g.SetLive(engine.LiveSettings{ServerName: "After", MaxPlayers: cfg.MaxPlayers}); err != nil {
		t.Fatal(err)
	}
	r.Stop(g)
	flush(t, s)
	ms, err := s.Matches(context.Background(), 10, 0)
	if err != nil || len(ms) != 1 || ms[0].Server != "After" {
		t.Fatalf("matches %+v %v", ms, err)
	}
}
