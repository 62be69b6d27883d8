package modimport

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bcserver/bcserver/engine/ships"
)

// bigMod writes a 200-class mod in the stock grammar: the stock tables'
// torpedo rows and projectiles, and 200 new ships whose hardpoints are the
// vanilla classes' in turn, each under its own name.
func bigMod(tb testing.TB, n int) fstest.MapFS {
	tb.Helper()
	base := stockScripts(tb)
	reg, err := ships.Vanilla()
	if err != nil {
		tb.Fatal(err)
	}
	classes := reg.Classes()
	out := fstest.MapFS{"scripts/Multiplayer/SpeciesToTorp.py": base["scripts/Multiplayer/SpeciesToTorp.py"]}
	for k, v := range base {
		if strings.HasPrefix(k, "scripts/Tactical/") {
			out[k] = v
		}
	}
	var tbl strings.Builder
	tbl.WriteString("import App\nUNKNOWN = 0\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&tbl, "GEN%03d = %d\n", i, i)
	}
	fmt.Fprintf(&tbl, "MAX_SHIPS = %d\nMAX_FLYABLE_SHIPS = %d\nkSpeciesTuple = (\n\t(None, 0, \"Neutral\", 0),\n", n+1, n+1)
	for i := 1; i <= n; i++ {
		c := classes[(i-1)%len(classes)]
		name := fmt.Sprintf("Gen%03d", i)
		fmt.Fprintf(&tbl, "\t(%q, %d, %q, 1),\n", name, 200+i%50, c.Faction)
		out["scripts/ships/"+name+".py"] = &fstest.MapFile{Data: []byte(shipPy(name, strings.ToLower(name), fmt.Sprintf("GEN%03d", i)))}
		out["scripts/ships/Hardpoints/"+strings.ToLower(name)+".py"] = &fstest.MapFile{Data: []byte(hardpointPy(c))}
	}
	tbl.WriteString("\t(None, 0, \"Neutral\", 1))\n")
	out["scripts/Multiplayer/SpeciesToShip.py"] = &fstest.MapFile{Data: []byte(tbl.String())}
	return out
}

// BenchmarkImport200 imports a generated 200-class mod from disk, as
// `bcserver import` does (the bound: under a second).
func BenchmarkImport200(b *testing.B) {
	dir := b.TempDir()
	for name, f := range bigMod(b, 200) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		p, err := Import(fsys, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Report.Imported) != 200 {
			b.Fatalf("%d classes imported:\n%s", len(p.Report.Imported), p.Report)
		}
	}
}

// The generated 200-class mod imports whole, and twice the same.
func TestImport200(t *testing.T) {
	if testing.Short() {
		t.Skip("a 200-class import")
	}
	fsys := subFS(t, bigMod(t, 200), "scripts")
	a, err := Import(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Report.Imported) != 200 || len(a.Report.Errors()) != 0 {
		t.Fatalf("report:\n%s", a.Report)
	}
	b, err := Import(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range a.Files {
		if string(b.Files[name]) != string(data) {
			t.Fatalf("%s differs between two imports", name)
		}
	}
}
