package world

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

// The world knows nothing of the transport or the scripts: neither it nor
// anything it imports from this module may import net or lua (the package
// doc's promise, checked here instead of by hand with go list -deps).
func TestNoNetOrLua(t *testing.T) {
	root, err := vectors.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/bcserver/bcserver/"
	// The engine package itself is above the world too (its subpackages,
	// ships among them, are leaves).
	forbidden := func(path string) bool {
		for _, top := range []string{"net", "lua", "plugins", "cmd"} {
			if path == mod+top || strings.HasPrefix(path, mod+top+"/") {
				return true
			}
		}
		return path == mod+"engine"
	}
	seen := map[string]bool{}
	queue := []string{mod + "engine/world"}
	for len(queue) > 0 && len(seen) < 100 {
		pkg := queue[0]
		queue = queue[1:]
		if seen[pkg] {
			continue
		}
		seen[pkg] = true
		dir := filepath.Join(root, strings.TrimPrefix(pkg, mod))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files in %s (%v)", pkg, dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range af.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				if !strings.HasPrefix(path, mod) {
					continue
				}
				if forbidden(path) {
					t.Errorf("%s imports %s (in %s)", pkg, path, filepath.Base(f))
				}
				queue = append(queue, path)
			}
		}
	}
}
