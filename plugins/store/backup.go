package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// CheckpointEvery is how often a running server moves the database's
// write-ahead log into the file itself: between checkpoints recent matches
// are only in bcserver.db-wal, so a copy of bcserver.db alone would lack
// them (use Backup, or `bcserver backup`, for a copy).
const CheckpointEvery = 5 * time.Minute

// Checkpoint moves what the write-ahead log holds into the database file
// and empties the log (PRAGMA wal_checkpoint(TRUNCATE)), through the
// writer so it never meets a write half-way, and waits for it. A reader
// still reading the log leaves part of it for the next checkpoint.
func (s *Store) Checkpoint(ctx context.Context) error {
	done := make(chan error, 1)
	ok := s.enqueuePlain("checkpoint", func(ctx context.Context, db *sql.DB) error {
		var busy, logFrames, moved int
		err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &moved)
		if err == nil && busy != 0 {
			s.log.Debug("checkpoint left part of the log to a reader", "frames", logFrames, "moved", moved)
		}
		done <- err
		return err
	})
	if !ok {
		return errors.New("checkpoint: the write queue is full or closed")
	}
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// KeepCheckpointed checkpoints every interval (CheckpointEvery when 0)
// until ctx ends.
func (s *Store) KeepCheckpointed(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = CheckpointEvery
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Checkpoint(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("database checkpoint failed", "err", err)
			}
		}
	}
}

// Backup writes a consistent copy of the database at path to out, while a
// server may be writing it (VACUUM INTO reads one snapshot: every match
// committed before it began, whether still in the write-ahead log or
// not, and nothing half-written). out must not exist. The copy is a
// complete database on its own (no -wal file), compacted.
func Backup(ctx context.Context, path, out string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("backup: the database: %w", err)
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("backup: %s exists: give a new file", out)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	// No migration and no write: the source may belong to a running server
	// of another version. The busy timeout waits out a checkpoint.
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(10000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return fmt.Errorf("backup: opening %s: %w", path, err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("backup: %s is not a bcserver database: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, abs); err != nil {
		return fmt.Errorf("backup: writing %s: %w", out, err)
	}
	return nil
}
