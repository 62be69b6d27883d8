package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// BanRecord is one stored ban.
type BanRecord struct {
	Entry   string    `json:"entry"`
	Reason  string    `json:"reason,omitempty"`
	Created time.Time `json:"created"`
}

// Bans reads every stored ban, oldest first (at startup; it waits for the
// database).
func (s *Store) Bans(ctx context.Context) ([]BanRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT entry, reason, created_at FROM bans ORDER BY created_at, entry`)
	if err != nil {
		return nil, fmt.Errorf("reading the bans: %w", err)
	}
	defer rows.Close()
	var out []BanRecord
	for rows.Next() {
		var b BanRecord
		var at int64
		if err := rows.Scan(&b.Entry, &b.Reason, &at); err != nil {
			return nil, err
		}
		b.Created = time.UnixMilli(at).UTC()
		out = append(out, b)
	}
	return out, rows.Err()
}

// SaveBan queues a ban for writing (never blocks); false if dropped.
func (s *Store) SaveBan(b BanRecord) bool {
	return s.enqueue("ban", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO bans(entry, reason, created_at) VALUES (?, ?, ?)`, b.Entry, b.Reason, b.Created.UnixMilli())
		return err
	})
}

// DeleteBan queues the removal of a ban (never blocks); false if dropped.
func (s *Store) DeleteBan(entry string) bool {
	return s.enqueue("unban", func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM bans WHERE entry = ?`, entry)
		return err
	})
}
