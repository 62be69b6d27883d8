package modimport

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

var update = flag.Bool("update", false, "rewrite testdata/fixturemod-pack from the importer's output")

// goldenFiles are the pack files checked byte for byte; the stock classes
// copied from the vanilla data are checked by their species instead.
var goldenFiles = []string{
	"manifest.json", "tables.json", "report.txt",
	"ships/defiant/ship.json", "ships/defiant/subsystems.json", "ships/defiant/serialization.json", "ships/defiant/power.json",
	"ships/saopaulo/ship.json", "ships/saopaulo/serialization.json", "ships/akira/ship.json", "ships/akira/serialization.json",
	"projectiles/pulsephaser.json",
}

func importFixture(t testing.TB) *Pack {
	t.Helper()
	p, err := Import(os.DirFS(filepath.Join("testdata", "fixturemod")), Options{Label: "Fixture Fleet 1.0", Vanilla: ships.VanillaData()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The hand-written fixture mod (a new Defiant at species 150, above 127;
// the USS Sao Paulo at 151, whose hardpoint inherits the Defiant's; a new
// Intrepid at 16 whose hardpoint inherits the stock Nebula's, which the
// folder lacks; the stock Akira's hardpoint refitted, without its ship
// script; the stock CardFreighter renumbered from 16 to 31) imports to the
// expected pack.
func TestImportFixtureMod(t *testing.T) {
	p := importFixture(t)
	golden := filepath.Join("testdata", "fixturemod-pack")
	if *update {
		for _, name := range goldenFiles {
			dst := filepath.Join(golden, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, p.Files[name], 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range goldenFiles {
		want, err := os.ReadFile(filepath.Join(golden, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p.Files[name], want) {
			t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, p.Files[name])
		}
	}

	reg, err := ships.Load(p.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := reg.Class(150)
	if !ok || d.Name != "Defiant" {
		t.Fatalf("species 150: %v", d)
	}
	// Creation order gives the ids (mods.md 3.6): weapons attach to their
	// system's pointer, engines to the impulse or warp system, and the
	// non-primary sensor and bridge stay top level.
	type node struct {
		name     string
		id       int
		children []string
	}
	var top []node
	for _, e := range d.Entries {
		n := node{name: e.Name, id: d.Subsystems[e.Subsystem].IDOffset}
		for _, c := range d.Subsystems[e.Subsystem+1 : e.Subsystem+1+e.Children] {
			n.children = append(n.children, c.Name)
		}
		top = append(top, n)
	}
	want := []node{
		{"Hull", 1, nil}, {"Shield Generator", 2, nil}, {"Sensor Array", 3, nil}, {"Warp Core", 4, nil},
		{"Impulse Engines", 5, []string{"Port Impulse", "Star Impulse"}},
		{"Phasers", 6, []string{"Dorsal Phaser", "Ventral Phaser"}},
		{"Pulse Phasers", 7, []string{"Pulse Cannon 1", "Pulse Cannon 2"}},
		{"Torpedoes", 8, []string{"Forward Torpedo 1", "Forward Torpedo 2", "Aft Torpedo"}},
		{"Warp Engines", 9, []string{"Port Warp", "Star Warp"}},
		{"Engineering", 14, nil}, {"Aux Sensors", 22, nil}, {"Bridge", 23, nil},
	}
	if len(top) != len(want) {
		t.Fatalf("top level %+v", top)
	}
	for i := range want {
		if top[i].name != want[i].name || top[i].id != want[i].id || !slices.Equal(top[i].children, want[i].children) {
			t.Errorf("entry %d: %+v, want %+v", i, top[i], want[i])
		}
	}
	for name, id := range map[string]int{"Port Impulse": 10, "Port Warp": 12, "Forward Torpedo 1": 15, "Pulse Cannon 1": 18, "Ventral Phaser": 21} {
		if i, ok := d.SubsystemIndex(name); !ok || d.Subsystems[i].IDOffset != id {
			t.Errorf("%s: id offset %d, want %d", name, d.Subsystems[i].IDOffset, id)
		}
	}
	if d.CanCloak || d.HullHP != 6000 || d.Mass != 55 || d.SubsystemCount != 23 || d.ShieldHP[0] != 8000 || d.ShieldHP[4] != 4500 {
		t.Errorf("ship.json %+v", d.ShipData)
	}
	// Helper vectors are read at each call: the ventral bank's up vector
	// is the last one set before its SetOrientation (mods.md 3.4 rule 3).
	if i, _ := d.SubsystemIndex("Ventral Phaser"); d.Subsystems[i].Data.Up != [3]float32{0, 0, -1} || d.Subsystems[i].Data.Forward != [3]float32{0, 1, 0} {
		t.Errorf("ventral orientation %+v", d.Subsystems[i].Data)
	}
	if i, _ := d.SubsystemIndex("Aft Torpedo"); d.Subsystems[i].Data.Direction != [3]float32{0, -1, 0} {
		t.Errorf("aft tube direction %v", d.Subsystems[i].Data.Direction)
	}
	if i, _ := d.SubsystemIndex("Pulse Cannon 2"); d.Subsystems[i].Data.Projectile != "pulsephaser" {
		t.Errorf("cannon projectile %q", d.Subsystems[i].Data.Projectile)
	}
	if d.TorpedoAmmo[0].NetTypeID != 3 || d.TorpedoAmmo[1].Projectile != "photontorpedo" {
		t.Errorf("ammo %+v", d.TorpedoAmmo)
	}
	pp, ok := reg.ProjectileByStem("pulsephaser")
	if !ok || pp.NetTypeID != 16 || pp.ScriptNetType != 16 || pp.Damage != 250 || pp.Lifetime != 6 || *pp.BoltLength != 1.5 {
		t.Errorf("pulse phaser %+v", pp)
	}
	// The tail the loader builds for the imported class.
	var w codec.Writer
	ships.AppendTail(&w, ships.NewShip(d, codec.FirstPlayerObjectID), ships.DefaultTail())
	if got := strings.ToUpper(bytesHex(w.Bytes())); got != d.ObjCreateTailHex || len(d.ObjCreateTailHex) == 0 {
		t.Errorf("tail %s, ship.json says %s", got, d.ObjCreateTailHex)
	}

	// The Intrepid inherits from a parent the folder lacks: relayed only,
	// with the file, the line and what to do.
	if _, ok := reg.Class(16); ok {
		t.Error("species 16 has a class")
	}
	if !slices.Contains(p.Report.RelayOnly, "16 Intrepid") {
		t.Errorf("relay-only %v", p.Report.RelayOnly)
	}
	if !strings.Contains(p.Report.String(), "error: ships/Hardpoints/intrepid.py:11: class Intrepid: inherits from ships.Hardpoints.nebula, which the folder does not hold (copy ships/Hardpoints/nebula.py") {
		t.Errorf("report:\n%s", p.Report)
	}
	// Every finding has a place and says what to do.
	for _, f := range p.Report.Findings {
		if f.File == "" || f.Fix == "" {
			t.Errorf("finding without a place or a fix: %s", f)
		}
	}
	// Stock classes come from vanilla at the mod's numbers.
	if c, ok := reg.Class(31); !ok || c.Name != "CardFreighter" {
		t.Errorf("species 31: %v", c)
	}
	if c, ok := reg.Class(1); !ok || c.Name != "Akira" {
		t.Errorf("species 1: %v", c)
	}
	// Over vanilla, the pack's table holds: no stock CardFreighter at 16.
	v, _ := ships.Vanilla()
	over, err := v.Overlay(p.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := over.Class(16); ok {
		t.Error("vanilla species 16 survived under the mod's table")
	}
	if s, ok := over.ShipScript(16); !ok || s != "Intrepid" {
		t.Errorf("species 16 names %q", s)
	}
	if _, ok := over.Class(150); !ok {
		t.Error("overlay lost the Defiant")
	}
}

func bytesHex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// Importing the same folder twice gives byte-identical packs, in memory
// and on disk.
func TestImportDeterministic(t *testing.T) {
	a, b := importFixture(t), importFixture(t)
	if !maps.EqualFunc(a.Files, b.Files, bytes.Equal) {
		t.Fatal("two imports differ")
	}
	d1, d2 := t.TempDir(), t.TempDir()
	if err := a.WriteDir(d1); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteDir(d2); err != nil {
		t.Fatal(err)
	}
	for name := range a.Files {
		x, err1 := os.ReadFile(filepath.Join(d1, name))
		y, err2 := os.ReadFile(filepath.Join(d2, name))
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) || !bytes.Equal(x, a.Files[name]) {
			t.Fatalf("%s differs on disk (%v %v)", name, err1, err2)
		}
	}
	// A second write over the first replaces it; a folder that is not a
	// pack is refused.
	if err := a.WriteDir(d1); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := a.WriteDir(other); err == nil {
		t.Error("wrote into a folder that is not a pack")
	}
	if _, err := ships.Load(os.DirFS(d1), "."); err != nil {
		t.Errorf("written pack: %v", err)
	}
}

// An inheriting hardpoint is the parent's properties in the parent's
// order, the ones registered again taking the child's values, then the
// child's adds; a name added again makes no second subsystem (mods.md 3.4
// rule 5, the preferred reading), and the report says so.
func TestImportInheritingHardpoint(t *testing.T) {
	p := importFixture(t)
	reg, err := ships.Load(p.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	sp, ok := reg.Class(151)
	if !ok || sp.Name != "SaoPaulo" {
		t.Fatalf("species 151: %v", sp)
	}
	def, _ := reg.Class(150)
	if sp.SubsystemCount != def.SubsystemCount+2 || sp.HullHP != 7000 || def.HullHP != 6000 || sp.Mass != def.Mass {
		t.Fatalf("Sao Paulo: %d subsystems (Defiant %d), hull %v, mass %v", sp.SubsystemCount, def.SubsystemCount, sp.HullHP, sp.Mass)
	}
	for name, off := range map[string]int{"Hull": 1, "Ventral Phaser": 21, "Bridge": 23, "Ablative Armor": 24, "Cloaking Device": 25} {
		if i, ok := sp.SubsystemIndex(name); !ok || sp.Subsystems[i].IDOffset != off {
			t.Errorf("%s: id offset %d, want %d", name, sp.Subsystems[i].IDOffset, off)
		}
	}
	if !sp.CanCloak {
		t.Error("the parent's registered cloak, added by the child, is missing")
	}
	rep := p.Report.String()
	for _, want := range []string{
		"151 SaoPaulo: ship script and hardpoint from the folder (ships/Hardpoints/saopaulo.py, inheriting ships/Hardpoints/defiant.py)",
		`warning: ships/Hardpoints/saopaulo.py:48: class SaoPaulo: adds "Hull" again: modelled as one subsystem each (the preferred reading of mods.md 3.4 rule 5); should the game make a second one, the ids after +23 differ`,
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
}

// A folder holding a changed stock hardpoint but not the stock ship script
// models the class from the folder's hardpoint, not the vanilla data.
func TestImportHardpointOnlyStockClass(t *testing.T) {
	p := importFixture(t)
	reg, err := ships.Load(p.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := ships.Vanilla()
	stock, _ := v.Class(1)
	a, ok := reg.Class(1)
	if !ok || a.Name != "Akira" {
		t.Fatalf("species 1: %v", a)
	}
	if a.HullHP != 4500 || a.SubsystemCount != stock.SubsystemCount+1 {
		t.Fatalf("Akira: hull %v, %d subsystems (stock %v, %d)", a.HullHP, a.SubsystemCount, stock.HullHP, stock.SubsystemCount)
	}
	if i, ok := a.SubsystemIndex("Shuttle Bay"); !ok || a.Subsystems[i].IDOffset != 2 {
		t.Errorf("the refit's Shuttle Bay is not at +2")
	}
	if a.ObjCreateTailHex == stock.ObjCreateTailHex {
		t.Error("the refit has the stock tail")
	}
	if !strings.Contains(p.Report.String(), "1 Akira: hardpoint from the folder, the stock ship script's (ships/Hardpoints/akira.py)") {
		t.Errorf("report:\n%s", p.Report)
	}
	// The same folder without a species table: a pack of the changed
	// stock class alone, at its stock number, over the built-in data.
	fsys := os.DirFS(filepath.Join("testdata", "fixturemod", "scripts"))
	only := fstest.MapFS{}
	b, err := fs.ReadFile(fsys, "ships/Hardpoints/akira.py")
	if err != nil {
		t.Fatal(err)
	}
	only["ships/Hardpoints/akira.py"] = &fstest.MapFile{Data: b}
	o, err := Import(only, Options{Label: "refit", Vanilla: ships.VanillaData()})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Files[ships.TablesFile]; ok || len(o.Report.Imported) != 1 || !o.Report.Overlay {
		t.Fatalf("overlay pack: files %v\n%s", slices.Sorted(maps.Keys(o.Files)), o.Report)
	}
	over, err := v.Overlay(o.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := over.Class(1); c.HullHP != 4500 {
		t.Errorf("overlay Akira hull %v", c.HullHP)
	}
	if c, ok := over.Class(3); !ok || c.Name != "Galaxy" {
		t.Error("the overlay lost the stock Galaxy")
	}
	if _, err := Import(fstest.MapFS{"ships/Hardpoints/notes.py": &fstest.MapFile{Data: []byte("x = 1\n")}}, Options{Vanilla: ships.VanillaData()}); !errors.Is(err, ErrNoPack) {
		t.Errorf("a folder changing nothing: %v", err)
	}
}
