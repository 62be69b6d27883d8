package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Damage is damage by kind: weapon kinds, collisions, and the rest
// (self-destruct, environment, weapons of unknown kind).
type Damage struct {
	Phaser    float64 `json:"phaser"`
	Pulse     float64 `json:"pulse"`
	Torpedo   float64 `json:"torpedo"`
	Collision float64 `json:"collision"`
	Other     float64 `json:"other"`
}

// Total sums every kind.
func (d Damage) Total() float64 { return d.Phaser + d.Pulse + d.Torpedo + d.Collision + d.Other }

// MarshalJSON writes the kinds and their total ("total"), as bc.stats
// has them.
func (d Damage) MarshalJSON() ([]byte, error) {
	type kinds Damage // without this method
	return json.Marshal(struct {
		kinds
		Total float64 `json:"total"`
	}{kinds(d), d.Total()})
}

// CareerMatch is one match's career lines (plugins/stats writes them).
type CareerMatch struct {
	Server, Mode   string
	Started, Ended time.Time
	Players        []CareerLine
}

// CareerLine is what one player did in one match.
type CareerLine struct {
	Identity, Name                string
	Kills, Deaths, Assists, Score int
	Seconds                       float64 // time in the game
	Dealt, Taken                  Damage
	Classes                       map[string]float64 // seconds flown per ship class
	// Won: the player was on the winning side (the winning team, or the
	// winner) of the outcome the mission gave.
	Won bool
}

// Career is a player's sums over every recorded match.
type Career struct {
	Identity string   `json:"identity"`
	Names    []string `json:"names"` // every spelling used, the latest first
	Matches  int      `json:"matches"`
	Kills    int      `json:"kills"`
	Deaths   int      `json:"deaths"`
	Assists  int      `json:"assists"`
	Score    int      `json:"score"`
	Best     int      `json:"best_score"`
	Seconds  float64  `json:"seconds_played"`
	Dealt    Damage   `json:"damage_dealt"`
	Taken    Damage   `json:"damage_taken"`
	// Wins counts the matches won (schema version 4 on: older matches
	// count none).
	Wins int `json:"wins"`
	// Favourite is the class flown longest; Classes the seconds per class.
	Favourite string             `json:"favourite_class"`
	Classes   map[string]float64 `json:"classes"`
	LastSeen  time.Time          `json:"last_seen"`
}

// RecordCareer queues m for writing; it never blocks and reports false if
// the write was dropped.
func (s *Store) RecordCareer(m CareerMatch) bool {
	return s.enqueue("career", func(ctx context.Context, tx *sql.Tx) error {
		for _, p := range m.Players {
			d, t := p.Dealt, p.Taken
			res, err := tx.ExecContext(ctx, `INSERT INTO career(identity, name, server, mode, started_at, ended_at, kills, deaths, assists, score, seconds,
				dealt_phaser, dealt_pulse, dealt_torpedo, dealt_collision, dealt_other, taken_phaser, taken_pulse, taken_torpedo, taken_collision, taken_other, won)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				p.Identity, p.Name, m.Server, m.Mode, m.Started.UnixMilli(), m.Ended.UnixMilli(), p.Kills, p.Deaths, p.Assists, p.Score, p.Seconds,
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
		}
		return nil
	})
}

const careerSums = `COUNT(*), COALESCE(SUM(kills),0), COALESCE(SUM(deaths),0), COALESCE(SUM(assists),0), COALESCE(SUM(score),0), COALESCE(MAX(score),0),
	COALESCE(SUM(seconds),0), MAX(ended_at),
	COALESCE(SUM(dealt_phaser),0), COALESCE(SUM(dealt_pulse),0), COALESCE(SUM(dealt_torpedo),0), COALESCE(SUM(dealt_collision),0), COALESCE(SUM(dealt_other),0),
	COALESCE(SUM(taken_phaser),0), COALESCE(SUM(taken_pulse),0), COALESCE(SUM(taken_torpedo),0), COALESCE(SUM(taken_collision),0), COALESCE(SUM(taken_other),0)`

type scanner interface{ Scan(dest ...any) error }

func scanCareer(sc scanner, c *Career, extra ...any) error {
	var last sql.NullInt64
	d, t := &c.Dealt, &c.Taken
	dest := append(extra, &c.Matches, &c.Kills, &c.Deaths, &c.Assists, &c.Score, &c.Best, &c.Seconds, &last,
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
func careerOf(ctx context.Context, q querier, identity string) (Career, error) {
	c := Career{Identity: identity, Names: []string{}, Classes: map[string]float64{}}
	if err := scanCareer(q.QueryRowContext(ctx, `SELECT `+careerSums+` FROM career WHERE identity = ?`, identity), &c); err != nil {
		return c, fmt.Errorf("career of %q: %w", identity, err)
	}
	if c.Matches == 0 {
		return c, ErrNotFound
	}
	if err := careerWins(ctx, q, &c); err != nil {
		return c, err
	}
	rows, err := q.QueryContext(ctx, `SELECT name FROM career WHERE identity = ? GROUP BY name ORDER BY MAX(ended_at) DESC LIMIT 20`, identity)
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
	rows, err = q.QueryContext(ctx, `SELECT cc.class, SUM(cc.seconds) FROM career_classes cc JOIN career c ON c.id = cc.career_id
		WHERE c.identity = ? GROUP BY cc.class`, identity)
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

// careerWins counts the matches c.Identity won.
func careerWins(ctx context.Context, q querier, c *Career) error {
	if err := q.QueryRowContext(ctx, `SELECT COALESCE(SUM(won),0) FROM career WHERE identity = ?`, c.Identity).Scan(&c.Wins); err != nil {
		return fmt.Errorf("wins of %q: %w", c.Identity, err)
	}
	return nil
}

// Career returns the summed career of one identity (see Identity).
func (s *Store) Career(ctx context.Context, identity string) (Career, error) {
	return careerOf(ctx, s.db, identity)
}

// LoadCareer reads a career in the writer's turn, after every write
// queued before it, and hands it to done on the writer goroutine; it
// never blocks and reports false when the queue is full. The stats plugin
// uses it so a career read after a match always includes that match.
func (s *Store) LoadCareer(identity string, done func(Career, error)) bool {
	return s.enqueue("career read", func(ctx context.Context, tx *sql.Tx) error {
		c, err := careerOf(ctx, tx, identity)
		done(c, err)
		return nil
	})
}

// Leaderboard orders.
var leaderOrders = map[string]string{
	"score":   "SUM(score) DESC",
	"kills":   "SUM(kills) DESC",
	"kd":      "CAST(SUM(kills) AS REAL) / MAX(1, SUM(deaths)) DESC",
	"assists": "SUM(assists) DESC",
	"matches": "COUNT(*) DESC",
	"time":    "SUM(seconds) DESC",
	"damage":  "SUM(dealt_phaser + dealt_pulse + dealt_torpedo + dealt_collision + dealt_other) DESC",
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
// players with fewer than minMatches matches are left out.
func (s *Store) Leaderboard(ctx context.Context, order string, limit, minMatches int) ([]Career, error) {
	ord, ok := leaderOrders[order]
	if !ok {
		return nil, fmt.Errorf("order %q: want one of %s", order, strings.Join(LeaderOrders(), ", "))
	}
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	rows, err := s.db.QueryContext(ctx, `SELECT identity, (SELECT name FROM career c2 WHERE c2.identity = career.identity ORDER BY ended_at DESC LIMIT 1), `+careerSums+`
		FROM career GROUP BY identity HAVING COUNT(*) >= ? ORDER BY `+ord+`, identity LIMIT ?`, max(1, minMatches), limit)
	if err != nil {
		return nil, fmt.Errorf("leaderboard: %w", err)
	}
	defer rows.Close()
	out := []Career{}
	for rows.Next() {
		var c Career
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
		err := s.db.QueryRowContext(ctx, `SELECT cc.class FROM career_classes cc JOIN career c ON c.id = cc.career_id
			WHERE c.identity = ? GROUP BY cc.class ORDER BY SUM(cc.seconds) DESC, cc.class LIMIT 1`, out[i].Identity).Scan(&class)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		out[i].Favourite = class.String
		if err := careerWins(ctx, s.db, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}
