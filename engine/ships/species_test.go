package ships

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// packWith copies vanilla class folders into a pack at new species
// numbers, with a species table.
func packWith(t *testing.T, tables string, classes map[string]int) fstest.MapFS {
	t.Helper()
	v := VanillaData()
	out := fstest.MapFS{"pack/tables.json": {Data: []byte(tables)}}
	for dir, species := range classes {
		for _, f := range []string{"ship.json", "subsystems.json", "serialization.json", "power.json"} {
			b, err := fs.ReadFile(v, "ships/"+dir+"/"+f)
			if err != nil {
				t.Fatal(err)
			}
			if f == "ship.json" {
				b = []byte(strings.Replace(string(b), `"species_id": 1,`, `"species_id": `+itoa(species)+`,`, 1))
			}
			out["pack/ships/"+dir+"/"+f] = &fstest.MapFile{Data: b}
		}
	}
	for _, p := range []string{"photontorpedo", "quantumtorpedo"} {
		b, _ := fs.ReadFile(v, "projectiles/"+p+".json")
		out["pack/projectiles/"+p+".json"] = &fstest.MapFile{Data: b}
	}
	return out
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// A layer with a species table is the whole ship data of its game: the
// vanilla classes below it go, its own come at its numbers (mods.md 7.3).
func TestSpeciesTablesReplaceBelow(t *testing.T) {
	const tables = `{"source":"test","species_to_ship":{"max_ships":151,"max_flyable_ships":2,"entries":[
	 {"index":0,"constant":"UNKNOWN","ship_script":"","display_name":"","icon_species":"0","side":"Neutral","class":0,"flyable":false}]},
	 "species_to_torp":{"max_torps":4,"entries":[]},"species_to_system":{"max_systems":0,"entries":[]},
	 "compiled_hashes":{"SpeciesToShip.pyc":"0x0000ABCD"}}`
	fsys := packWith(t, tables, map[string]int{"akira": 150})
	r, err := mustVanilla(t).Overlay(fsys, "pack")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Class(1); ok {
		t.Error("vanilla species 1 kept under a pack with its own table")
	}
	c, ok := r.Class(150)
	if !ok || c.Name != "Akira" {
		t.Fatalf("species 150: %v", c)
	}
	if _, ok := r.Projectile(15); ok {
		t.Error("vanilla projectile kept")
	}
	if _, ok := r.ProjectileByStem("photontorpedo"); !ok {
		t.Error("the pack's projectile is missing")
	}
	h, err := r.SpeciesTables().Hashes()
	if err != nil || h["SpeciesToShip.pyc"] != 0xABCD {
		t.Errorf("hashes %v %v", h, err)
	}
	if _, ok := r.ShipScript(150); ok {
		t.Error("species 150 has no row in the table, but a script was found")
	}
	// Vanilla alone has no tables; its class names stand in.
	if s, ok := mustVanilla(t).ShipScript(3); !ok || s != "Galaxy" {
		t.Errorf("vanilla species 3: %q", s)
	}
	// Every table the wire indexes with a byte is bounded, also in a
	// hand-written tables.json.
	for _, tt := range []struct{ from, to, want string }{
		{`"max_ships":151`, `"max_ships":300`, "max_ships 300"},
		{`"max_torps":4`, `"max_torps":100000`, "max_torps 100000"},
		{`"max_systems":0`, `"max_systems":-1`, "max_systems -1"},
	} {
		bad := packWith(t, strings.Replace(tables, tt.from, tt.to, 1), nil)
		if _, err := mustVanilla(t).Overlay(bad, "pack"); err == nil || !strings.Contains(err.Error(), "tables.json") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v", tt.to, err)
		}
	}
}
