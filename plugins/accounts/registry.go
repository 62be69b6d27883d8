package accounts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/bcserver/bcserver/engine/names"
)

// Registry is the process's accounts: the SQLite table (in the match
// history's database), an index in memory for the game loops, and one
// worker that runs the key derivation. Hashing is memory-hard and slow on
// purpose, so it never runs on a game goroutine, and one worker with a
// short queue bounds what a flood of !login lines can make the process
// allocate.
type Registry struct {
	db   *sql.DB
	kdf  KDF
	log  *slog.Logger
	sec  Section
	work chan func()
	done chan struct{}
	hook func()
	once sync.Once

	mu       sync.Mutex
	byKey    map[string]*record
	failures map[string][]time.Time // wrong passwords per account key, for the lockout
}

type record struct {
	name string // as registered
	hash string
}

// RegistryOptions configure a Registry.
type RegistryOptions struct {
	DB      *sql.DB
	Section Section
	// KDF overrides DefaultKDF (tests use a cheap one).
	KDF    *KDF
	Logger *slog.Logger
	// Done, when set, is called on the worker after each job (tests wait
	// on it instead of sleeping).
	Done func()
}

// workQueue bounds the key derivations waiting: beyond it a !login is
// answered "busy" at once.
const workQueue = 8

const schema = `CREATE TABLE IF NOT EXISTS accounts (
	key        TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	hash       TEXT NOT NULL,
	created    INTEGER NOT NULL,
	last_login INTEGER NOT NULL DEFAULT 0
)`

// OpenRegistry creates the table when missing, reads the accounts and
// starts the worker; Close stops it.
func OpenRegistry(o RegistryOptions) (*Registry, error) {
	if o.DB == nil {
		return nil, errors.New("plugin/accounts: no database")
	}
	r := &Registry{db: o.DB, kdf: DefaultKDF, log: o.Logger, sec: o.Section, work: make(chan func(), workQueue),
		done: make(chan struct{}), byKey: map[string]*record{}, failures: map[string][]time.Time{}}
	r.hook = o.Done
	if o.KDF != nil {
		r.kdf = *o.KDF
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.log = r.log.With("component", "plugin/accounts")
	ctx := context.Background()
	if _, err := r.db.ExecContext(ctx, schema); err != nil {
		return nil, fmt.Errorf("plugin/accounts: creating the accounts table: %w", err)
	}
	rows, err := r.db.QueryContext(ctx, `SELECT key, name, hash FROM accounts`)
	if err != nil {
		return nil, fmt.Errorf("plugin/accounts: reading the accounts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		rec := &record{}
		if err := rows.Scan(&key, &rec.name, &rec.hash); err != nil {
			return nil, fmt.Errorf("plugin/accounts: reading the accounts: %w", err)
		}
		r.byKey[key] = rec
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("plugin/accounts: reading the accounts: %w", err)
	}
	go r.worker()
	r.log.Info("accounts on", "accounts", len(r.byKey))
	return r, nil
}

func (r *Registry) worker() {
	defer close(r.done)
	for fn := range r.work {
		fn()
		if r.hook != nil {
			r.hook()
		}
	}
}

// Close stops the worker after the work queued.
func (r *Registry) Close() {
	r.once.Do(func() { close(r.work) })
	<-r.done
}

// Lookup returns the registered spelling of the account a name is
// protected by (names compare as the engine compares them), and whether
// there is one.
func (r *Registry) Lookup(name string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rec, ok := r.byKey[names.Key(name)]
	if !ok {
		return "", false
	}
	return rec.name, true
}

// Role returns the role [accounts] gives the account.
func (r *Registry) Role(account string) string { return r.sec.roleOf(account) }

// Count returns how many accounts there are.
func (r *Registry) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byKey)
}

// Locked reports whether an account is locked by wrong passwords at now.
func (r *Registry) Locked(name string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lockedLocked(names.Key(name), now)
}

func (r *Registry) lockedLocked(key string, now time.Time) bool {
	fs := r.failures[key]
	n := 0
	for _, t := range fs {
		if now.Sub(t) < time.Duration(r.sec.Lockout) {
			fs[n] = t
			n++
		}
	}
	r.failures[key] = fs[:n]
	if n == 0 {
		delete(r.failures, key)
	}
	return n >= r.sec.Attempts
}

func (r *Registry) fail(key string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.failures) > 10000 {
		clear(r.failures) // bounded: a flood of names cannot grow it
	}
	r.failures[key] = append(r.failures[key], now)
}

// ErrBusy: the worker's queue is full; the player may try again soon.
var ErrBusy = errors.New("busy")

// ErrTaken: the name is registered already.
var ErrTaken = errors.New("name registered")

// Register hashes password and creates the account name on the worker;
// done runs on the worker with the outcome. The password's bytes are
// overwritten once hashed.
func (r *Registry) Register(name string, password []byte, now time.Time, done func(error)) error {
	key := names.Key(name)
	return r.submit(func() {
		defer clear(password)
		if _, taken := r.Lookup(name); taken {
			done(ErrTaken)
			return
		}
		h, err := r.kdf.hash(password)
		if err != nil {
			done(err)
			return
		}
		r.mu.Lock()
		if _, taken := r.byKey[key]; taken {
			r.mu.Unlock()
			done(ErrTaken)
			return
		}
		r.byKey[key] = &record{name: name, hash: h}
		r.mu.Unlock()
		_, err = r.db.Exec(`INSERT INTO accounts (key, name, hash, created, last_login) VALUES (?, ?, ?, ?, ?)`, key, name, h, now.Unix(), now.Unix())
		if err != nil {
			r.mu.Lock()
			delete(r.byKey, key)
			r.mu.Unlock()
			done(fmt.Errorf("saving the account: %w", err))
			return
		}
		r.log.Info("account registered", "account", name)
		done(nil)
	})
}

// SetPassword creates the account name or gives it a new password (the
// host's: staff accounts, a forgotten password), on the worker; done runs
// there. The password's bytes are overwritten once hashed.
func (r *Registry) SetPassword(name string, password []byte, now time.Time, done func(error)) error {
	key := names.Key(name)
	return r.submit(func() {
		defer clear(password)
		h, err := r.kdf.hash(password)
		if err != nil {
			done(err)
			return
		}
		_, err = r.db.Exec(`INSERT INTO accounts (key, name, hash, created, last_login) VALUES (?, ?, ?, ?, 0)
			ON CONFLICT (key) DO UPDATE SET hash = excluded.hash`, key, name, h, now.Unix())
		if err != nil {
			done(fmt.Errorf("saving the account: %w", err))
			return
		}
		r.mu.Lock()
		if rec := r.byKey[key]; rec != nil {
			rec.hash = h
		} else {
			r.byKey[key] = &record{name: name, hash: h}
		}
		delete(r.failures, key)
		r.mu.Unlock()
		r.log.Info("account password set by the host", "account", name)
		done(nil)
	})
}

// Verify checks password for the account name on the worker; done runs
// there with the account's registered name and whether it matched. Wrong
// passwords count towards the account's lockout.
func (r *Registry) Verify(name string, password []byte, now time.Time, done func(account string, ok bool)) error {
	key := names.Key(name)
	return r.submit(func() {
		defer clear(password)
		r.mu.Lock()
		rec := r.byKey[key]
		r.mu.Unlock()
		if rec == nil {
			done("", false)
			return
		}
		ok, err := verify(rec.hash, password)
		if err != nil {
			r.log.Error("account hash unreadable", "account", rec.name, "err", err)
		}
		if !ok {
			r.fail(key, now)
			done(rec.name, false)
			return
		}
		_, _ = r.db.Exec(`UPDATE accounts SET last_login = ? WHERE key = ?`, now.Unix(), key)
		done(rec.name, true)
	})
}

func (r *Registry) submit(fn func()) (err error) {
	defer func() {
		if recover() != nil { // closed: the server is stopping
			err = ErrBusy
		}
	}()
	select {
	case r.work <- fn:
		return nil
	default:
		return ErrBusy
	}
}
