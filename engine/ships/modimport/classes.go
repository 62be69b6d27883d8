package modimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/bcserver/bcserver/engine/ships"
)

// encodedClass is one class on its way into the pack: its ship.json as an
// ordered object (imported) or as the loader's struct (from vanilla), and
// the other three files encoded.
type encodedClass struct {
	species  int
	shipObj  object
	shipData *ships.ShipData
	other    map[string][]byte
}

func (e *encodedClass) setField(key string, v any) error {
	for i := range e.shipObj {
		if e.shipObj[i].k == key {
			e.shipObj[i].v = v
			return nil
		}
	}
	return fmt.Errorf("ship.json has no %s", key)
}

func (e *encodedClass) setName(n string) error {
	if e.shipData != nil {
		e.shipData.Name = n
		return nil
	}
	return e.setField("name", n)
}

func (e *encodedClass) setTail(h string) error {
	if e.shipData != nil {
		e.shipData.ObjCreateTailHex = h
		return nil
	}
	return e.setField("objcreate_tail_full_health_hex", h)
}

func (e *encodedClass) encode() (map[string][]byte, error) {
	out := make(map[string][]byte, 4)
	var ship any = e.shipObj
	if e.shipData != nil {
		ship = e.shipData
	}
	b, err := encodeFile(ship)
	if err != nil {
		return nil, err
	}
	out["ship.json"] = b
	for k, v := range e.other {
		out[k] = v
	}
	return out, nil
}

// importClass reads row's ship script and hardpoint; ok is false when the
// class is relay-only (the reasons are in the report). from is "vanilla"
// for a class copied from the stock data.
func (im *importer) importClass(row ships.ShipRow) (*encodedClass, string, bool) {
	stored, ok := im.src.module("ships." + row.ShipScript)
	if !ok {
		if vc, notes, ok := im.vanilla.class(row, im.projectile); ok {
			for _, n := range notes {
				im.rep.add(LevelWarning, "", 0, row.ShipScript, "%s", n)
			}
			im.rep.add(LevelNote, "", 0, row.ShipScript, "species %d: no ships/%s.py, the stock class from the vanilla data", row.Index, row.ShipScript)
			return vc, "vanilla", true
		}
		im.rep.add(LevelError, "", 0, row.ShipScript, "species %d: no ships/%s.py: clients build an empty hull, the server relays it (mods.md 4.2)", row.Index, row.ShipScript)
		return nil, "", false
	}
	stats, err := readShipScript(im.src, stored, tableConsts(im.shipMod))
	if err != nil {
		im.rep.add(LevelError, stored, 0, row.ShipScript, "ship script not read: %v", err)
		return nil, "", false
	}
	if stats.hasSpecies && stats.species != row.Index {
		// Objects made by loadspacehelper get the script's value (mods.md 3.2).
		im.rep.add(LevelWarning, stored, stats.line, row.ShipScript, "\"Species\" is %d (%s), the table row is %d", stats.species, stats.speciesSource, row.Index)
	}
	// KM's receiver path prefers NormalHP (mods.md 3.2).
	stem := stats.hardpoint
	if stats.normalHP != "" {
		stem = stats.normalHP
	}
	b, ok := im.buildHardpoint(row, stem)
	if !ok {
		return nil, "", false
	}
	if stats.normalHP != "" && !strings.EqualFold(stats.normalHP, stats.hardpoint) {
		owner, ok := im.buildHardpoint(row, stats.hardpoint)
		if !ok || !sameSubsystems(b, owner) {
			im.rep.add(LevelError, stored, stats.line, row.ShipScript,
				"NormalHP %s and HardpointFile %s give different subsystem lists: owner and receivers would build different ships", stats.normalHP, stats.hardpoint)
			return nil, "", false
		}
	}
	f := b.files()
	im.rep.Findings = append(im.rep.Findings, classFindings(b.warns, row.ShipScript)...)
	e := &encodedClass{species: row.Index, shipObj: f.ship, other: map[string][]byte{}}
	for name, v := range map[string]any{"subsystems.json": f.subsystems, "serialization.json": f.serial, "power.json": f.power} {
		enc, err := encodeFile(v)
		if err != nil {
			im.rep.add(LevelError, stored, 0, row.ShipScript, "encoding %s: %v", name, err)
			return nil, "", false
		}
		e.other[name] = enc
	}
	return e, "", true
}

func classFindings(fs []Finding, class string) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.Class = class
		out[i] = f
	}
	return out
}

// buildHardpoint reads ships/Hardpoints/<stem>.py and creates its
// subsystems; ok is false when the class must be relay-only.
func (im *importer) buildHardpoint(row ships.ShipRow, stem string) (*builder, bool) {
	stored, ok := im.src.module("ships.Hardpoints." + stem)
	if !ok {
		im.rep.add(LevelError, "", 0, row.ShipScript, "no ships/Hardpoints/%s.py: clients build the model without subsystems (mods.md 4.2)", stem)
		return nil, false
	}
	h, err := readHardpoint(im.src, stored)
	if err != nil {
		im.rep.add(LevelError, stored, 0, row.ShipScript, "hardpoint not read: %v", err)
		return nil, false
	}
	if h.parent != "" {
		// Whether a re-registered name replaces the parent's template, and
		// whether a second add makes a second subsystem, is open (mods.md
		// 3.4 rule 5, 9 question 9).
		im.rep.add(LevelError, stored, h.parentLine, row.ShipScript,
			"inheriting hardpoint (parent %s): relayed without a model until the stock rules for inheritance are known", h.parent)
		return nil, false
	}
	b := &builder{h: h, row: row, project: im.projectile}
	b.create()
	im.rep.Findings = append(im.rep.Findings, classFindings(h.warnings, row.ShipScript)...)
	bad := append(classFindings(h.unsupported, row.ShipScript), classFindings(b.bad, row.ShipScript)...)
	if len(bad) > 0 {
		im.rep.Findings = append(im.rep.Findings, bad...)
		return nil, false
	}
	return b, true
}

// sameSubsystems reports whether two hardpoints create the same subsystem
// list (names, kinds, parents, in order).
func sameSubsystems(a, b *builder) bool {
	key := func(x *builder) []string {
		var out []string
		for _, s := range x.subs {
			parent := ""
			if s.parent != nil {
				parent = s.parent.p.name
			}
			out = append(out, s.p.name+"|"+s.kind+"|"+parent)
		}
		return out
	}
	return slices.Equal(key(a), key(b))
}

// vanillaSet is the embedded stock data, for the rows and torpedo types
// whose scripts the folder lacks.
type vanillaSet struct {
	fsys         fs.FS
	classByName  map[string]string // lower-case class name -> folder
	projByScript map[string]string // lower-case script -> file stem
}

func loadVanillaSet(fsys fs.FS) (*vanillaSet, error) {
	var man struct {
		Ships       []string `json:"ships"`
		Projectiles []string `json:"projectiles"`
	}
	if err := readJSONFile(fsys, "manifest.json", &man); err != nil {
		return nil, err
	}
	v := &vanillaSet{fsys: fsys, classByName: map[string]string{}, projByScript: map[string]string{}}
	for _, dir := range man.Ships {
		var s ships.ShipData
		if err := readJSONFile(fsys, path.Join("ships", dir, "ship.json"), &s); err != nil {
			return nil, err
		}
		v.classByName[strings.ToLower(s.Name)] = dir
	}
	for _, stem := range man.Projectiles {
		var p ships.Projectile
		if err := readJSONFile(fsys, path.Join("projectiles", stem+".json"), &p); err != nil {
			return nil, err
		}
		v.projByScript[strings.ToLower(p.Script)] = stem
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
	stem, ok := v.projByScript[strings.ToLower(script)]
	if !ok {
		return nil, false
	}
	return v.projectileByStem(stem)
}

// class copies the stock class named by row's script to row's species,
// its projectile references resolved against the pack's table.
func (v *vanillaSet) class(row ships.ShipRow, resolve func(string) (projInfo, bool)) (*encodedClass, []string, bool) {
	if v == nil {
		return nil, nil, false
	}
	dir, ok := v.classByName[strings.ToLower(row.ShipScript)]
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
