package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine/history"
)

// RecordCareer queues m for writing; it never blocks and reports false if
// the write was dropped. Each line is one player's match (Tracker sums its
// sessions); its identity's totals are updated in the same transaction.
func (s *Store) RecordCareer(m history.CareerMatch) bool {
	return s.enqueue("career", func(ctx context.Context, tx *sql.Tx) error {
		for _, p := range m.Players {
			d, t := p.Dealt, p.Taken
			res, err := tx.ExecContext(ctx, `INSERT INTO career(identity, name, server, mode, started_at, ended_at, kills, deaths, assists, score, seconds, sessions,
				dealt_phaser, dealt_pulse, dealt_torpedo, dealt_collision, dealt_other, taken_phaser, taken_pulse, taken_torpedo, taken_collision, taken_other, won)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				p.Identity, p.Name, m.Server, m.Mode, m.Started.UnixMilli(), m.Ended.UnixMilli(), p.Kills, p.Deaths, p.Assists, p.Score, p.Seconds, max(1, p.Sessions),
				d.Phaser, d.Pulse, d.Torpedo, d.Collision, d.Other, t.Phaser, t.Pulse, t.Torpedo, t.Collision, t.Other, p.Won)
			if err != nil {
				return fmt.Errorf("career of %q: %w", p.Name, err)
			}
			id, err := res.LastInsertId()
			if err != nil {
				return err
			}
			for class, secs := range p.Classes {
				if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO career_classes(career_id, class, seconds) VALUES (?, ?, ?)`, id, class, secs); err != nil {
					return fmt.Errorf("career classes of %q: %w", p.Name, err)
				}
			}
			if err := addToTotals(ctx, tx, p, m.Ended.UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
}

// careerColumns are a career_totals row as scanCareer reads it.
const careerColumns = `matches, sessions, wins, kills, deaths, assists, score, best, seconds, last_seen,
	dealt_phaser, dealt_pulse, dealt_torpedo, dealt_collision, dealt_other,
	taken_phaser, taken_pulse, taken_torpedo, taken_collision, taken_other`

type scanner interface{ Scan(dest ...any) error }

func scanCareer(sc scanner, c *history.Career, extra ...any) error {
	var last sql.NullInt64
	d, t := &c.Dealt, &c.Taken
	dest := append(extra, &c.Matches, &c.Sessions, &c.Wins, &c.Kills, &c.Deaths, &c.Assists, &c.Score, &c.Best, &c.Seconds, &last,
		&d.Phaser, &d.Pulse, &d.Torpedo, &d.Collision, &d.Other, &t.Phaser, &t.Pulse, &t.Torpedo, &t.Collision, &t.Other)
	if err := sc.Scan(dest...); err != nil {
		return err
	}
	if last.Valid {
		c.LastSeen = time.UnixMilli(last.Int64).UTC()
	}
	return nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// careerOf reads one identity's career with q (the database, or the
// writer's transaction).
func careerOf(ctx context.Context, q querier, identity string) (history.Career, error) {
	c := history.Career{Identity: identity, Names: []string{}, Classes: map[string]float64{}}
	err := scanCareer(q.QueryRowContext(ctx, `SELECT `+careerColumns+` FROM career_totals WHERE identity = ?`, identity), &c)
	if errors.Is(err, sql.ErrNoRows) {
		return c, history.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("career of %q: %w", identity, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT name FROM career_names WHERE identity = ? ORDER BY last_seen DESC, name LIMIT ?`, identity, namesPerPlayer)
	if err != nil {
		return c, err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return c, err
		}
		c.Names = append(c.Names, n)
	}
	rows.Close()
	rows, err = q.QueryContext(ctx, `SELECT class, seconds FROM career_class_totals WHERE identity = ?`, identity)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	best := -1.0
	for rows.Next() {
		var class string
		var secs float64
		if err := rows.Scan(&class, &secs); err != nil {
			return c, err
		}
		c.Classes[class] = secs
		if secs > best || secs == best && class < c.Favourite {
			c.Favourite, best = class, secs
		}
	}
	return c, rows.Err()
}

// Career returns the summed career of one identity (see Identity).
func (s *Store) Career(ctx context.Context, identity string) (history.Career, error) {
	return careerOf(ctx, s.db, identity)
}

// LoadCareer reads a career in the writer's turn, after every write
// queued before it, and hands it to done on the writer goroutine; it
// never blocks and reports false when the queue is full. The stats plugin
// uses it so a career read after a match always includes that match.
func (s *Store) LoadCareer(identity string, done func(history.Career, error)) bool {
	return s.enqueue("career read", func(ctx context.Context, tx *sql.Tx) error {
		c, err := careerOf(ctx, tx, identity)
		done(c, err)
		return nil
	})
}

// Leaderboard orders: each the expression of an index of career_totals
// (written exactly as there, so SQLite reads the index in order).
var leaderOrders = map[string]string{
	"score":   "score DESC",
	"kills":   "kills DESC",
	"kd":      "(CAST(kills AS REAL) / MAX(1, deaths)) DESC",
	"assists": "assists DESC",
	"matches": "matches DESC",
	"time":    "seconds DESC",
	"damage":  "(dealt_phaser + dealt_pulse + dealt_torpedo + dealt_collision + dealt_other) DESC",
}

// LeaderOrders lists the orders Leaderboard knows.
func LeaderOrders() []string {
	out := make([]string, 0, len(leaderOrders))
	for k := range leaderOrders {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Leaderboard returns the top limit careers by order (LeaderOrders);
// players with fewer than minMatches matches are left out. It reads the
// totals through the order's index: a page costs the same at 100 players
// and at 100,000 (BenchmarkLeaderboard).
func (s *Store) Leaderboard(ctx context.Context, order string, limit, minMatches int) ([]history.Career, error) {
	ord, ok := leaderOrders[order]
	if !ok {
		return nil, fmt.Errorf("order %q: want one of %s", order, strings.Join(LeaderOrders(), ", "))
	}
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT identity, name, `+careerColumns+`
		FROM career_totals WHERE matches >= ? ORDER BY `+ord+`, identity LIMIT ?`, max(1, minMatches), limit)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	defer rows.Close()
	out := []history.Career{}
	for rows.Next() {
		var c history.Career
		var name string
		if err := scanCareer(rows, &c, &c.Identity, &name); err != nil {
			return nil, err
		}
		c.Names = []string{name}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The favourite class of each (a page of at most limit players).
	for i := range out {
		var class sql.NullString
		err := s.db.QueryRowContext(ctx, `SELECT class FROM career_class_totals WHERE identity = ? ORDER BY seconds DESC, class LIMIT 1`, out[i].Identity).Scan(&class)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		out[i].Favourite = class.String
	}
	return out, nil
}
