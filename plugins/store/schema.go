package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations bring the schema from version i to i+1 (PRAGMA user_version
// holds the version). Append, never edit: a released file may be at any
// earlier version, and each step runs in its own transaction.
var migrations = []string{
	// 1: match history.
	`CREATE TABLE matches (
		id         INTEGER PRIMARY KEY,
		mode       TEXT    NOT NULL,
		map        TEXT    NOT NULL,
		server     TEXT    NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL, -- unix milliseconds
		ended_at   INTEGER NOT NULL,
		reason     TEXT    NOT NULL  -- how it ended: time_up, score_limit, restarted, shutdown, ...
	);
	CREATE INDEX matches_started ON matches(started_at);
	CREATE TABLE match_players (
		match_id  INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
		identity  TEXT    NOT NULL, -- the stable player identity (see Identity)
		name      TEXT    NOT NULL, -- the name as shown in the match
		team      INTEGER NOT NULL,
		kills     INTEGER NOT NULL,
		deaths    INTEGER NOT NULL,
		score     INTEGER NOT NULL,
		PRIMARY KEY (match_id, identity)
	);
	CREATE INDEX match_players_identity ON match_players(identity);`,
	// 2: the address each player played from (to find whom to ban).
	`ALTER TABLE match_players ADD COLUMN address TEXT NOT NULL DEFAULT '';`,
	// 3: career statistics (career.go): one row per player per match with
	// what the recorder's capture saw, and the time flown in each class.
	`CREATE TABLE career (
		id         INTEGER PRIMARY KEY,
		identity   TEXT    NOT NULL,
		name       TEXT    NOT NULL,
		server     TEXT    NOT NULL DEFAULT '',
		mode       TEXT    NOT NULL,
		started_at INTEGER NOT NULL, -- unix milliseconds: the match's, as in matches
		ended_at   INTEGER NOT NULL,
		kills      INTEGER NOT NULL,
		deaths     INTEGER NOT NULL,
		assists    INTEGER NOT NULL,
		score      INTEGER NOT NULL,
		seconds    REAL    NOT NULL, -- time in the game
		dealt_phaser REAL NOT NULL, dealt_pulse REAL NOT NULL, dealt_torpedo REAL NOT NULL, dealt_collision REAL NOT NULL, dealt_other REAL NOT NULL,
		taken_phaser REAL NOT NULL, taken_pulse REAL NOT NULL, taken_torpedo REAL NOT NULL, taken_collision REAL NOT NULL, taken_other REAL NOT NULL
	);
	CREATE INDEX career_identity ON career(identity);
	CREATE TABLE career_classes (
		career_id INTEGER NOT NULL REFERENCES career(id) ON DELETE CASCADE,
		class     TEXT    NOT NULL,
		seconds   REAL    NOT NULL, -- time flown in a ship of the class
		PRIMARY KEY (career_id, class)
	);`,
	// 4: careers by one identity, matches and sessions apart, totals.
	careerTotals,
	// 5: how a match was won (bc.end_game's outcome), and the wins in the
	// careers and their totals.
	`ALTER TABLE matches ADD COLUMN winner_team INTEGER; -- NULL: none
	ALTER TABLE matches ADD COLUMN winner TEXT NOT NULL DEFAULT ''; -- the winning player's name
	ALTER TABLE matches ADD COLUMN why TEXT NOT NULL DEFAULT '';
	ALTER TABLE matches ADD COLUMN teams TEXT NOT NULL DEFAULT ''; -- JSON [{team, kills, score}]
	ALTER TABLE career ADD COLUMN won INTEGER NOT NULL DEFAULT 0; -- 1: on the winning side
	ALTER TABLE career_totals ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;`,
}

// migrationSteps are Go steps that run after the SQL of a migration, in
// its transaction, keyed by that SQL (so the step stays with its
// migration whatever number it gets).
var migrationSteps = map[string]func(ctx context.Context, tx *sql.Tx) error{
	careerTotals: rebuildCareers,
}

// SchemaVersion is the version this build writes.
var SchemaVersion = len(migrations)

func migrate(ctx context.Context, db *sql.DB) error { return migrateTo(ctx, db, len(migrations)) }

// migrateTo brings the schema up to version want (tests build old files
// with it).
func migrateTo(ctx context.Context, db *sql.DB, want int) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("reading the schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this server knows (%d): use a newer bcserver or another file", v, len(migrations))
	}
	for ; v < want; v++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
		if step := migrationSteps[migrations[v]]; step != nil {
			if err := step(ctx, tx); err != nil {
				_ = tx.Rollback()
				return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
			}
		}
		// PRAGMA takes no parameters; v+1 is our own integer.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
		}
	}
	return nil
}

// Version returns the schema version of the open file.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}
