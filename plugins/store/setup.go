package store

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/bcserver/bcserver/config"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [store] section of the default configuration file,
// with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [store]: the match-history database.
type Section struct {
	// Path is the SQLite file; empty turns match history off.
	Path string `toml:"path"`
	// KeepMatches and KeepDays bound the history (0: no bound), applied
	// at start and then daily.
	KeepMatches int `toml:"keep_matches"`
	KeepDays    int `toml:"keep_days"`
	// KeepCareerDays drops the career of a player not seen for this many
	// days (0: keep).
	KeepCareerDays int `toml:"keep_career_days"`
}

// Validate reports bad values, naming their keys.
func (s Section) Validate() error {
	if s.KeepMatches < 0 || s.KeepDays < 0 || s.KeepCareerDays < 0 {
		return errors.New("store.keep_matches, store.keep_days, store.keep_career_days: must not be negative (0 keeps everything)")
	}
	return nil
}

// Setup opens the database the section names (a relative path is
// relative to dir) and keeps it pruned to the section's bounds until stop
// is called; stop does not close the store. A section without a path
// opens nothing: (nil, a no-op, nil).
func Setup(s Section, dir config.Dir, log *slog.Logger) (st *Store, stop func(), err error) {
	stop = func() {}
	if s.Path == "" {
		return nil, stop, nil
	}
	st, err = Open(dir.Resolve(s.Path), Options{Logger: log})
	if err != nil {
		return nil, stop, fmt.Errorf("plugin/store: %w", err)
	}
	keep := Retention{KeepMatches: s.KeepMatches, KeepDays: s.KeepDays, KeepCareerDays: s.KeepCareerDays}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	if !keep.Off() {
		wg.Go(func() { st.KeepPruned(ctx, keep, 0, nil) })
	}
	wg.Go(func() { st.KeepCheckpointed(ctx, 0) })
	stop = func() { cancel(); wg.Wait() }
	return st, stop, nil
}
