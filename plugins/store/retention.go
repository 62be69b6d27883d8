package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Retention bounds the match history: at most KeepMatches matches (the
// newest), none that ended more than KeepDays days ago (the careers' rows
// of those matches go with them; their totals stay), and no career of a
// player not seen for KeepCareerDays days. Zero keeps everything on that
// count.
type Retention struct {
	KeepMatches    int
	KeepDays       int
	KeepCareerDays int
}

// Off reports whether the retention keeps everything.
func (r Retention) Off() bool { return r.KeepMatches <= 0 && r.KeepDays <= 0 && r.KeepCareerDays <= 0 }

// Prune deletes the matches r does not keep (their players' lines go with
// them), through the writer so it never races a match being written, and
// waits for it. now is the wall clock. It returns how many matches went.
func (s *Store) Prune(ctx context.Context, r Retention, now time.Time) (int64, error) {
	if r.Off() {
		return 0, nil
	}
	var n int64
	done := make(chan error, 1)
	failed := s.Failed.Load()
	ok := s.enqueue("prune", func(ctx context.Context, tx *sql.Tx) error {
		err := prune(ctx, tx, r, now, &n)
		done <- err
		return err
	})
	if !ok {
		return 0, fmt.Errorf("pruning the match history: the write queue is full or closed")
	}
	// The flush returns once the prune is committed (or failed).
	if err := s.Flush(ctx); err != nil {
		return 0, err
	}
	select {
	case err := <-done:
		if err != nil {
			return 0, err
		}
	default:
	}
	if s.Failed.Load() != failed {
		return 0, fmt.Errorf("pruning the match history: the write failed (see the log)")
	}
	return n, nil
}

func prune(ctx context.Context, tx *sql.Tx, r Retention, now time.Time, n *int64) error {
	del := func(q string, args ...any) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("pruning the match history: %w", err)
		}
		k, _ := res.RowsAffected()
		*n += k
		return nil
	}
	if r.KeepDays > 0 {
		cut := now.Add(-time.Duration(r.KeepDays) * 24 * time.Hour).UnixMilli()
		if err := del(`DELETE FROM matches WHERE ended_at < ?`, cut); err != nil {
			return err
		}
	}
	if r.KeepMatches > 0 {
		if err := del(`DELETE FROM matches WHERE id NOT IN (SELECT id FROM matches ORDER BY id DESC LIMIT ?)`, r.KeepMatches); err != nil {
			return err
		}
	}
	return pruneCareers(ctx, tx, r, now)
}

// pruneCareers drops the per-match career rows of the matches the history
// no longer keeps (the totals keep their sums) and the careers of players
// not seen for KeepCareerDays. What it drops is not counted as matches.
func pruneCareers(ctx context.Context, tx *sql.Tx, r Retention, now time.Time) error {
	var qs []string
	var args [][]any
	if r.KeepDays > 0 {
		qs = append(qs, `DELETE FROM career WHERE ended_at < ?`)
		args = append(args, []any{now.Add(-time.Duration(r.KeepDays) * 24 * time.Hour).UnixMilli()})
	}
	if r.KeepMatches > 0 {
		qs = append(qs, `DELETE FROM career WHERE started_at < (SELECT MIN(started_at) FROM matches)`)
		args = append(args, nil)
	}
	if r.KeepCareerDays > 0 {
		cut := now.Add(-time.Duration(r.KeepCareerDays) * 24 * time.Hour).UnixMilli()
		qs = append(qs, `DELETE FROM career_totals WHERE last_seen < ?`,
			`DELETE FROM career_class_totals WHERE identity NOT IN (SELECT identity FROM career_totals)`,
			`DELETE FROM career_names WHERE identity NOT IN (SELECT identity FROM career_totals)`,
			`DELETE FROM career WHERE ended_at < ?`)
		args = append(args, []any{cut}, nil, nil, []any{cut})
	}
	for i, q := range qs {
		if _, err := tx.ExecContext(ctx, q, args[i]...); err != nil {
			return fmt.Errorf("pruning the careers: %w", err)
		}
	}
	return nil
}

// KeepPruned applies r now and then every interval (a day when 0) until
// ctx ends, logging what went. It returns at once when r keeps everything.
func (s *Store) KeepPruned(ctx context.Context, r Retention, interval time.Duration, now func() time.Time) {
	if r.Off() {
		return
	}
	if interval <= 0 {
		interval = 24 * time.Hour
	}
	if now == nil {
		now = time.Now
	}
	run := func() {
		n, err := s.Prune(ctx, r, now())
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Error("match history retention failed", "err", err)
		case n > 0:
			s.log.Info("old matches removed from the history", "matches", n, "keep_matches", r.KeepMatches, "keep_days", r.KeepDays, "keep_career_days", r.KeepCareerDays)
		}
	}
	run()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			run()
		}
	}
}
