package missiontest

import (
	"database/sql"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/server"
)

// A logged-in admin bans a griefer for two minutes in game: he is booted
// and refused while the ban holds (name and address), and gets in again
// once it has expired on the game's clock. A moderator may not restart;
// a player without a role who types !kick is only chatting.
func TestInGameTimedBanExpires(t *testing.T) {
	done := make(chan struct{}, 16)
	db := filepath.Join(t.TempDir(), "bc.db")
	seedAccounts(t, db, map[string]string{"Boss": "boss-password", "Mod": "mod-password"})
	w, err := NewMatch(Options{Mode: "m", FS: accountsMission,
		Configure: func(c *server.Config) {
			c.Store.Path = db
			c.Record.Enabled = false
			c.Accounts.Enabled = true
			c.Accounts.Admins = []string{"Boss"}
			c.Accounts.Moderators = []string{"Mod"}
		},
		Server: func(o *server.Options) {
			o.Accounts = func(ro *accounts.RegistryOptions) {
				ro.KDF = &accounts.KDF{Time: 1, MemKiB: 64, Threads: 1}
				ro.Done = func() { done <- struct{}{} }
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	boss, err := w.Join("Boss")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := w.Join("Mod")
	if err != nil {
		t.Fatal(err)
	}
	griefer, err := w.JoinFrom("Griefer", netip.MustParseAddr("127.0.0.5"))
	if err != nil {
		t.Fatal(err)
	}
	say(t, w, boss, "!login boss-password", done)
	say(t, w, mod, "!login mod-password", done)
	if p := player(w, boss); p.Role != "admin" || player(w, mod).Role != "moderator" {
		t.Fatalf("roles %q %q", p.Role, player(w, mod).Role)
	}
	say(t, w, griefer, "!kick Boss", nil) // no role: ordinary chat
	if player(w, boss) == nil {
		t.Fatal("a player without a role kicked the admin")
	}
	say(t, w, mod, "!restart", nil)
	say(t, w, mod, "!kick Boss", nil) // the admin is immune
	if player(w, boss) == nil || !strings.Contains(string(flat(mod.Take())), "Boss is immune") {
		t.Fatal("the moderator kicked the admin")
	}
	say(t, w, boss, "!ban Griefer 2m spamming", nil)
	w.Advance(time.Second)
	w.Settle()
	if w.Game.Player(griefer.ID()) != nil {
		t.Fatal("the griefer is still in the game")
	}
	if _, err := w.JoinFrom("Griefer", netip.MustParseAddr("127.0.0.5")); err == nil {
		t.Fatal("the griefer got back in while banned")
	}
	if _, err := w.JoinFrom("Griefer", netip.MustParseAddr("127.0.0.6")); err == nil {
		t.Fatal("the griefer got back in by name from another address")
	}
	w.Advance(2 * time.Minute)
	if _, err := w.JoinFrom("Griefer", netip.MustParseAddr("127.0.0.5")); err != nil {
		t.Fatalf("after the ban expired: %v", err)
	}
	if !strings.Contains(w.Logs(), `action=ban by=Boss role=admin`) {
		t.Fatalf("no audit line:\n%s", w.Logs())
	}
}

// seedAccounts creates accounts as the host does (POST accounts/password)
// in a new store file before the server opens it.
func seedAccounts(t *testing.T, path string, pws map[string]string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	done := make(chan error, len(pws))
	reg, err := accounts.OpenRegistry(accounts.RegistryOptions{DB: db, Section: accounts.Section{Attempts: 5}, KDF: &accounts.KDF{Time: 1, MemKiB: 64, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for name, pw := range pws {
		if err := reg.SetPassword(name, []byte(pw), Epoch, func(err error) { done <- err }); err != nil {
			t.Fatal(err)
		}
	}
	for range pws {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	reg.Close()
}

// A staff name cannot be taken by registering it first: whoever tries
// is refused, and the host's password is the one that logs in.
func TestStaffNamesAreTheHosts(t *testing.T) {
	done := make(chan struct{}, 16)
	db := filepath.Join(t.TempDir(), "bc.db")
	w, err := NewMatch(Options{Mode: "m", FS: accountsMission,
		Configure: func(c *server.Config) {
			c.Store.Path = db
			c.Record.Enabled = false
			c.Accounts.Enabled = true
			c.Accounts.Admins = []string{"Boss"}
		},
		Server: func(o *server.Options) {
			o.Accounts = func(ro *accounts.RegistryOptions) {
				ro.KDF = &accounts.KDF{Time: 1, MemKiB: 64, Threads: 1}
				ro.Done = func() { done <- struct{}{} }
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	fake, err := w.Join("boss")
	if err != nil {
		t.Fatal(err)
	}
	say(t, w, fake, "!register i-am-the-boss", nil)
	if p := player(w, fake); p.Account != "" || p.Role != "" || !strings.Contains(string(flat(fake.Take())), "reserved for the server's staff") {
		t.Fatalf("a stranger registered the admin's name: %q %q", p.Account, p.Role)
	}
}

func flat(ms [][]byte) []byte {
	var out []byte
	for _, m := range ms {
		out = append(out, m...)
	}
	return out
}
