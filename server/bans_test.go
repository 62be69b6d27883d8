package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
)

// tryJoin starts a bot and waits until it is in the game or closed.
func (r *running) tryJoin(t *testing.T, name string) *bot.Bot {
	t.Helper()
	b, err := bot.New(bot.Config{Server: r.srv.Addr(), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Start(ctx)
	t.Cleanup(func() { b.Close(); cancel() })
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer wcancel()
	_ = b.WaitState(wctx, bot.InGame)
	return b
}

func banNames(bs []admin.Ban) string {
	var out []string
	for _, b := range bs {
		s := b.Address
		if b.Name != "" {
			s = "name:" + b.Name
		}
		if b.Fixed {
			s += "(fixed)"
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// ban and unban go through the engine's ban list: a ban boots whoever it
// matches with the stock "banned" reason, lands in the ban file, survives
// a restart of the server, and keeps the banned name out; bans from the
// configuration show but cannot be lifted.
func TestAdminBans(t *testing.T) {
	dir := t.TempDir()
	banFile := filepath.Join(dir, "banlist.txt")
	conf := func(uc *Config) {
		uc.Bans.File = banFile
		uc.Bans.Names = []string{"Fixed"}
	}
	a := serveAdmin(t, conf)
	alice := a.join(t, "Alice")
	griefer := a.join(t, "Griefer")

	for _, c := range []struct {
		body any
		want int
	}{
		{map[string]string{"reason": "nobody"}, 400},
		{map[string]string{"player": "Griefer", "name": "Griefer"}, 400},
		{map[string]string{"address": "not-an-ip"}, 400},
		{map[string]string{"address": "::1"}, 400},
		{map[string]string{"player": "Nobody"}, 404},
		{map[string]any{"name": "Griefer", "until": 3}, 400},
	} {
		if code := a.call(t, "POST", "/api/v1/ban", testToken, c.body, nil); code != c.want {
			t.Fatalf("ban %v: %d, want %d", c.body, code, c.want)
		}
	}
	var res struct {
		Banned  []admin.Ban `json:"banned"`
		Removed []string    `json:"removed_players"`
	}
	if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]string{"name": "Griefer", "reason": "spawn camping"}, &res); code != 200 ||
		len(res.Banned) != 1 || res.Banned[0].Name != "Griefer" || strings.Join(res.Removed, ",") != "Griefer" {
		t.Fatalf("ban: %d %+v", code, res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := griefer.WaitState(ctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	if griefer.BootReason() != bcnet.BootBanned {
		t.Fatalf("boot reason %d", griefer.BootReason())
	}
	if alice.State() != bot.InGame {
		t.Fatal("Alice was removed by a name ban on Griefer")
	}
	await(t, alice, "ban notice", chatFromHost("Griefer was banned by the host: spawn camping"), 5*time.Second)
	var list []admin.Ban
	if code := a.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || banNames(list) != "name:Fixed(fixed),name:Griefer" {
		t.Fatalf("bans: %d %s", code, banNames(list))
	}
	if b, err := os.ReadFile(banFile); err != nil || !strings.Contains(string(b), "name:Griefer") {
		t.Fatalf("ban file: %q %v", b, err)
	}
	// An address ban, then lifted again.
	if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]string{"address": "203.0.113.255"}, nil); code != 200 {
		t.Fatalf("address ban: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/unban", testToken, map[string]string{"address": "203.0.113.255"}, nil); code != 200 {
		t.Fatalf("unban: %d", code)
	}
	for _, c := range []struct {
		body any
		want int
	}{
		{map[string]string{"address": "203.0.113.255"}, 404},
		{map[string]string{"name": "Fixed"}, 409},
		{map[string]string{}, 400},
		{map[string]string{"name": "a", "address": "1.2.3.4"}, 400},
	} {
		if code := a.call(t, "POST", "/api/v1/unban", testToken, c.body, nil); code != c.want {
			t.Fatalf("unban %v: %d, want %d", c.body, code, c.want)
		}
	}

	// A restart keeps the ban; Griefer is refused at the door.
	a.stop()
	b := serveAdmin(t, conf)
	if code := b.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || banNames(list) != "name:Fixed(fixed),name:Griefer" {
		t.Fatalf("bans after a restart: %d %s", code, banNames(list))
	}
	again := b.tryJoin(t, "Griefer")
	if again.State() != bot.Closed || again.BootReason() != bcnet.BootBanned {
		t.Fatalf("banned name joined again: %s, boot %d", again.State(), again.BootReason())
	}
	if code := b.call(t, "POST", "/api/v1/unban", testToken, map[string]string{"name": "griefer"}, nil); code != 200 {
		t.Fatalf("unban by name, other case: %d", code)
	}
	b.join(t, "Griefer")
}

// A ban made in one game's console reaches every game of the process at
// once: the banned player is booted from the other game too, and an unban
// lets it back into both, with no SIGHUP.
func TestBanReachesEveryGame(t *testing.T) {
	a := serveAdmin(t, func(uc *Config) {
		uc.Games = []GameTable{{Port: intp(0), Name: strp("One")}, {Port: intp(0), Name: strp("Two")}}
	})
	two := a.s.games[1]
	r2 := &running{srv: two.srv, host: two.missions.current(), logs: a.logs}
	griefer := r2.join(t, "Griefer")
	if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]any{"name": "Griefer"}, nil); code != 200 {
		t.Fatalf("ban in game one: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := griefer.WaitState(ctx, bot.Closed); err != nil || griefer.BootReason() != bcnet.BootBanned {
		t.Fatalf("the player in game two: %v, boot reason %d", err, griefer.BootReason())
	}
	if b := r2.tryJoin(t, "Griefer"); b.State() == bot.InGame {
		t.Fatal("the banned name joins game two")
	}
	var list []admin.Ban
	if code := a.call(t, "GET", "/games/"+two.label+"/api/v1/bans", testToken, nil, &list); code != 200 || banNames(list) != "name:Griefer" {
		t.Fatalf("game two's bans: %d %s", code, banNames(list))
	}
	if code := a.call(t, "POST", "/games/"+two.label+"/api/v1/unban", testToken, map[string]any{"name": "Griefer"}, nil); code != 200 {
		t.Fatalf("unban in game two: %d", code)
	}
	// Game one took the unban up: its list is empty and the name joins.
	if code := a.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || len(list) != 0 {
		t.Fatalf("game one's bans after the unban in game two: %d %s", code, banNames(list))
	}
	a.join(t, "Griefer")
}
