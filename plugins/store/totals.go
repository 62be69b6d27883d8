package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/bcserver/bcserver/engine/history"
	"github.com/bcserver/bcserver/engine/names"
)

// careerTotals is schema version 4. A career is one identity's
// (Identity: the folding admission uses for duplicate names) sums kept in
// one row of career_totals, updated with each match, so the leaderboard
// reads an index instead of summing every match of every player (2.5 s
// at 100,000 players). career keeps one row per player per match (the
// player's sessions of that match summed; sessions counts them), at most
// careerRowsPerPlayer per identity: the totals hold the rest.
const careerTotals = `ALTER TABLE career ADD COLUMN sessions INTEGER NOT NULL DEFAULT 1;
	CREATE INDEX career_ended ON career(ended_at);
	CREATE TABLE career_totals (
		identity   TEXT    PRIMARY KEY,
		name       TEXT    NOT NULL, -- the latest name used
		matches    INTEGER NOT NULL,
		sessions   INTEGER NOT NULL, -- joins: a rejoin is a session, not a match
		kills      INTEGER NOT NULL,
		deaths     INTEGER NOT NULL,
		assists    INTEGER NOT NULL,
		score      INTEGER NOT NULL,
		best       INTEGER NOT NULL, -- the best score of one match
		seconds    REAL    NOT NULL,
		dealt_phaser REAL NOT NULL, dealt_pulse REAL NOT NULL, dealt_torpedo REAL NOT NULL, dealt_collision REAL NOT NULL, dealt_other REAL NOT NULL,
		taken_phaser REAL NOT NULL, taken_pulse REAL NOT NULL, taken_torpedo REAL NOT NULL, taken_collision REAL NOT NULL, taken_other REAL NOT NULL,
		last_seen  INTEGER NOT NULL  -- unix milliseconds: the end of the latest match
	);
	CREATE INDEX career_totals_score   ON career_totals(score DESC, identity);
	CREATE INDEX career_totals_kills   ON career_totals(kills DESC, identity);
	CREATE INDEX career_totals_kd      ON career_totals((CAST(kills AS REAL) / MAX(1, deaths)) DESC, identity);
	CREATE INDEX career_totals_assists ON career_totals(assists DESC, identity);
	CREATE INDEX career_totals_matches ON career_totals(matches DESC, identity);
	CREATE INDEX career_totals_time    ON career_totals(seconds DESC, identity);
	CREATE INDEX career_totals_damage  ON career_totals((dealt_phaser + dealt_pulse + dealt_torpedo + dealt_collision + dealt_other) DESC, identity);
	CREATE INDEX career_totals_seen    ON career_totals(last_seen);
	CREATE TABLE career_class_totals (
		identity TEXT NOT NULL,
		class    TEXT NOT NULL,
		seconds  REAL NOT NULL,
		PRIMARY KEY (identity, class)
	);
	CREATE TABLE career_names (
		identity  TEXT    NOT NULL,
		name      TEXT    NOT NULL,
		last_seen INTEGER NOT NULL,
		PRIMARY KEY (identity, name)
	);`

// Bounds of what a career keeps besides its totals.
const (
	// careerRowsPerPlayer is how many per-match rows an identity keeps.
	careerRowsPerPlayer = 100
	// namesPerPlayer is how many spellings an identity keeps.
	namesPerPlayer = 20
)

// rebuildCareers brings the careers of a file written before version 4 to
// it: identities recomputed from the names (Identity once lower-cased the
// name alone: "Ärger" and "ärger", two players admission tells apart, were
// one career; a zero-width "Al\u200bice" was a career of its own), the
// rows of one player's rejoins in one match merged into one (each had
// counted as a match), and the totals built.
func rebuildCareers(ctx context.Context, tx *sql.Tx) error {
	for _, table := range []string{"career", "match_players"} {
		if err := rekey(ctx, tx, table); err != nil {
			return err
		}
	}
	if err := mergeSessions(ctx, tx); err != nil {
		return err
	}
	for _, q := range []string{
		`INSERT INTO career_totals SELECT identity,
			(SELECT name FROM career c2 WHERE c2.identity = career.identity ORDER BY ended_at DESC, id DESC LIMIT 1),
			COUNT(*), SUM(sessions), SUM(kills), SUM(deaths), SUM(assists), SUM(score), MAX(score), SUM(seconds),
			SUM(dealt_phaser), SUM(dealt_pulse), SUM(dealt_torpedo), SUM(dealt_collision), SUM(dealt_other),
			SUM(taken_phaser), SUM(taken_pulse), SUM(taken_torpedo), SUM(taken_collision), SUM(taken_other), MAX(ended_at)
			FROM career GROUP BY identity`,
		`INSERT INTO career_class_totals SELECT c.identity, cc.class, SUM(cc.seconds)
			FROM career_classes cc JOIN career c ON c.id = cc.career_id GROUP BY c.identity, cc.class`,
		`INSERT INTO career_names SELECT identity, name, MAX(ended_at) FROM career GROUP BY identity, name`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("building the career totals: %w", err)
		}
	}
	return nil
}

// rekey sets every row's identity from its name.
func rekey(ctx context.Context, tx *sql.Tx, table string) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT name FROM `+table)
	if err != nil {
		return fmt.Errorf("reading the names of %s: %w", table, err)
	}
	var all []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		all = append(all, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, n := range all {
		// OR IGNORE: two lines of one match that now share an identity
		// (look-alike names of one player's rejoins) keep the first.
		if _, err := tx.ExecContext(ctx, `UPDATE OR IGNORE `+table+` SET identity = ? WHERE name = ?`, names.Key(n), n); err != nil {
			return fmt.Errorf("rekeying %s: %w", table, err)
		}
	}
	return nil
}

// mergeSessions folds the rows one identity has for one match (its
// rejoins) into the first of them.
func mergeSessions(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT identity, server, mode, started_at, MIN(id), COUNT(*) FROM career
		GROUP BY identity, server, mode, started_at HAVING COUNT(*) > 1`)
	if err != nil {
		return fmt.Errorf("finding rejoins: %w", err)
	}
	type group struct {
		identity, server, mode string
		started, keep, n       int64
	}
	var gs []group
	for rows.Next() {
		var g group
		if err := rows.Scan(&g.identity, &g.server, &g.mode, &g.started, &g.keep, &g.n); err != nil {
			rows.Close()
			return err
		}
		gs = append(gs, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	const same = `identity = ? AND server = ? AND mode = ? AND started_at = ?`
	for _, g := range gs {
		args := []any{g.identity, g.server, g.mode, g.started}
		keep := fmt.Sprint(g.keep) // our own integer
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO career_classes(career_id, class, seconds)
				SELECT ` + keep + `, cc.class, SUM(cc.seconds) FROM career_classes cc JOIN career c ON c.id = cc.career_id
				WHERE ` + same + ` GROUP BY cc.class
				ON CONFLICT(career_id, class) DO UPDATE SET seconds = excluded.seconds`, args},
			{`UPDATE career SET (name, ended_at, kills, deaths, assists, score, seconds, sessions,
				dealt_phaser, dealt_pulse, dealt_torpedo, dealt_collision, dealt_other,
				taken_phaser, taken_pulse, taken_torpedo, taken_collision, taken_other) =
				(SELECT (SELECT name FROM career c2 WHERE ` + same + ` ORDER BY id DESC LIMIT 1), MAX(ended_at),
				SUM(kills), SUM(deaths), SUM(assists), SUM(score), SUM(seconds), SUM(sessions),
				SUM(dealt_phaser), SUM(dealt_pulse), SUM(dealt_torpedo), SUM(dealt_collision), SUM(dealt_other),
				SUM(taken_phaser), SUM(taken_pulse), SUM(taken_torpedo), SUM(taken_collision), SUM(taken_other)
				FROM career WHERE ` + same + `) WHERE id = ` + keep, append(append([]any{}, args...), args...)},
			{`DELETE FROM career WHERE ` + same + ` AND id != ` + keep, args},
		} {
			if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
				return fmt.Errorf("merging the rejoins of %q: %w", g.identity, err)
			}
		}
	}
	return nil
}

// addToTotals adds one match's line to its identity's totals, class
// totals and names, and trims the identity's per-match rows and names.
func addToTotals(ctx context.Context, tx *sql.Tx, p history.CareerLine, ended int64) error {
	d, t := p.Dealt, p.Taken
	sessions := max(1, p.Sessions)
	if _, err := tx.ExecContext(ctx, `INSERT INTO career_totals(identity, name, matches, sessions, wins, kills, deaths, assists, score, best, seconds,
		dealt_phaser, dealt_pulse, dealt_torpedo, dealt_collision, dealt_other, taken_phaser, taken_pulse, taken_torpedo, taken_collision, taken_other, last_seen)
		VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(identity) DO UPDATE SET
			name = CASE WHEN excluded.last_seen >= last_seen THEN excluded.name ELSE name END,
			matches = matches + 1, sessions = sessions + excluded.sessions, wins = wins + excluded.wins,
			kills = kills + excluded.kills, deaths = deaths + excluded.deaths, assists = assists + excluded.assists,
			score = score + excluded.score, best = MAX(best, excluded.best), seconds = seconds + excluded.seconds,
			dealt_phaser = dealt_phaser + excluded.dealt_phaser, dealt_pulse = dealt_pulse + excluded.dealt_pulse,
			dealt_torpedo = dealt_torpedo + excluded.dealt_torpedo, dealt_collision = dealt_collision + excluded.dealt_collision,
			dealt_other = dealt_other + excluded.dealt_other,
			taken_phaser = taken_phaser + excluded.taken_phaser, taken_pulse = taken_pulse + excluded.taken_pulse,
			taken_torpedo = taken_torpedo + excluded.taken_torpedo, taken_collision = taken_collision + excluded.taken_collision,
			taken_other = taken_other + excluded.taken_other,
			last_seen = MAX(last_seen, excluded.last_seen)`,
		p.Identity, p.Name, sessions, p.Won, p.Kills, p.Deaths, p.Assists, p.Score, p.Score, p.Seconds,
		d.Phaser, d.Pulse, d.Torpedo, d.Collision, d.Other, t.Phaser, t.Pulse, t.Torpedo, t.Collision, t.Other, ended); err != nil {
		return fmt.Errorf("career totals of %q: %w", p.Name, err)
	}
	for class, secs := range p.Classes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO career_class_totals(identity, class, seconds) VALUES (?, ?, ?)
			ON CONFLICT(identity, class) DO UPDATE SET seconds = seconds + excluded.seconds`, p.Identity, class, secs); err != nil {
			return fmt.Errorf("career classes of %q: %w", p.Name, err)
		}
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO career_names(identity, name, last_seen) VALUES (?, ?, ?)
			ON CONFLICT(identity, name) DO UPDATE SET last_seen = MAX(last_seen, excluded.last_seen)`, []any{p.Identity, p.Name, ended}},
		{`DELETE FROM career_names WHERE identity = ? AND name NOT IN
			(SELECT name FROM career_names WHERE identity = ? ORDER BY last_seen DESC, name LIMIT ?)`, []any{p.Identity, p.Identity, namesPerPlayer}},
		{`DELETE FROM career WHERE identity = ? AND id NOT IN
			(SELECT id FROM career WHERE identity = ? ORDER BY id DESC LIMIT ?)`, []any{p.Identity, p.Identity, careerRowsPerPlayer}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return fmt.Errorf("career of %q: %w", p.Name, err)
		}
	}
	return nil
}
