package modimport

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

var update = flag.Bool("update", false, "rewrite testdata/fixturemod-pack from the importer's output")

// goldenFiles are the pack files checked byte for byte; the stock classes
// copied from the vanilla data are checked by their species instead.
var goldenFiles = []string{
	"manifest.json", "tables.json", "report.txt",
	"ships/defiant/ship.json", "ships/defiant/subsystems.json", "ships/defiant/serialization.json", "ships/defiant/power.json",
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

// The hand-written fixture mod (a new Defiant at species 150, above 127; a
// new Intrepid at 16 whose hardpoint inherits the Defiant's; the stock
// CardFreighter renumbered from 16 to 31) imports to the expected pack.
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

	// The inheriting Intrepid is relayed only, with file and line.
	if _, ok := reg.Class(16); ok {
		t.Error("species 16 has a class")
	}
	if !slices.Contains(p.Report.RelayOnly, "16 Intrepid") {
		t.Errorf("relay-only %v", p.Report.RelayOnly)
	}
	if !strings.Contains(p.Report.String(), "error: ships/Hardpoints/intrepid.py:9: class Intrepid: inheriting hardpoint (parent ships.Hardpoints.defiant)") {
		t.Errorf("report:\n%s", p.Report)
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
