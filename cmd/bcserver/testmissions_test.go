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
