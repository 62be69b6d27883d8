package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `bcserver test-missions DIR` runs the Lua tests of an exported folder,
// and a broken one fails with the test's file:line.
func TestTestMissionsCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	if code := run([]string{"missions", "export", dir}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("export failed")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"test-missions", dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "--- PASS: a phaser kill scores for the shooter") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	broken := filepath.Join(dir, "deathmatch", "broken_test.lua")
	os.WriteFile(broken, []byte("test.case(\"wrong\", function()\n  local g = test.game {}\n  test.eq(g:mission().map_name, \"XX\")\nend)\n"), 0o644)
	out.Reset()
	if code := run([]string{"test-missions", "-run", "broken", dir}, &out, &errb); code != 1 ||
		!strings.Contains(out.String(), `deathmatch/broken_test.lua:3: got "DM", want "XX"`) {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
}

// `bcserver test-missions DIR/mode` runs that mode's tests, with the
// missions folder around it (its lib/) as the root; a folder without tests
// says where they go and fails.
func TestTestMissionsOfOneMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	if code := run([]string{"missions", "export", dir}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Fatal("export failed")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"test-missions", filepath.Join(dir, "deathmatch")}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "=== deathmatch/deathmatch_test.lua") || strings.Contains(out.String(), "survival") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	empty := filepath.Join(dir, "my-mode")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(empty, "main.lua"), []byte("-- nothing yet\n"), 0o644)
	out.Reset()
	if code := run([]string{"test-missions", empty}, &out, &errb); code != 1 || !strings.Contains(out.String(), "no *_test.lua files (they go in a mode's folder") {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
}
