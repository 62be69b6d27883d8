package modimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
)

// vanillaSet is the embedded stock data, for the rows and torpedo types
// whose scripts the folder lacks.
type vanillaSet struct {
	fsys         fs.FS
	classByName  map[string]string // lower-case class name -> folder
	projByScript map[string]string // lower-case script -> file stem
	// classes are the stock classes by species, for a folder without a
	// species table.
	classes map[int]ships.ShipData
}

func loadVanillaSet(fsys fs.FS) (*vanillaSet, error) {
	var man struct {
		Ships       []string `json:"ships"`
		Projectiles []string `json:"projectiles"`
	}
	if err := readJSONFile(fsys, "manifest.json", &man); err != nil {
		return nil, err
	}
	v := &vanillaSet{fsys: fsys, classByName: map[string]string{}, projByScript: map[string]string{}, classes: map[int]ships.ShipData{}}
	for _, dir := range man.Ships {
		var s ships.ShipData
		if err := readJSONFile(fsys, path.Join("ships", dir, "ship.json"), &s); err != nil {
			return nil, err
		}
		v.classByName[asciiLower(s.Name)] = dir
		v.classes[s.SpeciesID] = s
	}
	for _, stem := range man.Projectiles {
		var p ships.Projectile
		if err := readJSONFile(fsys, path.Join("projectiles", stem+".json"), &p); err != nil {
			return nil, err
		}
		v.projByScript[asciiLower(p.Script)] = stem
	}
	return v, nil
}

func readJSONFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// shipTable is a species table of the stock classes the data models, at
// their stock numbers: the rows of a folder that has no table of its own.
func (v *vanillaSet) shipTable() ships.ShipTable {
	t := ships.ShipTable{}
	for _, sp := range slices.Sorted(maps.Keys(v.classes)) {
		c := v.classes[sp]
		t.Entries = append(t.Entries, ships.ShipRow{Index: sp, ShipScript: c.Name, Side: c.Faction})
		t.MaxShips = max(t.MaxShips, sp+1)
	}
	t.MaxFlyableShips = t.MaxShips
	return t
}

// has reports whether the stock data models a class of this name.
func (v *vanillaSet) has(name string) bool {
	if v == nil {
		return false
	}
	_, ok := v.classByName[asciiLower(name)]
	return ok
}

// classByHardpoint names the stock class whose hardpoint file is stem.
func (v *vanillaSet) classByHardpoint(stem string) (string, bool) {
	if v == nil {
		return "", false
	}
	for name := range v.classByName {
		if stockHardpoint(name) == asciiLower(stem) {
			return name, true
		}
	}
	return "", false
}

// stockFiles are the stock ship scripts and hardpoints (lower case, no
// extension), from the stock install's checksum manifest (round 2 hashes
// scripts/ships with its Hardpoints folder).
var stockFiles = sync.OnceValues(func() (map[string]bool, map[string]bool) {
	shipsSet, hardpoints := map[string]bool{}, map[string]bool{}
	m, err := checksum.Vanilla()
	if err != nil {
		return shipsSet, hardpoints
	}
	for _, d := range m.Directories {
		if !strings.EqualFold(d.Path, "scripts/ships") {
			continue
		}
		for _, f := range d.Tree.Files {
			shipsSet[strings.TrimSuffix(asciiLower(f.Filename), ".pyc")] = true
		}
		for _, sd := range d.Tree.Subdirs {
			if strings.EqualFold(sd.Name, "Hardpoints") {
				for _, f := range sd.Tree.Files {
					hardpoints[strings.TrimSuffix(asciiLower(f.Filename), ".pyc")] = true
				}
			}
		}
	}
	return shipsSet, hardpoints
})

// isStockShip reports whether every stock install has ships/<name>.py.
func isStockShip(name string) bool {
	s, _ := stockFiles()
	return s[asciiLower(name)]
}

// stockHardpoint is the HardpointFile of a stock ship script: its name in
// lower case, except the Decoy's, which loads probe2 [inferred: the stock
// Hardpoints folder has probe2 and no decoy].
func stockHardpoint(name string) string {
	n := asciiLower(name)
	if n == "decoy" {
		return "probe2"
	}
	return n
}

// torpTable rebuilds the stock SpeciesToTorp rows from the vanilla
// projectiles (a mod folder without the table keeps the stock one).
func (v *vanillaSet) torpTable() ships.TorpTable {
	var t ships.TorpTable
	byNet := map[int]string{}
	for script, stem := range v.projByScript {
		if p, ok := v.projectile(script); ok {
			byNet[p.NetTypeID] = stem
			t.MaxTorps = max(t.MaxTorps, p.NetTypeID+1)
		}
	}
	for i := 0; i < t.MaxTorps; i++ {
		row := ships.TorpRow{Index: i}
		if stem, ok := byNet[i]; ok {
			p, _ := v.projectileByStem(stem)
			row.Script = p.Script
		}
		t.Entries = append(t.Entries, row)
	}
	return t
}

func (v *vanillaSet) projectileByStem(stem string) (*ships.Projectile, bool) {
	var p ships.Projectile
	if err := readJSONFile(v.fsys, path.Join("projectiles", stem+".json"), &p); err != nil {
		return nil, false
	}
	return &p, true
}

// projectile returns a copy of the stock projectile with this script.
func (v *vanillaSet) projectile(script string) (*ships.Projectile, bool) {
	if v == nil {
		return nil, false
	}
	stem, ok := v.projByScript[asciiLower(script)]
	if !ok {
		return nil, false
	}
	return v.projectileByStem(stem)
}

// class copies the stock class named name to row's species, its
// projectile references resolved against the pack's table. The notes
// are the references the pack's table lacks.
func (v *vanillaSet) class(row ships.ShipRow, name string, resolve func(string) (projInfo, bool)) (*encodedClass, []string, bool) {
	if v == nil {
		return nil, nil, false
	}
	dir, ok := v.classByName[asciiLower(name)]
	if !ok {
		return nil, nil, false
	}
	var notes []string
	read := func(name string) []byte {
		b, err := fs.ReadFile(v.fsys, path.Join("ships", dir, name))
		if err != nil {
			notes = append(notes, err.Error())
		}
		return b
	}
	var s ships.ShipData
	if err := json.Unmarshal(read("ship.json"), &s); err != nil {
		return nil, nil, false
	}
	s.SpeciesID, s.Faction = row.Index, row.Side
	for i := range s.TorpedoAmmo {
		a := &s.TorpedoAmmo[i]
		if p, ok := resolve(a.Script); ok {
			a.Projectile, a.NetTypeID = p.stem, p.netType
		} else {
			notes = append(notes, fmt.Sprintf("torpedo type %d (%s) is not in the pack's torpedo table", i, a.Script))
			a.Projectile, a.NetTypeID = "", 0
		}
	}
	subsRaw := read("subsystems.json")
	var subs []ships.SubsystemData
	if err := json.Unmarshal(subsRaw, &subs); err != nil {
		return nil, nil, false
	}
	changed := false
	for i := range subs {
		d := &subs[i]
		if d.ModuleName == "" {
			continue
		}
		stem := ""
		if p, ok := resolve(d.ModuleName); ok {
			stem = p.stem
		} else {
			notes = append(notes, fmt.Sprintf("%q fires %s, which is not in the pack's torpedo table", d.Name, d.ModuleName))
		}
		if stem != d.Projectile {
			d.Projectile, changed = stem, true
		}
	}
	if changed {
		var buf bytes.Buffer
		b, err := encodeFile(subs)
		if err != nil {
			return nil, nil, false
		}
		buf.Write(b)
		subsRaw = buf.Bytes()
	}
	return &encodedClass{species: row.Index, shipData: &s, other: map[string][]byte{
		"subsystems.json": subsRaw, "serialization.json": read("serialization.json"), "power.json": read("power.json"),
	}}, notes, true
}
