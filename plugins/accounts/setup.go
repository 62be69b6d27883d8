package accounts

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bcserver/bcserver/config"
	"github.com/bcserver/bcserver/engine/names"
)

//go:embed default.toml
var defaultTOML []byte

// DefaultTOML is the [accounts] section of the default configuration
// file, with its comments.
func DefaultTOML() []byte { return slices.Clone(defaultTOML) }

// Section is [accounts].
type Section struct {
	Enabled     bool            `toml:"enabled"`
	LoginTime   config.Duration `toml:"login_time"`
	MinPassword int             `toml:"min_password"`
	Attempts    int             `toml:"attempts"`
	Lockout     config.Duration `toml:"lockout"`
	Admins      []string        `toml:"admins"`
	Moderators  []string        `toml:"moderators"`
}

// maxPassword bounds a password (bytes of the chat line).
const maxPassword = 64

// Validate reports bad values, naming their keys; storeOn says whether
// [store] path is set, where the accounts live.
func (s Section) Validate(storeOn bool) error {
	var errs []error
	if s.Enabled && !storeOn {
		errs = append(errs, errors.New("accounts.enabled: needs [store] path (the accounts are kept there)"))
	}
	if s.LoginTime < config.Duration(5*time.Second) || s.LoginTime > config.Duration(time.Hour) {
		errs = append(errs, errors.New("accounts.login_time: want 5s..1h"))
	}
	if s.MinPassword < 4 || s.MinPassword > maxPassword {
		errs = append(errs, fmt.Errorf("accounts.min_password %d: want 4..%d", s.MinPassword, maxPassword))
	}
	if s.Attempts < 1 || s.Attempts > 100 || s.Lockout < 0 {
		errs = append(errs, errors.New("accounts.attempts, lockout: want 1..100 attempts and a lockout >= 0"))
	}
	for _, n := range append(slices.Clone(s.Admins), s.Moderators...) {
		if c, changed := names.Clean(n); changed || c == "" || len(n) > 64 {
			errs = append(errs, fmt.Errorf("accounts.admins/moderators: %q is not a player name", n))
		}
	}
	return errors.Join(errs...)
}

// Roles of accounts, from least to most.
const (
	RoleModerator = "moderator"
	RoleAdmin     = "admin"
)

// roleOf returns the role the section gives an account name.
func (s Section) roleOf(name string) string {
	key := names.Key(name)
	for _, a := range s.Admins {
		if names.Key(a) == key {
			return RoleAdmin
		}
	}
	for _, m := range s.Moderators {
		if names.Key(m) == key {
			return RoleModerator
		}
	}
	return ""
}
