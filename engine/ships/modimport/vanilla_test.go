package modimport

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The importer and the loader agree on every vanilla class: scripts
// written in the stock grammar from the embedded data import to classes
// with the same object ids, 0x20 list, ObjCreate tail and fields, and the
// same projectiles (mods.md 3.9 check 3, with generated scripts standing
// in for the stock ones the repo does not hold).
func TestImportVanillaAgrees(t *testing.T) {
	pack, err := Import(subFS(t, stockScripts(t), "scripts"), Options{Label: "stock"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ships.Load(pack.FS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want.Classes() {
		g, ok := got.Class(w.SpeciesID)
		if !ok {
			t.Errorf("species %d %s not imported", w.SpeciesID, w.Name)
			continue
		}
		compareClass(t, g, w)
	}
	if n, m := len(got.Classes()), len(want.Classes()); n != m {
		t.Errorf("%d classes imported, vanilla has %d", n, m)
	}
	for _, w := range want.Projectiles() {
		g, ok := got.Projectile(w.NetTypeID)
		if w.Script == "PositronTorpedo2" {
			// The stock table's row 13 names "Positron2", a module that
			// does not exist; PositronTorpedo2 has no row (mods.md 3.7).
			if ok {
				t.Errorf("net type 13 imported as %s", g.Script)
			}
			continue
		}
		if !ok {
			t.Errorf("projectile %s (%d) not imported", w.Script, w.NetTypeID)
			continue
		}
		a, b := *g, *w
		a.File, b.File = "", ""
		if !reflect.DeepEqual(a, b) {
			t.Errorf("projectile %s:\n got %+v\nwant %+v", w.Script, a, b)
		}
	}
	// The rows without scripts in the folder are relayed only; the
	// report names each one.
	rep := pack.Report.String()
	for _, s := range []string{"17 Freighter", "45 BorgCube", "37 Enterprise"} {
		if !slices.Contains(pack.Report.RelayOnly, s) || !strings.Contains(rep, s) {
			t.Errorf("relay-only list lacks %q: %v", s, pack.Report.RelayOnly)
		}
	}
	if !strings.Contains(rep, "torpedo row 13 names Positron2") {
		t.Errorf("report lacks the stock table's missing module:\n%s", rep)
	}
	// The only classes left out are the rows whose scripts the folder
	// lacks, each named at its row of the species table.
	for _, f := range pack.Report.Findings {
		if f.Level == LevelError && (f.File != "Multiplayer/SpeciesToShip.py" || f.Line == 0 || !strings.Contains(f.Msg, "no ships/")) {
			t.Errorf("unexpected error finding: %s", f)
		}
	}
}

func compareClass(t *testing.T, g, w *ships.Class) {
	t.Helper()
	if !reflect.DeepEqual(g.ShipData, w.ShipData) {
		t.Errorf("%s ship.json:\n got %+v\nwant %+v", w.Name, g.ShipData, w.ShipData)
	}
	if g.Power != w.Power {
		t.Errorf("%s power.json: got %+v, want %+v", w.Name, g.Power, w.Power)
	}
	if !reflect.DeepEqual(g.Entries, w.Entries) {
		t.Errorf("%s serialization:\n got %+v\nwant %+v", w.Name, g.Entries, w.Entries)
	}
	if len(g.Subsystems) != len(w.Subsystems) {
		t.Fatalf("%s: %d subsystems, want %d", w.Name, len(g.Subsystems), len(w.Subsystems))
	}
	for i := range w.Subsystems {
		gs, ws := g.Subsystems[i], w.Subsystems[i]
		if gs.Name != ws.Name || gs.IDOffset != ws.IDOffset || gs.Entry != ws.Entry || gs.Child != ws.Child || gs.MaxCondition != ws.MaxCondition {
			t.Errorf("%s subsystem %d: got %s id+%d, want %s id+%d", w.Name, i, gs.Name, gs.IDOffset, ws.Name, ws.IDOffset)
		}
		if (gs.Data == nil) != (ws.Data == nil) || gs.Data != nil && !reflect.DeepEqual(*gs.Data, *ws.Data) {
			t.Errorf("%s %s:\n got %+v\nwant %+v", w.Name, ws.Name, gs.Data, ws.Data)
		}
	}
	tail := func(c *ships.Class) []byte {
		var wr codec.Writer
		ships.AppendTail(&wr, ships.NewShip(c, codec.FirstPlayerObjectID), ships.DefaultTail())
		return wr.Bytes()
	}
	if a, b := tail(g), tail(w); !bytes.Equal(a, b) {
		t.Errorf("%s tail\n got %X\nwant %X", w.Name, a, b)
	}
}
