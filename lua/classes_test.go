package lua_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/lua"
)

// An unknown class names the call and the field, says what was asked for,
// suggests near names and lists the classes there are; bc.ship_classes()
// lists them for a mission.
func TestUnknownClassListsTheClasses(t *testing.T) {
	_, err := open(t, `bc.on("mission_start", function() bc.create_ship { class = "Starbase" } end)`, lua.Options{}, nil)
	want := `m/main.lua:1: bc.create_ship: class: no ship class "Starbase" (did you mean CardStarbase or FedStarbase? the classes are Akira, Ambassador, Galaxy,`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "FedStarbase; bc.ship_classes() lists them)") ||
		strings.Contains(err.Error(), "bad argument") {
		t.Fatalf("%v\nwant %q", err, want)
	}
	for _, tc := range []struct{ src, want string }{
		{`bc.create_ship { class = 99 }`, "bc.create_ship: class: no ship class with species index 99 (the classes are"},
		{`bc.create_ship { name = "x" }`, "bc.create_ship: class: want a class name or a species index, got a nil value"},
		{`bc.ship_class("Enterprize")`, `bc.ship_class: no ship class "Enterprize" (the classes are`},
	} {
		if _, err := open(t, tc.src, lua.Options{}, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
	e := mustOpen(t, `
		local n, flyable, last = 0, 0, 0
		local all = bc.ship_classes()
		for i, c in ipairs(all) do
			-- A list in species order (as documented), not keyed by species.
			assert(c.species > last, "not in species order at " .. i)
			last = c.species
			n = n + 1
			if c.flyable then flyable = flyable + 1 end
			assert(c.species and c.radius and c.hull and c.faction, c.name)
		end
		bc.storage.n, bc.storage.flyable = n, flyable
		bc.storage.length, bc.storage.first = #all, all[1].name
		bc.storage.galor = bc.ship_class("galor").flyable
		bc.storage.base = bc.ship_class("FedStarbase").flyable
	`, lua.Options{}, nil)
	st := e.host.Storage()
	if st.Get("n") != 23.0 || st.Get("length") != 23.0 || st.Get("first") != "Akira" || st.Get("flyable") != 15.0 || st.Get("galor") != true || st.Get("base") != false {
		t.Fatalf("%+v", *st)
	}
}

// docs/lua-api.md lists every ship class of the built-in data, with its
// species index and whether a player may pick it.
func TestShipClassesDocumented(t *testing.T) {
	docs, err := os.ReadFile("../docs/lua-api.md")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := ships.Vanilla()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range reg.Classes() {
		fly := "no"
		if lua.Flyable(c.SpeciesID) {
			fly = "yes"
		}
		row := "| " + strconv.Itoa(c.SpeciesID) + " | `" + c.Name + "` | " + c.Faction + " | " + fly + " |"
		if !strings.Contains(string(docs), row) {
			t.Errorf("docs/lua-api.md lacks the row %q", row)
		}
	}
}
