package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/scriptmsg"
	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/engine/ships/modimport"
)

// fixtureMod is the importer's hand-written test mod.
var fixtureMod = filepath.Join("..", "engine", "ships", "modimport", "testdata", "fixturemod")

// importFixturePack imports the fixture mod into a pack, with the
// Kobayashi Maru message table, as `bcserver import -label "Fixture Fleet
// 1.0" -messages kobayashi-maru` does.
func importFixturePack(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fleet")
	importPack(t, fixtureMod, out, "Fixture Fleet 1.0")
	return out
}

// importPack writes the pack of the mod scripts in src to out.
func importPack(t *testing.T, src, out, label string) {
	t.Helper()
	pack, err := modimport.Import(os.DirFS(src), modimport.Options{Label: label, Vanilla: ships.VanillaData()})
	if err != nil {
		t.Fatal(err)
	}
	pack.Files[scriptmsg.FileName] = []byte(scriptmsg.KobayashiMaruJSON())
	if err := pack.WriteDir(out); err != nil {
		t.Fatal(err)
	}
}

func writeConfig(t *testing.T, dir, toml string) Config {
	t.Helper()
	path := filepath.Join(dir, "bcserver.toml")
	if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	uc, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	return uc
}

func TestModConfig(t *testing.T) {
	pack := importFixturePack(t)
	dir := filepath.Dir(pack)
	scripts := filepath.Join(dir, "client-scripts")
	os.MkdirAll(scripts, 0o755)
	os.WriteFile(filepath.Join(scripts, "SpeciesToShip.pyc"), []byte{0x99, 0x4E, 0x0D, 0x0A, 1, 0, 0, 0, 'm'}, 0o644)
	uc := writeConfig(t, dir, `
[mod]
packs = ["fleet"]
client_scripts = "client-scripts"

[[games]]
port = 0

[[games]]
port = 0
[games.mod]
packs = []
`)
	rc, err := uc.Runtime()
	if err != nil {
		t.Fatal(err)
	}
	if rc.Push != checksum.PushPush || rc.PushTree == nil || rc.PushTree.Files() != 1 {
		t.Fatalf("push %v, tree %v", rc.Push, rc.PushTree)
	}
	if c, ok := rc.Ships.Class(150); !ok || c.Name != "Defiant" {
		t.Fatal("the pack's Defiant is not loaded")
	}
	if _, ok := rc.Ships.Class(16); ok {
		t.Fatal("vanilla species 16 kept under the pack's table")
	}
	if rc.ScriptMessages.Lookup(205) == nil {
		t.Fatal("the pack's message table is not loaded")
	}
	games, err := uc.games()
	if err != nil || len(games) != 2 {
		t.Fatal(games, err)
	}
	if g0, _ := games[0].Runtime(); g0.PushTree == nil {
		t.Error("the first game lost the top-level [mod]")
	}
	g1, err := games[1].Runtime()
	if err != nil || g1.Push != checksum.PushOff || g1.PushTree != nil || g1.ScriptMessages != nil {
		t.Errorf("[games.mod] did not replace [mod]: %v %+v", err, g1.Push)
	}
	if g1.Ships != nil {
		t.Errorf("the second game has the pack's ship data")
	}
	// Explicitly off with client scripts: nothing pushed.
	off := writeConfig(t, dir, "[mod]\nclient_scripts = \"client-scripts\"\npush = \"off\"\n")
	if rc, err := off.Runtime(); err != nil || rc.Push != checksum.PushOff {
		t.Errorf("off: %v %v", rc.Push, err)
	}
}

func TestModConfigErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ toml, want string }{
		"push without files":   {"[mod]\npush = \"push\"\n", "mod.push"},
		"verify without a ref": {"[mod]\npush = \"verify\"\n", "mod.push"},
		"bad push":             {"[mod]\npush = \"always\"\n", "mod.push"},
		"no pack folder":       {"[mod]\npacks = [\"nope\"]\n", "mod.packs"},
		"no scripts folder":    {"[mod]\nclient_scripts = \"nope\"\n", "mod.client_scripts"},
		"no manifest":          {"[mod]\nmanifest = \"nope.json\"\n", "mod.manifest"},
		"negative limit":       {"[mod]\npush_max_files = -1\n", "must not be negative"},
		"unknown key":          {"[mod]\npack = []\n", "mod.pack"},
	} {
		path := filepath.Join(dir, "c.toml")
		os.WriteFile(path, []byte(tc.toml), 0o644)
		uc, err := LoadConfig(path)
		if err == nil {
			_, err = uc.Runtime()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
