package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func flush(t *testing.T, s *Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

// Matches are written by the writer, read back newest first with their
// players, summed per identity, and survive reopening the file.
func TestMatchesPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bcserver.db")
	s := open(t, path)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range 3 {
		ok := s.RecordMatch(history.Match{Mode: "deathmatch", Map: "Multi1", Started: t0.Add(time.Duration(i) * time.Hour), Ended: t0.Add(time.Duration(i)*time.Hour + 10*time.Minute), Reason: "score_limit",
			Players: []history.MatchPlayer{
				{Identity: names.Key("Picard"), Name: "Picard", Team: -1, Kills: 3 + i, Deaths: 1, Score: 30000},
				{Identity: names.Key("Riker "), Name: "Riker", Team: -1, Kills: 1, Deaths: 3 + i, Score: 10000 * i},
			}})
		if !ok {
			t.Fatal("dropped")
		}
	}
	flush(t, s)
	ms, err := s.Matches(ctx, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].ID != 3 || ms[1].ID != 2 || len(ms[0].Players) != 2 || ms[0].Players[0].Name != "Picard" || ms[0].Players[1].Score != 20000 {
		t.Fatalf("matches: %+v", ms)
	}
	if !ms[0].Started.Equal(t0.Add(2*time.Hour)) || ms[0].Reason != "score_limit" {
		t.Fatalf("match 3: %+v", ms[0])
	}
	older, err := s.Matches(ctx, 10, ms[1].ID)
	if err != nil || len(older) != 1 || older[0].ID != 1 {
		t.Fatalf("page: %+v %v", older, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.RecordMatch(history.Match{}) {
		t.Fatal("a closed store took a write")
	}

	s2 := open(t, path)
	st, err := s2.Player(ctx, "riker")
	if err != nil {
		t.Fatal(err)
	}
	if st.Matches != 3 || st.Kills != 3 || st.Deaths != 12 || st.Score != 30000 || st.Best != 20000 || st.Name != "Riker" {
		t.Fatalf("stats: %+v", st)
	}
	if _, err := s2.Player(ctx, "nobody"); !errors.Is(err, history.ErrNotFound) {
		t.Fatalf("unknown player: %v", err)
	}
	if v, err := s2.Version(ctx); err != nil || v != SchemaVersion {
		t.Fatalf("version %d %v", v, err)
	}
}

// A file written by a newer server is refused with a clear error rather
// than misread.
func TestNewerSchemaRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("open: %v", err)
	}
}

// A full queue drops the record instead of blocking the caller.
func TestFullQueueDrops(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "q.db"))
	// Hold the writer inside a write until the queue has been filled.
	release := make(chan struct{})
	entered := make(chan struct{})
	s.enqueue("block", func(context.Context, *sql.Tx) error { close(entered); <-release; return nil })
	<-entered
	n := 0
	for i := 0; i < DefaultQueue+10; i++ {
		if s.RecordMatch(history.Match{Mode: "m", Map: "x", Reason: "r"}) {
			n++
		}
	}
	close(release)
	if n != DefaultQueue || s.Dropped.Load() != 10 {
		t.Fatalf("queued %d, dropped %d", n, s.Dropped.Load())
	}
	flush(t, s)
	ms, err := s.Matches(context.Background(), 500, 0)
	if err != nil || len(ms) != DefaultQueue {
		t.Fatalf("%d written, %v", len(ms), err)
	}
}

// A file at schema version 1 is migrated to the current version with its
// matches kept; new matches carry the players' addresses.
func TestMigrationFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := migrateTo(ctx, db, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO matches(mode, map, started_at, ended_at, reason) VALUES ('deathmatch', 'Multi1', 1, 2, 'time_up')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO match_players(match_id, identity, name, team, kills, deaths, score) VALUES (1, 'old', 'Old', -1, 1, 2, 3)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s := open(t, path)
	if v, _ := s.Version(ctx); v != SchemaVersion || SchemaVersion < 2 {
		t.Fatalf("version %d", v)
	}
	s.RecordMatch(history.Match{Mode: "deathmatch", Map: "Multi2", Reason: "score_limit", Players: []history.MatchPlayer{{Identity: "new", Name: "New", Address: "192.0.2.7"}}})
	flush(t, s)
	ms, err := s.Matches(ctx, 10, 0)
	if err != nil || len(ms) != 2 || ms[1].Players[0].Name != "Old" || ms[1].Players[0].Address != "" || ms[0].Players[0].Address != "192.0.2.7" {
		t.Fatalf("matches after the migration: %+v %v", ms, err)
	}
}
