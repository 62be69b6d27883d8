package lua

import glua "github.com/yuin/gopher-lua"

// Stock data tables the missions read (missions.md 6, vectors/tables.json).

type speciesRow struct {
	index    int
	constant string
	script   string
	side     string
	class    int
	flyable  bool
}

// species is SpeciesToShip (missions.md 6.1). Row 16's stock entry is
// malformed; the intended values are used, class 1.
var species = [...]speciesRow{
	{0, "UNKNOWN", "", "Neutral", 0, false},
	{1, "AKIRA", "Akira", "Federation", 1, true},
	{2, "AMBASSADOR", "Ambassador", "Federation", 1, true},
	{3, "GALAXY", "Galaxy", "Federation", 1, true},
	{4, "NEBULA", "Nebula", "Federation", 1, true},
	{5, "SOVEREIGN", "Sovereign", "Federation", 1, true},
	{6, "BIRDOFPREY", "BirdOfPrey", "Klingon", 1, true},
	{7, "VORCHA", "Vorcha", "Klingon", 1, true},
	{8, "WARBIRD", "Warbird", "Romulan", 1, true},
	{9, "MARAUDER", "Marauder", "Ferengi", 1, true},
	{10, "GALOR", "Galor", "Cardassian", 1, true},
	{11, "KELDON", "Keldon", "Cardassian", 1, true},
	{12, "CARDHYBRID", "CardHybrid", "Cardassian", 1, true},
	{13, "KESSOKHEAVY", "KessokHeavy", "Kessok", 1, true},
	{14, "KESSOKLIGHT", "KessokLight", "Kessok", 1, true},
	{15, "SHUTTLE", "Shuttle", "Federation", 1, true},
	{16, "CARDFREIGHTER", "CardFreighter", "Cardassian", 1, false},
	{17, "FREIGHTER", "Freighter", "Federation", 1, false},
	{18, "TRANSPORT", "Transport", "Federation", 1, false},
	{19, "SPACEFACILITY", "SpaceFacility", "Federation", 1, false},
	{20, "COMMARRAY", "CommArray", "Federation", 1, false},
	{21, "COMMLIGHT", "CommLight", "Cardassian", 1, false},
	{22, "DRYDOCK", "DryDock", "Federation", 1, false},
	{23, "PROBE", "Probe", "Federation", 1, false},
	{24, "DECOY", "Decoy", "Federation", 1, false},
	{25, "SUNBUSTER", "Sunbuster", "Kessok", 1, false},
	{26, "CARDOUTPOST", "CardOutpost", "Cardassian", 1, false},
	{27, "CARDSTARBASE", "CardStarbase", "Cardassian", 1, false},
	{28, "CARDSTATION", "CardStation", "Cardassian", 1, false},
	{29, "FEDOUTPOST", "FedOutpost", "Federation", 1, false},
	{30, "FEDSTARBASE", "FedStarbase", "Federation", 1, false},
	{31, "ASTEROID", "Asteroid", "Neutral", 1, false},
	{32, "ASTEROID1", "Asteroid1", "Neutral", 1, false},
	{33, "ASTEROID2", "Asteroid2", "Neutral", 1, false},
	{34, "ASTEROID3", "Asteroid3", "Neutral", 1, false},
	{35, "AMAGON", "Amagon", "Cardassian", 1, false},
	{36, "BIRANUSTATION", "BiranuStation", "Neutral", 1, false},
	{37, "ENTERPRISE", "Enterprise", "Federation", 1, false},
	{38, "GERONIMO", "Geronimo", "Federation", 1, false},
	{39, "PEREGRINE", "Peregrine", "Federation", 1, false},
	{40, "ASTEROIDH1", "Asteroidh1", "Neutral", 1, false},
	{41, "ASTEROIDH2", "Asteroidh2", "Neutral", 1, false},
	{42, "ASTEROIDH3", "Asteroidh3", "Neutral", 1, false},
	{43, "ESCAPEPOD", "Escapepod", "Neutral", 1, false},
	{44, "KESSOKMINE", "KessokMine", "Kessok", 1, false},
	{45, "BORGCUBE", "BorgCube", "Borg", 1, false},
}

// systems is SpeciesToSystem (missions.md 6.2), index 1..9.
var systems = [...]string{"Multi1", "Multi2", "Multi3", "Multi4", "Multi5", "Multi6", "Multi7", "Albirea", "Poseidon"}

// modifier is the damage modifier [attacker class][victim class]
// (missions.md 6.4); 1.0 everywhere stock ships can meet.
var modifier = [3][3]float64{{1, 1, 1}, {1, 1, 1}, {1, 3, 1}}

// SystemIndex returns the 1-based index of a stock star system, 0 if the
// name is not one.
func SystemIndex(name string) int {
	for i, s := range systems {
		if s == name {
			return i + 1
		}
	}
	return 0
}

// Systems returns the stock star-system names in index order.
func Systems() []string { return append([]string(nil), systems[:]...) }

// speciesClass returns the class of a species, 0 for unknown ones.
func speciesClass(i int) int {
	if i <= 0 || i >= len(species) {
		return 0
	}
	return species[i].class
}

// Flyable reports whether the stock ship-select screen offers a species
// (1..15, MAX_FLYABLE_SHIPS; missions.md 6.1).
func Flyable(speciesIndex int) bool {
	return speciesIndex >= 0 && speciesIndex < len(species) && species[speciesIndex].flyable
}

// dataTables builds bc.species, bc.systems and bc.modifier.
func dataTables(L *glua.LState, bc *glua.LTable) {
	sp := L.CreateTable(len(species), 1)
	for _, r := range species {
		t := L.CreateTable(0, 6)
		t.RawSetString("index", glua.LNumber(r.index))
		t.RawSetString("constant", glua.LString(r.constant))
		if r.script != "" {
			t.RawSetString("script", glua.LString(r.script))
		}
		t.RawSetString("side", glua.LString(r.side))
		t.RawSetString("class", glua.LNumber(r.class))
		t.RawSetString("flyable", glua.LBool(r.flyable))
		sp.RawSetInt(r.index, t)
	}
	bc.RawSetString("species", sp)
	sy := L.CreateTable(len(systems), 0)
	for _, s := range systems {
		sy.Append(glua.LString(s))
	}
	bc.RawSetString("systems", sy)
	mod := L.CreateTable(3, 0)
	for a := range modifier {
		row := L.CreateTable(3, 0)
		for v := range modifier[a] {
			row.RawSetInt(v, glua.LNumber(modifier[a][v]))
		}
		mod.RawSetInt(a, row)
	}
	bc.RawSetString("modifier", mod)
}
