package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/history"
)

// RecordMatch queues m for writing; it never blocks. It reports false if
// the record was dropped.
func (s *Store) RecordMatch(m history.Match) bool {
	return s.enqueue("match", func(ctx context.Context, tx *sql.Tx) error {
		team, winner, why, teams := outcomeColumns(m.Outcome)
		res, err := tx.ExecContext(ctx, `INSERT INTO matches(mode, map, server, started_at, ended_at, reason, winner_team, winner, why, teams) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.Mode, m.Map, m.Server, m.Started.UnixMilli(), m.Ended.UnixMilli(), m.Reason, team, winner, why, teams)
		if err != nil {
			return fmt.Errorf("inserting the match: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for _, p := range m.Players {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO match_players(match_id, identity, name, team, kills, deaths, score, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
				id, p.Identity, p.Name, p.Team, p.Kills, p.Deaths, p.Score, p.Address); err != nil {
				return fmt.Errorf("inserting player %q: %w", p.Name, err)
			}
		}
		return nil
	})
}

// Matches returns up to limit matches, newest first, with ids below
// before (0: from the newest).
func (s *Store) Matches(ctx context.Context, limit int, before int64) ([]history.Match, error) {
	if limit <= 0 || limit > 500 {
		limit = 50
	}
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, mode, map, server, started_at, ended_at, reason, winner_team, winner, why, teams FROM matches WHERE id < ? ORDER BY id DESC LIMIT ?`, before, limit)
	if err != nil {
		return nil, fmt.Errorf("listing matches: %w", err)
	}
	defer rows.Close()
	out := []history.Match{}
	index := map[int64]int{}
	for rows.Next() {
		var m history.Match
		var st, en int64
		var team sql.NullInt64
		var winner, why, teams string
		if err := rows.Scan(&m.ID, &m.Mode, &m.Map, &m.Server, &st, &en, &m.Reason, &team, &winner, &why, &teams); err != nil {
			return nil, err
		}
		m.Outcome = outcomeOf(team, winner, why, teams)
		m.Started, m.Ended = time.UnixMilli(st).UTC(), time.UnixMilli(en).UTC()
		m.Players = []history.MatchPlayer{}
		index[m.ID] = len(out)
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	prows, err := s.db.QueryContext(ctx, `SELECT match_id, identity, name, team, kills, deaths, score, address FROM match_players
		WHERE match_id <= ? AND match_id >= ? ORDER BY match_id, score DESC, name`, out[0].ID, out[len(out)-1].ID)
	if err != nil {
		return nil, fmt.Errorf("listing match players: %w", err)
	}
	defer prows.Close()
	for prows.Next() {
		var id int64
		var p history.MatchPlayer
		if err := prows.Scan(&id, &p.Identity, &p.Name, &p.Team, &p.Kills, &p.Deaths, &p.Score, &p.Address); err != nil {
			return nil, err
		}
		if i, ok := index[id]; ok {
			out[i].Players = append(out[i].Players, p)
		}
	}
	return out, prows.Err()
}

// outcomeColumns are the matches columns of an outcome.
func outcomeColumns(o *engine.Outcome) (team sql.NullInt64, winner, why, teams string) {
	if o == nil {
		return
	}
	if o.Team != nil {
		team = sql.NullInt64{Int64: int64(*o.Team), Valid: true}
	}
	if len(o.Teams) > 0 {
		if b, err := json.Marshal(o.Teams); err == nil {
			teams = string(b)
		}
	}
	return team, o.PlayerName, o.Why, teams
}

// outcomeOf reads an outcome back from the matches columns (nil for
// none).
func outcomeOf(team sql.NullInt64, winner, why, teams string) *engine.Outcome {
	o := &engine.Outcome{PlayerName: winner, Why: why}
	if team.Valid {
		t := int(team.Int64)
		o.Team = &t
	}
	if teams != "" {
		_ = json.Unmarshal([]byte(teams), &o.Teams) // a file edited by hand: the scores are left out
	}
	if o.Team == nil && o.PlayerName == "" && o.Why == "" && len(o.Teams) == 0 {
		return nil
	}
	return o
}

// Player returns the summed history of one identity (see Identity).
func (s *Store) Player(ctx context.Context, identity string) (history.PlayerStats, error) {
	st := history.PlayerStats{Identity: identity}
	var last sql.NullInt64
	var name sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(kills),0), COALESCE(SUM(deaths),0), COALESCE(SUM(score),0), COALESCE(MAX(score),0), MAX(m.ended_at),
		(SELECT p2.name FROM match_players p2 JOIN matches m2 ON m2.id = p2.match_id WHERE p2.identity = ? ORDER BY m2.id DESC LIMIT 1)
		FROM match_players p JOIN matches m ON m.id = p.match_id WHERE p.identity = ?`, identity, identity).
		Scan(&st.Matches, &st.Kills, &st.Deaths, &st.Score, &st.Best, &last, &name)
	if err != nil {
		return st, fmt.Errorf("player %q: %w", identity, err)
	}
	if st.Matches == 0 {
		return st, history.ErrNotFound
	}
	st.Name = name.String
	st.LastSeen = time.UnixMilli(last.Int64).UTC()
	return st, nil
}
