package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// `bcserver missions export DIR` writes a folder the server runs as is,
// with the annotations for editors; it never overwrites without -force.
func TestMissionsExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-missions")
	var out, errb bytes.Buffer
	if code := run([]string{"missions", "export", dir}, &out, &errb); code != 0 {
		t.Fatalf("export: %d %s", code, errb.String())
	}
	for _, f := range []string{"deathmatch/main.lua", "lib/stock.lua", "lib/README.md", "last-ship-standing/README.md", "types/bc.lua", "types/test.lua", ".luarc.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not exported: %v", f, err)
		}
	}
	// The editor knows both globals: missions' bc and test files' test.
	if b, err := os.ReadFile(filepath.Join(dir, ".luarc.json")); err != nil || !strings.Contains(string(b), `"diagnostics.globals": ["bc", "test"]`) {
		t.Errorf(".luarc.json: %s %v", b, err)
	}
	errb.Reset()
	if code := run([]string{"missions", "export", dir}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "use -force") {
		t.Fatalf("second export: %d %s", code, errb.String())
	}
	if code := run([]string{"missions", "export", "-force", dir}, &out, &errb); code != 0 {
		t.Fatalf("forced export: %d", code)
	}
	r := serveTest(t, func(uc *UserConfig) { uc.Game.MissionsDir = dir })
	a := r.join(t, "Alice")
	await(t, a, "MISSION_INIT", []byte{0x35, 8, 1, 0xff, 0xff}, 5*time.Second)
}

// A missions folder of one's own still has the built-in lib/: the mode
// the tutorial starts from requires "stock" and need not copy it.
func TestOwnMissionsDirKeepsBuiltinLib(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `local stock = require("stock")
local mode = stock.mode { script = "Multiplayer.Episode.Mission1.Mission1", map_name = "MINE" }
function mode.victim(ship) return ship.is_player_ship and ship.owner_id or nil end
function mode.kill(K, V, kills) return kills + 1 end
function mode.check_limits() end
stock.install(mode)
bc.on("player_in_game", function(ev) bc.send(ev.player.id, bc.msg.chat { sender = bc.host_id, text = "mine" }) end)
`
	if err := os.WriteFile(filepath.Join(dir, "mine", "main.lua"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := serveTest(t, func(uc *UserConfig) { uc.Game.MissionsDir = dir; uc.Game.Mode = "mine" })
	a := r.join(t, "Alice")
	await(t, a, "the mode's greeting", codec.Chat{Sender: 1, Text: []byte("mine")}.AppendTo(nil), 5*time.Second)
}

// A relative missions_dir is found next to the config file, not in the
// working directory; -missions-dir overrides it.
func TestMissionsDirPaths(t *testing.T) {
	cfgDir := t.TempDir()
	if code := run([]string{"missions", "export", filepath.Join(cfgDir, "modes")}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("export failed")
	}
	path := filepath.Join(cfgDir, "server.toml")
	if err := os.WriteFile(path, []byte("[game]\nmissions_dir = \"modes\"\naddons = [\"motd\"]\n[lua]\nstorage_dir = \"state\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uc, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if uc.Game.MissionsDir != filepath.Join(cfgDir, "modes") || uc.Lua.StorageDir != filepath.Join(cfgDir, "state") {
		t.Fatalf("missions_dir %q storage_dir %q", uc.Game.MissionsDir, uc.Lua.StorageDir)
	}
	if _, err := uc.Runtime(); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	other := t.TempDir()
	if code := run([]string{"-config", path, "-missions-dir", other}, &bytes.Buffer{}, &errb); code != 1 || !strings.Contains(errb.String(), other) {
		t.Fatalf("-missions-dir: %d %s", code, errb.String())
	}
}
