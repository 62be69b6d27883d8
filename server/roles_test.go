package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/plugins/admin"
)

const (
	viewerToken    = "viewer-token-0123456789"
	moderatorToken = "moderator-token-0123456789"
)

// Each role refuses what it must: a viewer reads and changes nothing, a
// moderator kicks, says and gives timed bans but no permanent ban, no
// mission, restart or audit log; an admin does it all. Every action
// (refusals by the action itself included) is in the audit log under the
// token's name.
func TestAdminRoles(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) {
		uc.Admin.Tokens = []admin.Token{
			{Name: "watcher", Token: viewerToken, Role: "viewer"},
			{Name: "mod1", Token: moderatorToken, Role: "moderator"},
		}
	})
	type req struct {
		method, path string
		body         string
	}
	var (
		status    = req{"GET", "/api/v1/status", ""}
		bans      = req{"GET", "/api/v1/moderation/bans", ""}
		say       = req{"POST", "/api/v1/say", `{"text": "hi"}`}
		timedBan  = req{"POST", "/api/v1/moderation/ban", `{"target": "name:Griefer", "duration": "2h", "reason": "spam"}`}
		permBan   = req{"POST", "/api/v1/moderation/ban", `{"target": "name:Griefer2", "reason": "cheat"}`}
		longBan   = req{"POST", "/api/v1/moderation/ban", `{"target": "203.0.113.7", "duration": "2000h"}`}
		warn      = req{"POST", "/api/v1/moderation/record", `{"name": "Griefer", "kind": "warning", "text": "rammed spawns"}`}
		fileBan   = req{"POST", "/api/v1/ban", `{"name": "Griefer3"}`}
		reload    = req{"POST", "/api/v1/mission/reload", ""}
		restart   = req{"POST", "/api/v1/game/restart", ""}
		auditRead = req{"GET", "/api/v1/audit", ""}
	)
	for _, tc := range []struct {
		role  string
		token string
		want  map[req]int
	}{
		{"viewer", viewerToken, map[req]int{status: 200, bans: 200, say: 403, timedBan: 403, warn: 403, fileBan: 403, reload: 403, restart: 403, auditRead: 403}},
		{"moderator", moderatorToken, map[req]int{status: 200, say: 200, timedBan: 200, permBan: 403, longBan: 403, warn: 200, fileBan: 403, reload: 403, restart: 403, auditRead: 403}},
		{"admin", testToken, map[req]int{status: 200, say: 200, permBan: 200, longBan: 200, fileBan: 200, restart: 200, auditRead: 200}},
		{"nobody", "wrong-token-0123456789", map[req]int{status: 401, say: 401, auditRead: 401}},
	} {
		t.Run(tc.role, func(t *testing.T) {
			for r, want := range tc.want {
				var body any
				if r.body != "" {
					body = r.body
				}
				if got := a.call(t, r.method, r.path, tc.token, body, nil); got != want {
					t.Errorf("%s %s: %d, want %d", r.method, r.path, got, want)
				}
			}
		})
	}
	a.s.Settle()
	var audit struct {
		Audit []struct {
			By, Role, Action, Args string
			Status                 int
		}
	}
	if a.call(t, "GET", "/api/v1/audit?limit=100", testToken, nil, &audit) != 200 {
		t.Fatal("audit")
	}
	seen := map[string]bool{}
	for _, e := range audit.Audit {
		seen[e.By+" "+e.Action+" "+http.StatusText(e.Status)] = true
	}
	for _, want := range []string{"token:mod1 timed_ban OK", "token:mod1 timed_ban Forbidden", "token:mod1 record OK", "token:admin ban OK", "token:admin game_restart OK", "token:mod1 say OK"} {
		if !seen[want] {
			t.Errorf("audit log lacks %q: %v", want, seen)
		}
	}
	var bl struct {
		Bans []struct {
			Target, Reason, By string
			Expires            *string
		}
	}
	a.call(t, "GET", "/api/v1/moderation/bans", viewerToken, nil, &bl)
	if len(bl.Bans) != 3 || !strings.HasPrefix(bl.Bans[len(bl.Bans)-1].By, "token:mod1") || bl.Bans[len(bl.Bans)-1].Expires == nil {
		t.Fatalf("%+v", bl.Bans)
	}
}

// The host sets an account's password through the API (an admin's
// token only); the password is in no log line and no audit entry.
func TestAccountPasswordByHost(t *testing.T) {
	const pw = "Picard-Secret-47"
	a := serveAdmin(t, func(uc *Config) {
		uc.Accounts.Enabled = true
		uc.Accounts.Admins = []string{"Picard"}
		uc.Admin.Tokens = []admin.Token{{Name: "mod1", Token: moderatorToken, Role: "moderator"}}
	})
	body := `{"name": "Picard", "password": "` + pw + `"}`
	if got := a.call(t, "POST", "/api/v1/accounts/password", moderatorToken, body, nil); got != 403 {
		t.Fatalf("moderator: %d", got)
	}
	if got := a.call(t, "POST", "/api/v1/accounts/password", testToken, body, nil); got != 200 {
		t.Fatalf("admin: %d", got)
	}
	if got := a.call(t, "POST", "/api/v1/accounts/password", testToken, `{"name": "Bad\u202eName", "password": "`+pw+`"}`, nil); got != 400 {
		t.Fatalf("hostile name: %d", got)
	}
	a.s.Settle()
	var audit struct {
		Audit []struct{ Action, Args string }
	}
	a.call(t, "GET", "/api/v1/audit", testToken, nil, &audit)
	found := false
	for _, e := range audit.Audit {
		if e.Action == "account_password" {
			found = true
		}
		if strings.Contains(e.Args, pw) {
			t.Fatalf("the audit log holds the password: %+v", e)
		}
	}
	if !found || strings.Contains(a.logs.String(), pw) || !strings.Contains(a.logs.String(), "account password set by the host") {
		t.Fatalf("audit %+v\n%s", audit, a.logs.String())
	}
}
