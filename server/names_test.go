package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/internal/bot"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/admin"
)

// A hostile name never becomes structure (issue 21): players join over
// real UDP with a line break or a bidi override in their names, are
// renamed at admission, and are banned by name through the API; the ban
// file then holds exactly one line per ban, survives a SIGHUP and a
// restart, and still lets everyone else in. The API refuses (422) a name
// no line can hold and, without force, a ban that locks everyone out.
func TestHostileNamesBanFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bc.toml")
	banFile := filepath.Join(dir, "banlist.txt")
	conf := "[server]\nname = \"hostile\"\naddress = \"127.0.0.1\"\nport = 0\n[bans]\nfile = \"" + banFile + "\"\n[gamespy]\nenabled = false\n"
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	start := func() *adminRun {
		var s *served
		r, stop := serveWith(t, func(uc *Config) {
			loaded, err := Load(path, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			loaded.Admin.Listen, loaded.Admin.Token = "127.0.0.1:0", testToken
			*uc = loaded
			uc.Lua.stepTime = 100 * time.Nanosecond // deterministic budgets, as serveWith sets them
		}, func(x *served) { s = x })
		return &adminRun{running: *r, s: s, base: "http://" + s.AdminAddr().String(), stop: stop}
	}
	a := start()
	hostile := []struct{ name, clean string }{
		{"Griefer\n255.255.255.255", "Griefer 255.255.255.255"},
		{"Grief\nnot-an-ip", "Grief not-an-ip"},
		{"evil\u202Eexe.txt", "evil exe.txt"},
		{"\u2066\u2069x\u2028y", "x y"},
	}
	for _, h := range hostile {
		b := a.join(t, h.name)
		if b.Name() != h.clean || !b.Settings().NameChanged {
			t.Fatalf("%q joined as %q (renamed %v), want %q", h.name, b.Name(), b.Settings().NameChanged, h.clean)
		}
		var ps []admin.PlayerInfo
		a.call(t, "GET", "/api/v1/players", testToken, nil, &ps)
		found := false
		for _, p := range ps {
			found = found || p.Name == h.clean
			if strings.ContainsAny(p.Name, "\n\u202E\u2066\u2028") {
				t.Fatalf("player list holds %q", p.Name)
			}
		}
		if !found {
			t.Fatalf("%q not in the player list %+v", h.clean, ps)
		}
		if code := a.call(t, "POST", "/api/v1/ban", testToken, map[string]string{"name": h.clean}, nil); code != 200 {
			t.Fatalf("ban %q: %d", h.clean, code)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := b.WaitState(ctx, bot.Closed)
		cancel()
		if err != nil || b.BootReason() != bcnet.BootBanned {
			t.Fatalf("%q after its ban: %v, boot %d", h.clean, err, b.BootReason())
		}
	}
	for _, c := range []struct {
		body any
		want int
	}{
		{map[string]string{"name": "a\n10.9.9.9"}, 422},
		{map[string]string{"name": "Grief\nnot-an-ip"}, 422},
		{map[string]string{"name": "x\u202Ey"}, 422},
		{map[string]string{"address": "255.255.255.255"}, 422},
		{map[string]string{"address": "0.0.0.0"}, 422},
		{map[string]string{"address": "127.0.0.1"}, 422},
		{map[string]any{"address": "255.0.0.7", "force": true}, 200},
	} {
		if code := a.call(t, "POST", "/api/v1/ban", testToken, c.body, nil); code != c.want {
			t.Fatalf("ban %q: %d, want %d", c.body, code, c.want)
		}
	}
	if code := a.call(t, "POST", "/api/v1/unban", testToken, map[string]string{"name": "a\n10.9.9.9"}, nil); code != 422 {
		t.Fatalf("unban of a hostile name: %d", code)
	}
	if code := a.call(t, "POST", "/api/v1/unban", testToken, map[string]string{"address": "255.0.0.7"}, nil); code != 200 {
		t.Fatalf("unban 255.0.0.7: %d", code)
	}
	want := "name:Griefer 255.255.255.255,name:Grief not-an-ip,name:evil exe.txt,name:x y"
	entries := func() string {
		data, err := os.ReadFile(banFile)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				out = append(out, l)
			}
		}
		return strings.Join(out, ",")
	}
	if got := entries(); got != want {
		t.Fatalf("ban file entries %s\nwant %s", got, want)
	}
	check := func(a *adminRun, when string) {
		t.Helper()
		var list []admin.Ban
		if code := a.call(t, "GET", "/api/v1/bans", testToken, nil, &list); code != 200 || banNames(list) != want {
			t.Fatalf("%s: bans %d %s", when, code, banNames(list))
		}
		if got := entries(); got != want {
			t.Fatalf("%s: ban file entries %s", when, got)
		}
		// Nobody else is locked out; a banned name stays out however it
		// is dressed up.
		a.join(t, "Alice")
		if b := a.tryJoin(t, "Grief\nnot-an-ip"); b.State() != bot.Closed || b.BootReason() != bcnet.BootBanned {
			t.Fatalf("%s: banned name joined: %s boot %d", when, b.State(), b.BootReason())
		}
	}
	before := strings.Count(a.logs.String(), "SIGHUP: configuration applied")
	a.hangUp(t)
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; i < 10000 && time.Now().Before(deadline) && strings.Count(a.logs.String(), "SIGHUP: configuration applied") == before; i++ {
		a.do(t, func(*engine.Game) {})
	}
	if strings.Count(a.logs.String(), "SIGHUP: configuration applied") == before {
		t.Fatalf("SIGHUP not applied:\n%s", a.logs.String())
	}
	check(a, "after SIGHUP")
	a.stop()
	check(start(), "after a restart")
}
