package vectors

import (
	"os"
	"path/filepath"
	"testing"
)

// The repo's copies must equal the shared reference folder when it is
// present (maintainers' machines); a bare clone skips. Run `make
// sync-shared` to refresh them.
func TestCopiesMatchShared(t *testing.T) {
	shared, ok := SharedDir()
	if !ok {
		t.Skip("no shared reference folder beside the module: nothing to compare")
	}
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Copies() {
		lines, err := Drift(root, shared, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lines {
			t.Errorf("%s (run make sync-shared)", l)
		}
	}
}

func TestDriftAndSync(t *testing.T) {
	root, shared := t.TempDir(), t.TempDir()
	write := func(dir, rel, s string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(shared, "vectors/a.json", "A")
	write(shared, "vectors/sub/b.json", "B")
	write(shared, "one.json", "1")
	write(root, "testdata/v/a.json", "old")
	write(root, "testdata/v/gone.json", "x")
	dirCopy := Copy{Shared: "vectors", Repo: "testdata/v"}
	fileCopy := Copy{Shared: "one.json", Repo: "pkg/one.json"}

	tests := []struct {
		c    Copy
		want int
	}{{dirCopy, 3}, {fileCopy, 1}}
	for _, tt := range tests {
		lines, err := Drift(root, shared, tt.c)
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != tt.want {
			t.Errorf("%v: drift %q, want %d lines", tt.c, lines, tt.want)
		}
		if _, err := Sync(root, shared, tt.c); err != nil {
			t.Fatal(err)
		}
		if lines, err := Drift(root, shared, tt.c); err != nil || len(lines) != 0 {
			t.Errorf("%v after sync: %q, %v", tt.c, lines, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "testdata/v/gone.json")); !os.IsNotExist(err) {
		t.Errorf("stale copy not removed: %v", err)
	}
}
