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

// Every key can be set from the environment; flags win over it, and it
// wins over the file.
func TestEnvPrecedence(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bc.toml")
	file := "[server]\nname = \"from file\"\nport = 22200\nmax_players = 6\n[gamespy]\nmasters = [\"a\"]\n"
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=/bin", // not ours
		"BCSERVER_SERVER_NAME=from env",
		"BCSERVER_SERVER_PORT=22300",
		"BCSERVER_GAME_COLLISION_DAMAGE=false",
		"BCSERVER_LUA_BUDGET=5ms",
		"BCSERVER_GAMESPY_MASTERS=m1.example, m2.example",
		"BCSERVER_ADMIN_TOKEN=0123456789abcdefXYZ",
		"BCSERVER_MISSION_TIME_LIMIT=10",
		"BCSERVER_MISSION_SYSTEM=Multi3",
	}
	flags := func(uc *Config) { uc.Server.Port = 22400 }
	uc, err := Load(path, env, flags)
	if err != nil {
		t.Fatal(err)
	}
	if uc.Server.Name != "from env" || uc.Server.Port != 22400 || uc.Server.MaxPlayers != 6 || uc.Game.CollisionDamage ||
		time.Duration(uc.Lua.Budget) != 5*time.Millisecond || strings.Join(uc.Gamespy.Masters, "|") != "m1.example|m2.example" ||
		uc.Admin.Token != "0123456789abcdefXYZ" || uc.Mission["time_limit"] != int64(10) || uc.Mission["system"] != "Multi3" {
		t.Fatalf("layers: %+v", uc)
	}
	if _, err := uc.Runtime(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"BCSERVER_SERVER_PORT=x", "BCSERVER_SERVER_NOPE=1", "BCSERVER_LUA_BUDGET=soon", "BCSERVER_GAME_JOIN_IN_PROGRESS=maybe"} {
		if _, err := Load(path, []string{bad}, nil); err == nil || !strings.Contains(err.Error(), strings.SplitN(bad, "=", 2)[0]) {
			t.Fatalf("%s: %v", bad, err)
		}
	}
}

// The admin API listens on a non-loopback address only with a configured
// token; the generated token is written once, 0600, and reused.
func TestAdminTokenRules(t *testing.T) {
	uc := DefaultConfig()
	uc.Admin.Listen = "0.0.0.0:8080"
	if _, err := uc.Runtime(); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("public listen without a token: %v", err)
	}
	// A token file the host wrote opens it too (a container's volume or
	// a mounted secret); an empty or short one does not.
	uc.Admin.TokenFile = filepath.Join(t.TempDir(), "admin.token")
	_ = os.WriteFile(uc.Admin.TokenFile, []byte("short\n"), 0o600)
	if _, err := uc.Runtime(); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("public listen with a short token file: %v", err)
	}
	_ = os.WriteFile(uc.Admin.TokenFile, []byte("a-host-written-token-0123\n"), 0o600)
	if _, err := uc.Runtime(); err != nil {
		t.Fatalf("public listen with a token file: %v", err)
	}
	uc.Admin.Token = "short"
	if _, err := uc.Runtime(); err == nil || !strings.Contains(err.Error(), "16") {
		t.Fatalf("short token: %v", err)
	}
	uc.Admin.Token = "a-long-enough-token-123"
	if _, err := uc.Runtime(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "tok")
	s := admin.Section{TokenFile: file}
	tok, err := s.LoadToken("", discard())
	if err != nil || len(tok) < 32 {
		t.Fatalf("generated %q %v", tok, err)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("token file %v %v", st, err)
	}
	again, err := s.LoadToken("", discard())
	if err != nil || again != tok {
		t.Fatalf("second start %q %v", again, err)
	}
}

// SIGHUP re-reads the file: the name and player limit change at once, a
// new mode waits for the end of the match, and keys that need a restart
// are named.
func TestSIGHUPReconfigures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bc.toml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("[server]\nname = \"before\"\naddress = \"127.0.0.1\"\nport = 0\n[gamespy]\nenabled = false\n")
	var s *served
	r, _ := serveWith(t, func(uc *Config) {
		loaded, err := Load(path, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		loaded.Admin.Listen, loaded.Admin.Token = "127.0.0.1:0", testToken
		*uc = loaded
		uc.Lua.stepTime = 100 * time.Nanosecond // deterministic budgets, as serveWith sets them
	}, func(x *served) { s = x })
	a := &adminRun{running: *r, s: s, base: "http://" + s.AdminAddr().String()}
	a.join(t, "Alice")
	bob := a.join(t, "Bob")
	write("[server]\nname = \"after\"\naddress = \"127.0.0.1\"\nport = 0\nmax_players = 4\nlog_level = \"debug\"\n[bans]\nnames = [\"Bob\"]\n[game]\nmode = \"team-deathmatch\"\n[gamespy]\nenabled = false\n")
	a.hangUp(t)
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; i < 10000 && time.Now().Before(deadline) && !strings.Contains(a.logs.String(), "SIGHUP: configuration applied"); i++ {
		a.do(t, func(*engine.Game) {})
	}
	logs := a.logs.String()
	if !strings.Contains(logs, `needs_restart="server.log_level`) {
		t.Fatalf("no restart notice:\n%s", logs)
	}
	st := a.status(t)
	if st.Server.Name != "after" || st.Server.MaxPlayers != 4 || st.Mission.Mode != "deathmatch" || st.Mission.PendingMode != "team-deathmatch" {
		t.Fatalf("after SIGHUP: %+v %+v", st.Server, st.Mission)
	}
	// The new [bans] entry took Bob off the server.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bob.WaitState(ctx, bot.Closed); err != nil || bob.BootReason() != bcnet.BootBanned {
		t.Fatalf("Bob after the ban: %v, boot %d", err, bob.BootReason())
	}
	// A broken file changes nothing.
	write("[server]\nname = 3\n")
	a.hangUp(t)
	for i := 0; i < 10000 && time.Now().Before(deadline) && !strings.Contains(a.logs.String(), "configuration has errors"); i++ {
		a.do(t, func(*engine.Game) {})
	}
	if st := a.status(t); st.Server.Name != "after" {
		t.Fatalf("a broken file changed the name: %q", st.Server.Name)
	}
}
