package missiontest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/plugins/accounts"
	"github.com/bcserver/bcserver/server"
)

// accountsMission keeps every chat line it sees and what it knows of the
// players; !score sets the caller's score, !end ends the match.
var accountsMission = fstest.MapFS{"m/main.lua": {Data: []byte(`
bc.storage.chat = bc.storage.chat or {}
bc.storage.who = bc.storage.who or {}
bc.on("mission_load", function() bc.set_mission { map_name = "DM", system = "Multi1" } end)
bc.on("chat", function(ev) table.insert(bc.storage.chat, ev.text) end)
bc.command("score", function(c) bc.set_score(c.player.id, 1, 0, tonumber(c.args[1])) end)
bc.command("whoami", function(c)
  local p = bc.player(c.player.id)
  table.insert(bc.storage.who, p.name .. ":" .. (p.account or "guest") .. (p.scored == false and " unscored" or ""))
end)
bc.command("end", function() bc.end_game(bc.END.ITS_JUST_OVER) end)
bc.command("rating", function(c) bc.storage.rating = bc.rating(c.player.id) end)
`)}}

// accountsMatch starts a game with accounts on (a cheap key derivation)
// and returns it with a channel that ticks after each derivation.
func accountsMatch(t *testing.T) (*Match, chan struct{}) {
	t.Helper()
	done := make(chan struct{}, 16)
	db := filepath.Join(t.TempDir(), "bc.db")
	w, err := NewMatch(Options{Mode: "m", FS: accountsMission, Record: true, Debug: true,
		Configure: func(c *server.Config) {
			c.Store.Path = db
			c.Record.Enabled = false // the match's own recorder below (Record) keeps it
			c.Accounts.Enabled = true
			c.Accounts.LoginTime = server.Duration(30 * time.Second)
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
	t.Cleanup(w.Close)
	return w, done
}

// say sends a chat line and lets the game handle it; with kdf it waits
// for the key derivation and the answer it posts back.
func say(t *testing.T, w *Match, b *Bot, text string, kdf chan struct{}) {
	t.Helper()
	if err := b.Chat(text, false); err != nil {
		t.Fatal(err)
	}
	w.Advance(100 * time.Millisecond)
	if kdf != nil {
		select {
		case <-kdf:
		case <-time.After(30 * time.Second):
			t.Fatal("no key derivation")
		}
		w.Advance(100 * time.Millisecond)
	}
}

func player(w *Match, b *Bot) *engine.Player { return w.Game.Player(b.ID()) }

// A player registers, leaves, and comes back under the same name from
// another address: he must log in to score. An impostor who does not
// log in is renamed "Name (guest)" for everyone. The password never
// appears in the log (at debug level), in what any client receives (the
// sender's echo included), in the mission's chat events, in any chat
// event a plugin sees (the console's log, the recording) or in the
// recorded match.
func TestAccountsProtectNames(t *testing.T) {
	const pw = "Hunter2-Secret"
	w, kdf := accountsMatch(t)
	var seen []string // every chat line any plugin sees (the console's log and the recorder subscribe alike)
	w.Game.On(engine.EvChat, func(ev engine.Event) { seen = append(seen, string(ev.(*engine.Chat).Text)) })
	witness, err := w.JoinFrom("Witness", netip.MustParseAddr("127.0.0.9"))
	if err != nil {
		t.Fatal(err)
	}
	alice, err := w.JoinFrom("Alice", netip.MustParseAddr("127.0.0.2"))
	if err != nil {
		t.Fatal(err)
	}
	say(t, w, alice, "!register "+pw, kdf)
	if p := player(w, alice); p.Account != "Alice" || !p.Scored() {
		t.Fatalf("after !register: account %q scored %v\n%s", p.Account, p.Scored(), w.Logs())
	}
	if err := alice.Leave(); err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)

	// Back from another address: the points do not count until the login.
	back, err := w.JoinFrom("Alice", netip.MustParseAddr("127.0.0.3"))
	if err != nil {
		t.Fatal(err)
	}
	say(t, w, back, "!whoami", nil)
	say(t, w, back, "!score 50", nil)
	if p := player(w, back); p.Score != 0 || p.Scored() || p.Account != "" {
		t.Fatalf("before !login: score %d scored %v account %q", p.Score, p.Scored(), p.Account)
	}
	say(t, w, back, "!login wrong-password", kdf)
	w.Advance(3 * time.Second)
	say(t, w, back, "!login "+pw, kdf)
	say(t, w, back, "!score 80", nil)
	say(t, w, back, "!whoami", nil)
	if p := player(w, back); p.Account != "Alice" || p.Score != 30 || p.Name != "Alice" {
		t.Fatalf("after !login: account %q score %d name %q", p.Account, p.Score, p.Name)
	}
	if err := back.Leave(); err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Second)

	// An impostor never logs in: after login_time he is "Alice (guest)"
	// on the host and in every client's player list.
	imp, err := w.JoinFrom("Alice", netip.MustParseAddr("127.0.0.4"))
	if err != nil {
		t.Fatal(err)
	}
	say(t, w, imp, "!score 40", nil)
	w.Advance(31 * time.Second)
	say(t, w, imp, "!score 45", nil)
	say(t, w, imp, "!whoami", nil)
	if p := player(w, imp); p.Name != "Alice (guest)" || p.Score != 5 || p.Account != "" {
		t.Fatalf("impostor: name %q score %d account %q\n%s", p.Name, p.Score, p.Account, w.Logs())
	}
	if n := witness.PeerName(imp.ID()); n != "Alice (guest)" {
		t.Fatalf("the witness sees the impostor as %q", n)
	}
	who := fmt.Sprint(w.Runtime.StorageGet("who"))
	if !strings.Contains(who, "Alice:guest unscored") || !strings.Contains(who, "Alice:Alice") || !strings.Contains(who, "Alice (guest):guest") {
		t.Fatalf("the mission saw %s", who)
	}
	say(t, w, witness, "hello "+strings.ToLower(pw[:3]), nil) // ordinary chat still flows
	say(t, w, imp, "!end", nil)

	// Nowhere a password.
	rec, err := w.Recording()
	if err != nil || rec == nil {
		t.Fatalf("recording: %v %v", rec, err)
	}
	recJSON, _ := json.Marshal(rec)
	places := map[string][]byte{
		"log":          []byte(w.Logs()),
		"mission chat": []byte(fmt.Sprint(w.Runtime.StorageGet("chat"))),
		"chat events":  []byte(strings.Join(seen, "\n")),
		"recording":    recJSON,
	}
	for _, b := range []*Bot{witness, alice, back, imp} {
		places["received by "+b.name] = bytes.Join(b.Take(), nil)
	}
	for where, b := range places {
		for _, secret := range []string{pw, "wrong-password"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds a password", where)
			}
		}
	}
	if !strings.Contains(string(places["chat events"]), "hello hun") || !strings.Contains(string(places["received by Witness"]), "Alice did not log in and plays as Alice (guest)") {
		t.Fatalf("chat events %q", seen)
	}
}
