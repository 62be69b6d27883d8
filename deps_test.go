package bcserver

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/bcserver/bcserver"

// layers are the module's packages from the bottom up (the package doc
// draws them): a package imports only from its own layer or a lower one.
// A package belongs to the layer of the longest prefix that names it.
var layers = [][]string{
	{"codec", "config", "missions", "internal/vectors", "internal/testutil", "internal/timeq", "internal/tools", "internal/golit", "internal/background", "internal/httpserve", "internal/webui", "internal/browse"},
	{"net", "internal/lossy"},
	{"engine", "internal/bot", "internal/loadgen", "internal/skirmish"},
	{"lua", "plugins"},
	{"server"},
	{"internal/missiontest", "internal/replaytest"},
	{"cmd"},
	{""}, // this package: the map
}

// siblings are trees of one layer that must not import each other: the
// mission runtime and the plugins sit side by side on the engine's events.
var siblings = [][2]string{{"lua", "plugins"}, {"plugins", "lua"}}

// layerOf returns a package's layer and the prefix that put it there.
func layerOf(pkg string) (int, string) {
	best, bestPrefix := -1, ""
	for i, l := range layers {
		for _, p := range l {
			if (pkg == p || p == "" || strings.HasPrefix(pkg, p+"/")) && (best < 0 || len(p) > len(bestPrefix)) {
				best, bestPrefix = i, p
			}
		}
	}
	return best, bestPrefix
}

// The layering holds for every package's non-test files: codec ← net ←
// engine ← lua, plugins ← server ← cmd (what go list -deps shows, checked
// here on every test run).
func TestLayers(t *testing.T) {
	imports := moduleImports(t)
	if len(imports) < 30 {
		t.Fatalf("found %d packages: the walk is broken", len(imports))
	}
	for pkg, deps := range imports {
		from, fromTree := layerOf(pkg)
		if from < 0 {
			t.Errorf("%s is in no layer: add it to layers", pkg)
			continue
		}
		for _, dep := range deps {
			to, toTree := layerOf(dep)
			switch {
			case to > from:
				t.Errorf("%s (layer %q) imports %s from the layer above (%q)", pkg, fromTree, dep, toTree)
			case slices.Contains(siblings, [2]string{fromTree, toTree}):
				t.Errorf("%s imports %s: %s and %s stay apart", pkg, dep, fromTree, toTree)
			}
		}
	}
}

// No plugin imports another, in its code or its tests: what two plugins
// share lives in a lower package (engine/capture, engine/history,
// internal/webui, internal/browse) or travels as the engine's events, and
// the server wires them together. A plugin can then be left out, replaced
// or read alone.
func TestPluginsStandAlone(t *testing.T) {
	imports := moduleImportsOf(t, true)
	n := 0
	for pkg, deps := range imports {
		from, ok := pluginOf(pkg)
		if !ok {
			continue
		}
		n++
		for _, dep := range deps {
			if to, ok := pluginOf(dep); ok && to != from {
				t.Errorf("%s imports %s: plugins stand alone (share through a lower package or the engine's events)", pkg, dep)
			}
		}
	}
	if n < 10 {
		t.Fatalf("found %d plugin packages: the walk is broken", n)
	}
}

// pluginOf names the plugin a package belongs to (plugins/<name>/...).
func pluginOf(pkg string) (string, bool) {
	rest, ok := strings.CutPrefix(pkg, "plugins/")
	if !ok {
		return "", false
	}
	name, _, _ := strings.Cut(rest, "/")
	return name, true
}

// moduleImports maps each package of the module (its path inside the
// module) to the module packages its non-test files import.
func moduleImports(t *testing.T) map[string][]string { return moduleImportsOf(t, false) }

// moduleImportsOf is moduleImports, with the test files' imports too when
// tests is set.
func moduleImportsOf(t *testing.T, tests bool) map[string][]string {
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") && !tests {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if pkg == "." {
			pkg = ""
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], rest) {
				out[pkg] = append(out[pkg], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
