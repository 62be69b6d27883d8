package admin

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/bcserver/bcserver/config"
)

// Roles of admin tokens, from least to most: a viewer reads, a moderator
// also kicks, mutes, says, gives timed bans, warnings and notes; an admin
// does everything (permanent bans, unbans, missions, restarts, the audit
// log). The [admin] token is an admin's.
const (
	RoleViewer    = "viewer"
	RoleModerator = "moderator"
	RoleAdmin     = "admin"
)

func rank(role string) int {
	switch role {
	case RoleViewer:
		return 1
	case RoleModerator:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// Token is one bearer token with its name (in the audit log) and role.
type Token struct {
	Name  string `toml:"name"`
	Token string `toml:"token"`
	// File holds the token instead (relative to the configuration file).
	File string `toml:"token_file"`
	Role string `toml:"role"`
}

// validateTokens checks [admin] tokens, naming the bad entry.
func validateTokens(ts []Token) error {
	var errs []error
	seen := map[string]bool{"admin": true}
	for i, t := range ts {
		where := fmt.Sprintf("admin.tokens[%d]", i)
		if t.Name == "" || len(t.Name) > 32 || strings.ContainsFunc(t.Name, func(r rune) bool { return r < '!' || r > '~' }) {
			errs = append(errs, fmt.Errorf("%s.name %q: 1..32 printable ASCII characters, no spaces", where, t.Name))
		} else if seen[t.Name] {
			errs = append(errs, fmt.Errorf("%s.name %q: used twice (admin is the [admin] token's)", where, t.Name))
		}
		seen[t.Name] = true
		if rank(t.Role) == 0 {
			errs = append(errs, fmt.Errorf("%s.role %q: want viewer, moderator or admin", where, t.Role))
		}
		if (t.Token == "") == (t.File == "") {
			errs = append(errs, fmt.Errorf("%s: set token or token_file", where))
		} else if t.Token != "" && len(t.Token) < 16 {
			errs = append(errs, fmt.Errorf("%s.token: use at least 16 characters", where))
		}
	}
	return errors.Join(errs...)
}

// LoadTokens returns the section's extra tokens with their secrets read
// from their files (relative to dir).
func (s Section) LoadTokens(dir config.Dir) ([]Token, error) {
	out := make([]Token, 0, len(s.Tokens))
	for _, t := range s.Tokens {
		if t.File != "" {
			b, err := os.ReadFile(dir.Resolve(t.File))
			if err != nil {
				return nil, fmt.Errorf("admin token %q: %w", t.Name, err)
			}
			t.Token = strings.TrimSpace(string(b))
			if len(t.Token) < 16 {
				return nil, fmt.Errorf("admin token %q: %s holds fewer than 16 characters", t.Name, t.File)
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// Caller is who made a request: the token's name and role.
type Caller struct{ Name, Role string }

type callerKey struct{}

// CallerOf returns the caller of an authenticated request.
func CallerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// tokens are every token the API takes, the [admin] one first.
func (a *Admin) tokens() []Token {
	return append([]Token{{Name: "admin", Token: a.opts.Token, Role: RoleAdmin}}, a.opts.Tokens...)
}

// caller finds the token of a request; every token is compared (in
// constant time each), so the time taken does not tell which matched.
func (a *Admin) caller(r *http.Request) (Caller, bool) {
	got := []byte(r.Header.Get("Authorization"))
	var found Caller
	ok := false
	for _, t := range a.tokens() {
		if subtle.ConstantTimeCompare(got, []byte("Bearer "+t.Token)) == 1 && !ok {
			found, ok = Caller{Name: t.Name, Role: t.Role}, true
		}
	}
	return found, ok
}

// actionRole is the least role each mutating action needs.
var actionRole = map[string]string{
	"kick": RoleModerator, "mute": RoleModerator, "say": RoleModerator,
	"timed_ban": RoleModerator, "lift_ban": RoleModerator, "record": RoleModerator,
	"ban": RoleAdmin, "unban": RoleAdmin,
	"mission_reload": RoleAdmin, "mission_set": RoleAdmin, "game_restart": RoleAdmin, "game_end": RoleAdmin,
}

// roleFor returns the least role an action needs (admin for any not
// listed: a new action is closed until it is given a role).
func roleFor(action string) string {
	if r, ok := actionRole[action]; ok {
		return r
	}
	return RoleAdmin
}
