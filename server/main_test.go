package server

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/engine"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/internal/bot"
	"github.com/bcserver/bcserver/lua"
	bcnet "github.com/bcserver/bcserver/net"
	"github.com/bcserver/bcserver/plugins/gamespy"
)

func TestDefaultConfigIsValid(t *testing.T) {
	uc := DefaultConfig()
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	if uc.Server.Port != 22101 || rc.MaxPlayers != engine.StockMaxPlayers || rc.Password != "" || rc.BanFile != "banlist.txt" || len(rc.Bans) != 0 || rc.Mission.Script != "Multiplayer.Episode.Mission1.Mission1" ||
		rc.Validation != checksum.ModeVerified || !rc.CollisionDamage || rc.Mission.System != "Multi1" {
		t.Fatalf("defaults: %+v / %+v", uc, rc)
	}
	if gs := uc.Plugins.Gamespy; !gs.Enabled || gs.HeartbeatIdle != Duration(5*time.Minute) || gs.RateBurst != gamespy.DefaultRateBurst {
		t.Fatalf("gamespy defaults %+v", gs)
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name, toml, want string
	}{
		{"unknown key", "[server]\nnmae = \"x\"\n", "server.nmae"},
		{"unknown section", "[sever]\nname = \"x\"\n", "sever"},
		{"bad mode", "[game]\nmode = \"ctf\"\n", "game.mode"},
		{"lib is no mode", "[game]\nmode = \"lib\"\n", "game.mode"},
		{"bad missions dir", "[game]\nmissions_dir = \"/nonexistent\"\n", "game.missions_dir"},
		{"bad system", "[mission]\nsystem = \"Vulcan\"\n", "mission.system"},
		{"bad time limit", "[mission]\ntime_limit = 0\n", "mission.time_limit"},
		{"bad frag limit", "[mission]\nfrag_limit = \"five\"\n", "mission.frag_limit"},
		{"player limit moved", "[mission]\nplayer_limit = 8\n", "server.max_players"},
		{"no players", "[server]\nmax_players = 0\n", "server.max_players"},
		{"bad ban address", "[bans]\naddresses = [\"10.0.0\"]\n", "bans.addresses"},
		{"name in addresses", "[bans]\naddresses = [\"name:Bob\"]\n", "bans.addresses"},
		{"empty ban name", "[bans]\nnames = [\" \"]\n", "bans.names"},
		{"unknown bans key", "[bans]\nips = []\n", "bans.ips"},
		{"frag limit as a string", "[mission]\nfrag_limit = \"2\"\n", `mission.frag_limit = "2" (a string): want -1 (none) or 1..254`},
		{"budget over tick budget", "[lua]\nbudget = \"20ms\"\ntick_budget = \"10ms\"\n", "lua.budget 20ms is larger than lua.tick_budget 10ms"},
		{"bad size", "[lua]\nmemory_limit = \"lots\"\n", "memory_limit"},
		{"missing addon", "[game]\naddons = [\"nope\"]\n", `game.addons: built-in missions: addon "nope": no addons/nope/main.lua`},
		{"tiny memory", "[lua]\nmemory_limit = \"10KiB\"\n", "lua.memory_limit 10KiB: want at least 1MiB"},
		{"bad quirk flag", "[mission]\nstock_killer_score_quirk = 1\n", "mission.stock_killer_score_quirk"},
		{"bad watch", "[lua]\nwatch = \"inotify\"\n", "lua.watch"},
		{"unknown lua key", "[lua]\nbudgte = \"1s\"\n", "lua.budgte"},
		{"bad validation", "[checksum]\nvalidation = \"lax\"\n", "checksum.validation"},
		{"max players", "[server]\nmax_players = 17\n", "max_players"},
		{"syntax", "[server\n", "line 1"},
		{"bad duration", "[checksum]\nround_timeout = \"soon\"\n", "round_timeout"},
		{"missing manifest", "[checksum]\nmanifest = \"/nonexistent/m.json\"\n", "checksum.manifest"},
		{"log level", "[server]\nlog_level = \"loud\"\n", "server.log_level"},
		{"bad master", "[plugins.gamespy]\nmasters = [\"x:abc\"]\n", `plugins.gamespy.masters: "x:abc": bad port "abc"`},
		{"mistyped mission key", "[mission]\ntime_limt = 5\n", "unknown key(s) mission.time_limt"},
		{"a key the mode does not read", "[game]\nmode = \"deathmatch\"\n[mission]\nescort_speed = 3\n", "mission.escort_speed"},
		{"unknown spectate key", "[spectate]\nhidden = true\n", "spectate.hidden"},
		{"bad trusted proxy", "[spectate]\ntrusted_proxies = [\"proxy\"]\n", "spectate.trusted_proxies"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.toml")
			os.WriteFile(path, []byte(tt.toml), 0o644)
			uc, err := LoadConfig(path)
			if err == nil {
				_, err = uc.Runtime()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want mention of %q", err, tt.want)
			}
		})
	}
}

func TestMissingConfigIsWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bcserver.toml")
	// A missing file is an error (a mistyped -config), and nothing is
	// written; WriteDefaultConfig writes the defaults, once.
	if _, err := LoadConfig(path); !errors.Is(err, ErrNoConfig) {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("loading a missing file wrote it")
	}
	if err := WriteDefaultConfig(path); err != nil {
		t.Fatal(err)
	}
	if err := WriteDefaultConfig(path); err == nil {
		t.Fatal("the defaults written over an existing file")
	}
	if _, err := LoadConfig(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(b, defaultTOML()) {
		t.Fatalf("default not written: %v", err)
	}
	// And an edited file overrides the defaults.
	os.WriteFile(path, []byte("[server]\nname = \"My Game\"\nmax_players = 4\n[game]\nmode = \"team-deathmatch\"\n"), 0o644)
	uc, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := uc.Runtime()
	if err != nil || rc.ServerName != "My Game" || rc.MaxPlayers != 4 || uc.Game.Mode != "team-deathmatch" || uc.Server.Port != 22101 {
		t.Fatalf("%+v %v", rc, err)
	}
	// The ban file is found next to the configuration file.
	os.WriteFile(path, []byte("[server]\npassword = \"Warp9\"\nmax_players = 16\n[bans]\naddresses = [\"10.0.0.255\"]\nnames = [\"Griefer\"]\n"), 0o644)
	if uc, err = LoadConfig(path); err != nil {
		t.Fatal(err)
	}
	rc, err = uc.Runtime()
	if err != nil || rc.Password != "Warp9" || rc.MaxPlayers != 16 || rc.BanFile != filepath.Join(filepath.Dir(path), "banlist.txt") ||
		strings.Join(rc.Bans, ",") != "10.0.0.255,name:Griefer" {
		t.Fatalf("%+v %v", rc, err)
	}
}

// The default configuration, served on a loopback port, takes a bot to the
// game, answers a GameSpy query, and tells the player when it shuts down.
func TestServeDefault(t *testing.T) {
	uc := loopbackConfig()
	uc.Lua.stepTime = 100 * time.Nanosecond
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, uc, rc, slog.New(slog.DiscardHandler), func(srv *engine.Server, _ *lua.Runtime) { ready <- srv.Addr().String() })
	}()
	var addr netip.AddrPort
	select {
	case a := <-ready:
		addr = netip.MustParseAddrPort(a)
	case err := <-done:
		t.Fatal(err)
	case <-time.After(5 * time.Second):
		t.Fatal("server not ready")
	}
	b, err := bot.New(bot.Config{Server: addr, Name: "Probe"})
	if err != nil {
		t.Fatal(err)
	}
	bctx, bcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer bcancel()
	b.Start(bctx)
	if err := b.WaitState(bctx, bot.InGame); err != nil {
		t.Fatal(err)
	}
	conn, err := netListenUDP()
	if err != nil {
		t.Fatal(err)
	}
	found, err := gamespy.Discover(bctx, conn, []netip.AddrPort{addr}, 500*time.Millisecond)
	conn.Close()
	if err != nil || len(found) != 1 || found[0].Info["hostname"] != "bcserver" || found[0].Info["numplayers"] != "1" || found[0].Info["player_1"] != "Probe" {
		t.Fatalf("discover: %+v %v", found, err)
	}
	cancel() // what SIGINT does
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := b.WaitState(bctx, bot.Closed); err != nil {
		t.Fatal(err)
	}
	if !b.ServerShutDown() || b.BootReason() != bcnet.BootNone {
		t.Fatalf("shutdown: notice %v, boot reason %d", b.ServerShutDown(), b.BootReason())
	}
}

func TestSimulationConfig(t *testing.T) {
	// A mod folder adds a species on top of vanilla.
	mod := t.TempDir()
	src := "../engine/ships/data/vanilla-1.1/ships/akira"
	dst := filepath.Join(mod, "ships", "akira2")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "ship.json" {
			b = bytes.Replace(b, []byte(`"species_id": 1,`), []byte(`"species_id": 46,`), 1)
			b = bytes.Replace(b, []byte(`"name": "Akira"`), []byte(`"name": "Akira Refit"`), 1)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(path, []byte("[simulation]\ndata_folders = [\""+mod+"\"]\nintegrity = \"boot\"\nweapon_damage = false\n"), 0o644)
	uc, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := rc.Ships.Class(46); !ok || c.Name != "Akira Refit" {
		t.Fatalf("overlay class %v %v", c, ok)
	}
	if _, ok := rc.Ships.Class(1); !ok {
		t.Fatal("vanilla classes lost")
	}
	if rc.Integrity != engine.IntegrityBoot || !rc.NoWeaponDamage {
		t.Fatalf("%+v", rc)
	}
	for _, bad := range []string{"[simulation]\nintegrity = \"maybe\"\n", "[simulation]\ndata_folders = [\"/nonexistent/mod\"]\n", "[simulation]\nexplosion_radius = 20000.0\n"} {
		os.WriteFile(path, []byte(bad), 0o644)
		uc, err := LoadConfig(path)
		if err == nil {
			_, err = uc.Runtime()
		}
		if err == nil || !strings.Contains(err.Error(), "simulation.") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

// A mode's own [mission] keys pass (they are in its Lua files); a key no
// one reads is an error naming where it came from, the file or the
// environment.
func TestMissionKeysChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		toml string
		env  []string
		want string // "" for no error
	}{
		{"the server's keys", "[mission]\ntime_limit = 5\nsystem = \"Multi2\"\n", nil, ""},
		{"a mode's own key", "[game]\nmode = \"last-ship-standing\"\n[mission]\nlives = 5\n", nil, ""},
		{"arena's keys", "[game]\nmode = \"arena\"\n[mission]\nteam_size = 2\n", nil, ""},
		{"a mistyped variable", "", []string{"BCSERVER_MISSION_TIME_LIMT=5"}, "BCSERVER_MISSION_TIME_LIMT"},
		{"a variable the mode reads", "[game]\nmode = \"last-ship-standing\"\n", []string{"BCSERVER_MISSION_LIVES=2"}, ""},
		{"a game's mistyped key", "[[games]]\nport = 0\n[games.mission]\nfrag_limt = 3\n", nil, "mission.frag_limt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.toml")
			if err := os.WriteFile(path, []byte(tc.toml), 0o644); err != nil {
				t.Fatal(err)
			}
			uc, err := Load(path, tc.env, nil)
			var games []Config
			if err == nil {
				games, err = uc.games()
			}
			for _, g := range games {
				if _, gerr := g.Runtime(); gerr != nil {
					err = gerr
				}
			}
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want mention of %q", err, tc.want)
			}
		})
	}
}

// Every [mission] key of the default configuration is one the server
// reads itself, so a server started with the defaults never scans a
// mode's Lua files for its keys (checkMissionKeys' fast path, on the way
// to the first answer).
func TestDefaultMissionKeysAreTheServers(t *testing.T) {
	for k := range DefaultConfig().Mission {
		if !slices.Contains(serverMissionKeys, k) {
			t.Errorf("default [mission] key %q is not in serverMissionKeys", k)
		}
	}
}
