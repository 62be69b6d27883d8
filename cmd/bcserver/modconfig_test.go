package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine/checksum"
)

// fixtureMod is the importer's hand-written test mod.
var fixtureMod = filepath.Join("..", "..", "engine", "ships", "modimport", "testdata", "fixturemod")

// importFixturePack runs `bcserver import` on the fixture mod.
func importFixturePack(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fleet")
	var stdout, stderr bytes.Buffer
	if rc := run([]string{"import", "-label", "Fixture Fleet 1.0", "-messages", "kobayashi-maru", fixtureMod, out}, &stdout, &stderr); rc != 0 {
		t.Fatalf("import exit %d: %s", rc, stderr.String())
	}
	for _, want := range []string{"16 Intrepid", "inheriting hardpoint", `wrote the pack "Fixture Fleet 1.0"`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("import output lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, f := range []string{"manifest.json", "tables.json", "report.txt", "messages.json", "ships/defiant/ship.json", "projectiles/pulsephaser.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("pack lacks %s", f)
		}
	}
	return out
}

func TestImportCommand(t *testing.T) {
	importFixturePack(t)
	notPack := t.TempDir()
	os.WriteFile(filepath.Join(notPack, "keep.txt"), []byte("x"), 0o644)
	for name, tc := range map[string]struct {
		args []string
		code int
		want string
	}{
		"no args":      {[]string{"import"}, 2, "usage"},
		"missing dir":  {[]string{"import", filepath.Join(t.TempDir(), "nope"), t.TempDir()}, 1, "not a folder"},
		"no scripts":   {[]string{"import", t.TempDir(), filepath.Join(t.TempDir(), "o")}, 1, "no ships folder"},
		"not a pack":   {[]string{"import", fixtureMod, notPack}, 1, "not overwriting"},
		"bad messages": {[]string{"import", "-messages", filepath.Join(t.TempDir(), "m.json"), fixtureMod, filepath.Join(t.TempDir(), "o")}, 1, "-messages"},
	} {
		var stdout, stderr bytes.Buffer
		if rc := run(tc.args, &stdout, &stderr); rc != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: exit %d, stderr %q", name, rc, stderr.String())
		}
	}
}

func writeConfig(t *testing.T, dir, toml string) UserConfig {
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
