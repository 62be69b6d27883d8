// Package ratings keeps a Glicko-2 skill rating per account and mode
// family, updated from every match's result, with seasons; it balances
// teams from the ratings and serves the leaderboard.
package ratings

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"time"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [ratings] section of the default configuration
// file, with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [ratings].
type Section struct {
	Enabled bool    `toml:"enabled"`
	Season  string  `toml:"season"`
	Tau     float64 `toml:"tau"`
	Balance bool    `toml:"balance"`
	// Public serves the leaderboard on the spectator page's listener
	// ([spectate] listen): /ratings.html, /api/ratings.
	Public bool `toml:"public"`
}

// Validate reports bad values, naming their keys; accountsOn says
// whether [accounts] is enabled.
func (s Section) Validate(accountsOn bool) error {
	var errs []error
	if s.Enabled && !accountsOn {
		errs = append(errs, errors.New("ratings.enabled: needs [accounts] enabled (ratings belong to accounts)"))
	}
	if !slices.Contains([]string{"none", "month", "quarter", "year"}, s.Season) {
		errs = append(errs, fmt.Errorf("ratings.season %q: want none, month, quarter or year", s.Season))
	}
	if !(s.Tau >= 0.2 && s.Tau <= 1.5) {
		errs = append(errs, fmt.Errorf("ratings.tau %v: want 0.2..1.5", s.Tau))
	}
	return errors.Join(errs...)
}

// SeasonOf names the season t falls in: "2026-12", "2026-Q4", "2026",
// or "all" (UTC).
func SeasonOf(kind string, t time.Time) string {
	t = t.UTC()
	switch kind {
	case "month":
		return t.Format("2006-01")
	case "quarter":
		return fmt.Sprintf("%d-Q%d", t.Year(), (int(t.Month())-1)/3+1)
	case "year":
		return t.Format("2006")
	}
	return "all"
}
