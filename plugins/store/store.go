// Package store keeps what a server should remember across restarts in one
// embedded SQLite file: every match played (mode, map, start, end, reason,
// and each player's team, kills, deaths and score) and whatever else the
// host's tools want to query. It is pure Go (modernc.org/sqlite), so the
// server stays a static binary.
//
// Writes never block the game: the game goroutine hands records to a
// bounded queue that one writer goroutine drains; a full queue drops the
// record, logs it and counts it. Reads run on the caller's goroutine
// (the admin API) against the same file; WAL mode lets them run while the
// writer writes.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// DefaultQueue is the capacity of the write queue.
const DefaultQueue = 256

// Options configures Open.
type Options struct {
	// Queue is the write queue capacity (DefaultQueue when 0).
	Queue  int
	Logger *slog.Logger
}

// Store is an open database.
type Store struct {
	db   *sql.DB
	log  *slog.Logger
	path string

	q       chan op
	done    chan struct{}
	closing sync.Once
	mu      sync.RWMutex // held for reading while enqueueing, for writing by Close
	closed  bool

	// Dropped counts writes refused because the queue was full or the
	// store closed; Failed counts writes the database refused.
	Dropped, Failed atomic.Uint64
}

// op is one queued write; flush, when set, is closed once everything
// queued before it is written.
type op struct {
	what  string
	fn    func(ctx context.Context, tx *sql.Tx) error
	plain func(ctx context.Context, db *sql.DB) error // outside a transaction (a checkpoint)
	flush chan struct{}
}

// Open opens (creating if needed) the database at path, brings its schema
// up to date and starts the writer.
func Open(path string, opts Options) (*Store, error) {
	if opts.Queue <= 0 {
		opts.Queue = DefaultQueue
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// WAL lets the API read while the writer writes; the busy timeout
	// covers the rare moment two connections want the write lock (a
	// migration on a file another process also opened).
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &Store{db: db, log: log.With("component", "plugin/store"), path: path, q: make(chan op, opts.Queue), done: make(chan struct{})}
	go s.writer()
	return s, nil
}

// Path returns the database file.
func (s *Store) Path() string { return s.path }

// DB returns the database for reads.
func (s *Store) DB() *sql.DB { return s.db }

// enqueue hands a write to the writer without waiting. It reports false
// when the queue is full or the store closed.
func (s *Store) enqueue(what string, fn func(ctx context.Context, tx *sql.Tx) error) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		s.Dropped.Add(1)
		return false
	}
	select {
	case s.q <- op{what: what, fn: fn}:
		return true
	default:
		s.Dropped.Add(1)
		s.log.Warn("write queue full, record dropped", "what", what)
		return false
	}
}

// enqueuePlain is enqueue for work that runs outside a transaction.
func (s *Store) enqueuePlain(what string, fn func(ctx context.Context, db *sql.DB) error) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return false
	}
	select {
	case s.q <- op{what: what, plain: fn}:
		return true
	default:
		return false
	}
}

// Flush waits until every write queued before it is done (tests, and the
// shutdown summary).
func (s *Store) Flush(ctx context.Context) error {
	ch := make(chan struct{})
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errors.New("store closed")
	}
	select {
	case s.q <- op{flush: ch}:
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	s.mu.RUnlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Store) writer() {
	defer close(s.done)
	for o := range s.q {
		if o.flush != nil {
			close(o.flush)
			continue
		}
		if err := s.write(o); err != nil {
			s.Failed.Add(1)
			s.log.Error("write failed", "what", o.what, "err", err)
		}
	}
}

func (s *Store) write(o op) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if o.plain != nil {
		return o.plain(ctx, s.db)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := o.fn(ctx, tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Close writes what is queued and closes the database.
func (s *Store) Close() error {
	var err error
	s.closing.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.q)
		s.mu.Unlock()
		<-s.done
		err = s.db.Close()
	})
	return err
}
