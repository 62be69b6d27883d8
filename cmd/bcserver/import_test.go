package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	for _, want := range []string{"16 Intrepid", "inherits from ships.Hardpoints.nebula", "151 SaoPaulo: ship script and hardpoint from the folder", `wrote the pack "Fixture Fleet 1.0"`} {
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
