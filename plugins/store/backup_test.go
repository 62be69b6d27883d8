package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine/history"
)

// Backup copies the database of a running server, matches still in the
// write-ahead log included; a checkpoint moves them into the file itself,
// so a copy of the file alone has them too.
func TestBackupAndCheckpoint(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bcserver.db")
	s := open(t, path)
	ctx := context.Background()
	now := time.Unix(1e9, 0)
	s.RecordMatch(history.Match{Mode: "dm", Map: "Multi1", Started: now, Ended: now, Reason: "time_up", Players: []history.MatchPlayer{{Identity: "a", Name: "A"}}})
	flush(t, s)

	out := filepath.Join(dir, "copy.db")
	if err := Backup(ctx, path, out); err != nil {
		t.Fatal(err)
	}
	if err := Backup(ctx, path, out); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("a backup over an existing file: %v", err)
	}
	if err := Backup(ctx, filepath.Join(dir, "missing.db"), filepath.Join(dir, "x.db")); err == nil {
		t.Fatal("a backup of a missing database succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); err == nil {
		t.Fatal("a backup of a missing database created it")
	}
	c := open(t, out)
	if ms, err := c.Matches(ctx, 10, 0); err != nil || len(ms) != 1 || ms[0].Players[0].Name != "A" {
		t.Fatalf("the backup's matches: %+v %v", ms, err)
	}
	if v, _ := c.Version(ctx); v != SchemaVersion {
		t.Fatalf("the backup's schema version %d", v)
	}

	// A checkpoint: the file alone (as a naive copy takes it) has the match.
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	naive := filepath.Join(t.TempDir(), "naive.db")
	if err := os.WriteFile(naive, b, 0o644); err != nil {
		t.Fatal(err)
	}
	n := open(t, naive)
	if ms, err := n.Matches(ctx, 10, 0); err != nil || len(ms) != 1 {
		t.Fatalf("a copy of the file after a checkpoint: %+v %v", ms, err)
	}
}
