package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/server"
)

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
	uc, err := server.LoadConfig(path)
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
