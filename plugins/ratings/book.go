package ratings

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine/names"
)

// Families of modes rated apart.
const (
	FamilyFFA  = "ffa"
	FamilyTeam = "team"
)

// Entry is an account's rating in one family and season.
type Entry struct {
	Account string `json:"account"`
	Family  string `json:"family"`
	Season  string `json:"season"`
	Rating
	Matches int       `json:"matches"`
	Updated time.Time `json:"updated"`
}

type bookKey struct{ account, family, season string }

// Book is the process's ratings: the SQLite table and a copy in memory
// the games read without touching the disk. Safe from any goroutine.
type Book struct {
	db *sql.DB
	mu sync.Mutex
	m  map[bookKey]*Entry
	bg sync.WaitGroup
}

const bookSchema = `CREATE TABLE IF NOT EXISTS ratings (
	key        TEXT NOT NULL,   -- names.Key of the account
	account    TEXT NOT NULL,
	family     TEXT NOT NULL,
	season     TEXT NOT NULL,
	rating     REAL NOT NULL,
	deviation  REAL NOT NULL,
	volatility REAL NOT NULL,
	matches    INTEGER NOT NULL,
	updated    INTEGER NOT NULL,
	PRIMARY KEY (key, family, season)
)`

// OpenBook creates the table when missing and reads it.
func OpenBook(db *sql.DB) (*Book, error) {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, bookSchema); err != nil {
		return nil, fmt.Errorf("plugin/ratings: creating the table: %w", err)
	}
	b := &Book{db: db, m: map[bookKey]*Entry{}}
	rows, err := db.QueryContext(ctx, `SELECT key, account, family, season, rating, deviation, volatility, matches, updated FROM ratings`)
	if err != nil {
		return nil, fmt.Errorf("plugin/ratings: reading: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var e Entry
		var upd int64
		if err := rows.Scan(&key, &e.Account, &e.Family, &e.Season, &e.R, &e.RD, &e.Vol, &e.Matches, &upd); err != nil {
			return nil, fmt.Errorf("plugin/ratings: reading: %w", err)
		}
		e.Updated = time.Unix(upd, 0).UTC()
		b.m[bookKey{key, e.Family, e.Season}] = &e
	}
	return b, rows.Err()
}

// Get returns an account's rating (Initial and no matches when it has
// none).
func (b *Book) Get(account, family, season string) Entry {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e := b.m[bookKey{names.Key(account), family, season}]; e != nil {
		return *e
	}
	return Entry{Account: account, Family: family, Season: season, Rating: Initial}
}

// Set stores ratings in memory at once and on disk in the background.
func (b *Book) Set(es []Entry) {
	b.mu.Lock()
	for _, e := range es {
		e := e
		b.m[bookKey{names.Key(e.Account), e.Family, e.Season}] = &e
	}
	b.mu.Unlock()
	b.bg.Go(func() {
		for _, e := range es {
			_, _ = b.db.Exec(`INSERT INTO ratings (key, account, family, season, rating, deviation, volatility, matches, updated)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (key, family, season) DO UPDATE SET account = excluded.account, rating = excluded.rating,
				deviation = excluded.deviation, volatility = excluded.volatility, matches = excluded.matches, updated = excluded.updated`,
				names.Key(e.Account), e.Account, e.Family, e.Season, e.R, e.RD, e.Vol, e.Matches, e.Updated.Unix())
		}
	})
}

// Wait waits for the writes Set started.
func (b *Book) Wait() { b.bg.Wait() }

// Top returns the best-rated accounts of a family and season, by rating
// less twice the deviation (a conservative estimate: a new account with
// one lucky win does not top the table), at most limit.
func (b *Book) Top(family, season string, limit int) []Entry {
	b.mu.Lock()
	var out []Entry
	for k, e := range b.m {
		if k.family == family && k.season == season {
			out = append(out, *e)
		}
	}
	b.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		ci, cj := out[i].R-2*out[i].RD, out[j].R-2*out[j].RD
		if ci != cj {
			return ci > cj
		}
		return out[i].Account < out[j].Account
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
