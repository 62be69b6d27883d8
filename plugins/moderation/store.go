// Package moderation is moderation over time: timed bans with reasons
// (by name, account or address), warnings and notes per player, and the
// audit log of every admin action, kept in the [store] database; it
// enforces the bans in every game of the process and runs the in-game
// admin commands of logged-in admins and moderators.
package moderation

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine/names"
)

const schema = `
CREATE TABLE IF NOT EXISTS mod_bans (
	id      INTEGER PRIMARY KEY,
	kind    TEXT NOT NULL,          -- name | address
	target  TEXT NOT NULL,          -- the name as given, or the address
	key     TEXT NOT NULL,          -- names.Key of a name, the address itself
	reason  TEXT NOT NULL,
	by      TEXT NOT NULL,
	created INTEGER NOT NULL,
	expires INTEGER,                -- unix seconds; NULL = permanent
	lifted  INTEGER                 -- unix seconds when lifted
);
CREATE TABLE IF NOT EXISTS mod_records (
	id      INTEGER PRIMARY KEY,
	key     TEXT NOT NULL,          -- names.Key of the player's name (or account)
	name    TEXT NOT NULL,
	kind    TEXT NOT NULL,          -- warning | note
	text    TEXT NOT NULL,
	by      TEXT NOT NULL,
	created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS mod_records_key ON mod_records(key);
CREATE TABLE IF NOT EXISTS audit (
	id     INTEGER PRIMARY KEY,
	at     INTEGER NOT NULL,
	by     TEXT NOT NULL,
	role   TEXT NOT NULL,
	action TEXT NOT NULL,
	args   TEXT NOT NULL,
	status INTEGER NOT NULL
);`

// Ban is one timed or permanent ban.
type Ban struct {
	ID      int64      `json:"id"`
	Kind    string     `json:"kind"` // "name" or "address"
	Target  string     `json:"target"`
	Reason  string     `json:"reason"`
	By      string     `json:"by"`
	Created time.Time  `json:"created"`
	Expires *time.Time `json:"expires,omitempty"` // nil: permanent
	Lifted  *time.Time `json:"lifted,omitempty"`
	key     string
}

// Active reports whether the ban holds at now.
func (b Ban) Active(now time.Time) bool {
	return b.Lifted == nil && (b.Expires == nil || now.Before(*b.Expires))
}

// Record is a warning or a note about a player.
type Record struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Kind    string    `json:"kind"` // "warning" or "note"
	Text    string    `json:"text"`
	By      string    `json:"by"`
	Created time.Time `json:"created"`
}

// AuditEntry is one admin action: who (a token's name or an in-game
// account), with which role, what, with which arguments, and the HTTP
// status it got (200 for in-game commands that worked).
type AuditEntry struct {
	ID     int64     `json:"id"`
	At     time.Time `json:"at"`
	By     string    `json:"by"`
	Role   string    `json:"role"`
	Action string    `json:"action"`
	Args   string    `json:"args"`
	Status int       `json:"status"`
}

// Limits on what callers may store.
const (
	MaxReason = 200
	MaxText   = 1000
)

// Store is the process's moderation data; its methods are safe from any
// goroutine. Active bans are also kept in memory, so a game checks a
// joiner without touching the disk.
type Store struct {
	db *sql.DB
	mu sync.Mutex
	// bans are the bans not lifted (expired ones stay until the next
	// load, and are skipped by Banned).
	bans []Ban
	// onBan is called after a ban is added (the games boot who matches).
	onBan []func(Ban)
	// bg counts the writes the games started (Go), so Close waits.
	bg sync.WaitGroup
}

// Go runs a write off the game goroutine; Wait waits for those started.
func (s *Store) Go(fn func()) { s.bg.Go(fn) }

// Wait waits for the writes started with Go.
func (s *Store) Wait() { s.bg.Wait() }

// Open creates the tables when missing and reads the bans in force.
func Open(db *sql.DB, now time.Time) (*Store, error) {
	if db == nil {
		return nil, errors.New("plugin/moderation: no database")
	}
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return nil, fmt.Errorf("plugin/moderation: creating tables: %w", err)
	}
	s := &Store{db: db}
	all, err := s.Bans(ctx, false)
	if err != nil {
		return nil, err
	}
	for _, b := range all {
		if b.Active(now) {
			s.bans = append(s.bans, b)
		}
	}
	return s, nil
}

// OnBan registers fn to run (on the caller's goroutine) after each ban.
func (s *Store) OnBan(fn func(Ban)) {
	s.mu.Lock()
	s.onBan = append(s.onBan, fn)
	s.mu.Unlock()
}

// ParseTarget reads "name:Player", "account:Player" (the same: accounts
// protect their names) or an IPv4 address.
func ParseTarget(t string) (kind, target, key string, err error) {
	t = strings.TrimSpace(t)
	for _, p := range []string{"name:", "account:"} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			rest = strings.TrimSpace(rest)
			if rest == "" || !names.Valid(rest) || len(rest) > 64 {
				return "", "", "", fmt.Errorf("%q is not a player name", rest)
			}
			return "name", rest, names.Key(rest), nil
		}
	}
	a, perr := netip.ParseAddr(t)
	if perr != nil || !a.Is4() {
		return "", "", "", fmt.Errorf("%q: want name:<player>, account:<player> or an IPv4 address", t)
	}
	if a.IsLoopback() || a.IsUnspecified() {
		return "", "", "", fmt.Errorf("%s is this machine's or no one's address", a)
	}
	return "address", a.String(), a.String(), nil
}

// AddBan bans target for d (0: permanent) from now.
func (s *Store) AddBan(ctx context.Context, target, reason, by string, d time.Duration, now time.Time) (Ban, error) {
	kind, t, key, err := ParseTarget(target)
	if err != nil {
		return Ban{}, err
	}
	if len(reason) > MaxReason || !names.Valid(reason) && reason != "" {
		return Ban{}, fmt.Errorf("reason: at most %d bytes of printable text", MaxReason)
	}
	if d < 0 {
		return Ban{}, errors.New("duration must not be negative")
	}
	b := Ban{Kind: kind, Target: t, key: key, Reason: reason, By: by, Created: now.UTC().Truncate(time.Second)}
	var exp any
	if d > 0 {
		e := now.Add(d).UTC().Truncate(time.Second)
		b.Expires, exp = &e, e.Unix()
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO mod_bans (kind, target, key, reason, by, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		kind, t, key, reason, by, b.Created.Unix(), exp)
	if err != nil {
		return Ban{}, fmt.Errorf("saving the ban: %w", err)
	}
	b.ID, _ = res.LastInsertId()
	s.mu.Lock()
	s.bans = append(s.bans, b)
	hooks := append([]func(Ban){}, s.onBan...)
	s.mu.Unlock()
	for _, fn := range hooks {
		fn(b)
	}
	return b, nil
}

// Lift ends a ban now; it reports false for no such ban in force.
func (s *Store) Lift(ctx context.Context, id int64, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE mod_bans SET lifted = ? WHERE id = ? AND lifted IS NULL`, now.Unix(), id)
	if err != nil {
		return false, fmt.Errorf("lifting ban %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	s.mu.Lock()
	for i, b := range s.bans {
		if b.ID == id {
			s.bans = append(s.bans[:i:i], s.bans[i+1:]...)
			break
		}
	}
	s.mu.Unlock()
	return n == 1, nil
}

// Banned returns the ban in force at now that matches the name or the
// address, if any.
func (s *Store) Banned(name string, addr netip.Addr, now time.Time) (Ban, bool) {
	key := ""
	if name != "" {
		key = names.Key(name)
	}
	a := addr.Unmap().String()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bans {
		if !b.Active(now) {
			continue
		}
		if b.Kind == "name" && key != "" && b.key == key || b.Kind == "address" && addr.IsValid() && b.key == a {
			return b, true
		}
	}
	return Ban{}, false
}

// Bans lists the bans, newest first; all includes lifted and expired ones.
func (s *Store) Bans(ctx context.Context, all bool) ([]Ban, error) {
	q := `SELECT id, kind, target, key, reason, by, created, expires, lifted FROM mod_bans`
	if !all {
		q += ` WHERE lifted IS NULL`
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY id DESC LIMIT 1000`)
	if err != nil {
		return nil, fmt.Errorf("reading the bans: %w", err)
	}
	defer rows.Close()
	var out []Ban
	for rows.Next() {
		var b Ban
		var created int64
		var exp, lifted sql.NullInt64
		if err := rows.Scan(&b.ID, &b.Kind, &b.Target, &b.key, &b.Reason, &b.By, &created, &exp, &lifted); err != nil {
			return nil, fmt.Errorf("reading the bans: %w", err)
		}
		b.Created = time.Unix(created, 0).UTC()
		if exp.Valid {
			t := time.Unix(exp.Int64, 0).UTC()
			b.Expires = &t
		}
		if lifted.Valid {
			t := time.Unix(lifted.Int64, 0).UTC()
			b.Lifted = &t
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// AddRecord keeps a warning or a note about a player.
func (s *Store) AddRecord(ctx context.Context, name, kind, text, by string, now time.Time) (Record, error) {
	name = strings.TrimSpace(name)
	if name == "" || !names.Valid(name) || len(name) > 64 {
		return Record{}, fmt.Errorf("%q is not a player name", name)
	}
	if kind != "warning" && kind != "note" {
		return Record{}, fmt.Errorf("kind %q: want warning or note", kind)
	}
	if text == "" || len(text) > MaxText || !names.Valid(text) {
		return Record{}, fmt.Errorf("text: 1 to %d bytes of printable text", MaxText)
	}
	r := Record{Name: name, Kind: kind, Text: text, By: by, Created: now.UTC().Truncate(time.Second)}
	res, err := s.db.ExecContext(ctx, `INSERT INTO mod_records (key, name, kind, text, by, created) VALUES (?, ?, ?, ?, ?, ?)`,
		names.Key(name), name, kind, text, by, r.Created.Unix())
	if err != nil {
		return Record{}, fmt.Errorf("saving the %s: %w", kind, err)
	}
	r.ID, _ = res.LastInsertId()
	return r, nil
}

// Records lists a player's warnings and notes, newest first ("" lists
// everyone's latest).
func (s *Store) Records(ctx context.Context, name string) ([]Record, error) {
	q, args := `SELECT id, name, kind, text, by, created FROM mod_records`, []any{}
	if name != "" {
		q += ` WHERE key = ?`
		args = append(args, names.Key(name))
	}
	rows, err := s.db.QueryContext(ctx, q+` ORDER BY id DESC LIMIT 500`, args...)
	if err != nil {
		return nil, fmt.Errorf("reading the records: %w", err)
	}
	defer rows.Close()
	var out []Record
	for rows.Next() {
		var r Record
		var created int64
		if err := rows.Scan(&r.ID, &r.Name, &r.Kind, &r.Text, &r.By, &created); err != nil {
			return nil, err
		}
		r.Created = time.Unix(created, 0).UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// Audit appends an entry to the audit log.
func (s *Store) Audit(ctx context.Context, e AuditEntry) error {
	if len(e.Args) > 4096 {
		e.Args = e.Args[:4096]
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO audit (at, by, role, action, args, status) VALUES (?, ?, ?, ?, ?, ?)`,
		e.At.Unix(), e.By, e.Role, e.Action, e.Args, e.Status)
	if err != nil {
		return fmt.Errorf("writing the audit log: %w", err)
	}
	return nil
}

// AuditLog returns the newest entries, at most limit (1..1000).
func (s *Store) AuditLog(ctx context.Context, limit int) ([]AuditEntry, error) {
	limit = max(1, min(limit, 1000))
	rows, err := s.db.QueryContext(ctx, `SELECT id, at, by, role, action, args, status FROM audit ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("reading the audit log: %w", err)
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.By, &e.Role, &e.Action, &e.Args, &e.Status); err != nil {
			return nil, err
		}
		e.At = time.Unix(at, 0).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}
