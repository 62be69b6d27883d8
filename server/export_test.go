package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// ExportMissions (`bcserver missions export DIR`) writes a folder the server runs as is,
// with the annotations for editors; it never overwrites without -force.
func TestMissionsExport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-missions")
	if _, err := ExportMissions(dir, false); err != nil {
		t.Fatalf("export: %v", err)
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
	if _, err := ExportMissions(dir, false); err == nil || !strings.Contains(err.Error(), "use -force") {
		t.Fatalf("second export: %v", err)
	}
	if _, err := ExportMissions(dir, true); err != nil {
		t.Fatalf("forced export: %v", err)
	}
	r := serveTest(t, func(uc *Config) { uc.Game.MissionsDir = dir })
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
	r := serveTest(t, func(uc *Config) { uc.Game.MissionsDir = dir; uc.Game.Mode = "mine" })
	a := r.join(t, "Alice")
	await(t, a, "the mode's greeting", codec.Chat{Sender: 1, Text: []byte("mine")}.AppendTo(nil), 5*time.Second)
}
