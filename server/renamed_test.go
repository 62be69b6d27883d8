package server

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A host's file and environment from before the namespace rule keep
// working: [plugins.gamespy] is read as [gamespy] (a note names the new
// spelling), and what cannot be read so fails naming it.
func TestRenamedSections(t *testing.T) {
	load := func(t *testing.T, toml string) (Config, error) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "c.toml")
		if err := os.WriteFile(path, []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		return LoadConfig(path)
	}
	c, err := load(t, "[server]\nname = \"old\"\n\n  [ plugins.gamespy ]\nenabled = false\nmasters = [\"m.example\"]\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Gamespy.Enabled || !slices.Equal(c.Gamespy.Masters, []string{"m.example"}) || c.Server.Name != "old" {
		t.Fatalf("[plugins.gamespy] read as %+v", c.Gamespy)
	}
	if len(c.notes) != 1 || !strings.Contains(c.notes[0], "[plugins.gamespy] is now [gamespy]") {
		t.Fatalf("notes %q", c.notes)
	}
	if c, err := load(t, "[gamespy]\nenabled = false\n"); err != nil || c.Gamespy.Enabled || len(c.notes) != 0 {
		t.Fatalf("[gamespy]: %+v, %v, notes %q", c.Gamespy, err, c.notes)
	}
	for _, tc := range []struct{ toml, want string }{
		{"[gamespy]\nenabled = true\n[plugins.gamespy]\nenabled = false\n", "both [plugins.gamespy] and [gamespy]"},
		{"plugins.gamespy.enabled = false\n", "plugins.gamespy.enabled (now gamespy.enabled"},
		{"[plugins]\ngamespy = { enabled = false }\n", "[plugins.gamespy] is [gamespy]"},
		{"[plugins.gamespy]\nenabled = \n", "line 2"}, // the lines are the file's
		{"[plugins.gamespy]\nenabeld = false\n", "gamespy.enabeld"},
	} {
		if _, err := load(t, tc.toml); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.toml, err, tc.want)
		}
	}

	c = DefaultConfig()
	if err := applyEnv(&c, []string{"BCSERVER_PLUGINS_GAMESPY_ENABLED=false", "BCSERVER_SERVER_NAME=env"}); err != nil {
		t.Fatal(err)
	}
	if c.Gamespy.Enabled || c.Server.Name != "env" || len(c.notes) != 1 || !strings.Contains(c.notes[0], "BCSERVER_GAMESPY_ENABLED") {
		t.Fatalf("BCSERVER_PLUGINS_GAMESPY_ENABLED: enabled %v, notes %q", c.Gamespy.Enabled, c.notes)
	}
	c = DefaultConfig()
	if err := applyEnv(&c, []string{"BCSERVER_GAMESPY_ENABLED=true", "BCSERVER_PLUGINS_GAMESPY_ENABLED=false"}); err == nil || !strings.Contains(err.Error(), "keep one") {
		t.Fatalf("both spellings in the environment: %v", err)
	}
}
