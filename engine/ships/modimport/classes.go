package modimport

import (
	"fmt"
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

// What to do about a class left out, by reason.
const (
	fixShipScript = "write GetShipStats as the stock ship scripts do (one dictionary of literals); until then the class is relayed without a damage model"
	fixMissingHP  = "add the hardpoint file to ships/Hardpoints; until then clients build the model without subsystems and the server relays it"
	fixMissingMod = "add the mod's ship script (and its hardpoint) to the folder; until then the class is relayed, and clients without the file see an empty hull (mods.md 4.2)"
	fixStockOnly  = "the server relays it in stock games too; to model it, import a full install's scripts folder, which holds the stock ships/ and ships/Hardpoints/"
)

// classStatus is what became of a species row.
type classStatus int

const (
	classRelayed classStatus = iota // no class: relayed only (reasons in the report)
	classIn                         // a class of the pack
	classStock                      // a folder without a table: the built-in class stays, nothing written
)

// rowPlace is where a species row is written: the table's file and line.
func (im *importer) rowPlace(species int) (string, int) {
	if im.shipMod == nil {
		return "Multiplayer/", 0
	}
	return im.shipMod.file, im.rowLine[species]
}

// importClass reads row's ship script and hardpoint: the folder's files
// win, the built-in stock data fills in only what the folder lacks.
func (im *importer) importClass(row ships.ShipRow) (*encodedClass, ClassSource, classStatus) {
	cs := ClassSource{Species: row.Index, Script: row.ShipScript}
	rowFile, rowLine := im.rowPlace(row.Index)
	ship := im.src.module("ships." + row.ShipScript)
	switch {
	case ship.refused != nil:
		im.rep.add(LevelError, ship.refused.path, 0, row.ShipScript, ship.refused.fix, "species %d: ship script not read: %s", row.Index, ship.refused.why)
		return nil, cs, classRelayed
	case ship.found():
		e, ok := im.fromShipScript(row, ship.stored, &cs)
		if !ok {
			return nil, cs, classRelayed
		}
		return e, cs, classIn
	}
	// No ship script in the folder. A stock class's script is on every
	// client; its hardpoint, if the folder holds it, is the mod's.
	if isStockShip(row.ShipScript) || im.vanilla.has(row.ShipScript) {
		stem := stockHardpoint(row.ShipScript)
		hp := im.src.module("ships.Hardpoints." + stem)
		switch {
		case hp.refused != nil:
			im.rep.add(LevelError, hp.refused.path, 0, row.ShipScript, hp.refused.fix, "species %d: hardpoint not read: %s", row.Index, hp.refused.why)
			return nil, cs, classRelayed
		case hp.found():
			b, ok := im.buildHardpoint(row, hp.stored, &cs)
			if !ok {
				return nil, cs, classRelayed
			}
			cs.Source = SourceHardpoint
			return im.encodeBuilt(b, row, hp.stored), cs, classIn
		}
	}
	if vc, notes, ok := im.vanilla.class(row, row.ShipScript, im.projectile); ok {
		for _, n := range notes {
			im.rep.add(LevelWarning, rowFile, rowLine, row.ShipScript, "add the projectile's row to SpeciesToTorp.py, or nothing to do if the class need not fire it", "%s", n)
		}
		if im.overlay {
			return nil, cs, classStock
		}
		cs.Source = SourceVanilla
		return vc, cs, classIn
	}
	switch {
	case im.src.compiledOnly("ships." + row.ShipScript):
		im.rep.add(LevelError, "ships/"+row.ShipScript+".pyc", 0, row.ShipScript,
			"decompile it to ships/"+row.ShipScript+".py (and its hardpoint) and import again; until then the class is relayed",
			"species %d: only the compiled ship script is in the folder; the importer reads Python source", row.Index)
	case isStockShip(row.ShipScript):
		im.rep.add(LevelError, rowFile, rowLine, row.ShipScript, fixStockOnly,
			"species %d: a stock ship the built-in data does not model, and the folder has no ships/%s.py", row.Index, row.ShipScript)
	default:
		im.rep.add(LevelError, rowFile, rowLine, row.ShipScript, fixMissingMod, "species %d: no ships/%s.py in the folder", row.Index, row.ShipScript)
	}
	return nil, cs, classRelayed
}

// fromShipScript builds a class from the folder's ship script: its
// hardpoint from the folder, else the stock one from the built-in data.
func (im *importer) fromShipScript(row ships.ShipRow, stored string, cs *ClassSource) (*encodedClass, bool) {
	stats, err := readShipScript(im.src, stored, tableConsts(im.shipMod))
	if err != nil {
		im.rep.addErr(LevelError, stored, row.ShipScript, "ship script not read", err, fixShipScript)
		return nil, false
	}
	if stats.hasSpecies && stats.species != row.Index {
		// Objects made by loadspacehelper get the script's value (mods.md 3.2).
		im.rep.add(LevelWarning, stored, stats.speciesLine, row.ShipScript, "make \"Species\" name the row's constant, unless the mod means it",
			"\"Species\" is %d (%s), the table row is %d", stats.species, stats.speciesSource, row.Index)
	}
	// KM's receiver path prefers NormalHP (mods.md 3.2).
	stem, stemLine := stats.hardpoint, stats.hardpointLine
	if stats.normalHP != "" {
		stem, stemLine = stats.normalHP, stats.normalHPLine
	}
	hp := im.src.module("ships.Hardpoints." + stem)
	if stats.normalHP != "" && !strings.EqualFold(stats.normalHP, stats.hardpoint) {
		owner := im.src.module("ships.Hardpoints." + stats.hardpoint)
		if !hp.found() || !owner.found() {
			im.rep.add(LevelError, stored, stats.normalHPLine, row.ShipScript, "put both hardpoint files in the folder",
				"NormalHP %s and HardpointFile %s differ and the folder lacks one of them: whether owner and receivers build the same ship cannot be checked", stats.normalHP, stats.hardpoint)
			return nil, false
		}
		var ocs ClassSource
		a, okA := im.buildHardpoint(row, hp.stored, cs)
		b, okB := im.buildHardpoint(row, owner.stored, &ocs)
		if !okA || !okB {
			return nil, false
		}
		if !sameSubsystems(a, b) {
			im.rep.add(LevelError, stored, stats.normalHPLine, row.ShipScript, "make the two hardpoints add the same subsystems in the same order; until then the class is relayed",
				"NormalHP %s and HardpointFile %s give different subsystem lists: owner and receivers would build different ships", stats.normalHP, stats.hardpoint)
			return nil, false
		}
		cs.Source = SourceScripts
		return im.encodeBuilt(a, row, stored), true
	}
	switch {
	case hp.refused != nil:
		im.rep.add(LevelError, hp.refused.path, 0, row.ShipScript, hp.refused.fix, "hardpoint not read: %s", hp.refused.why)
		return nil, false
	case hp.found():
		b, ok := im.buildHardpoint(row, hp.stored, cs)
		if !ok {
			return nil, false
		}
		cs.Source = SourceScripts
		return im.encodeBuilt(b, row, stored), true
	}
	if name, ok := im.vanilla.classByHardpoint(stem); ok {
		vc, notes, ok := im.vanilla.class(row, name, im.projectile)
		if ok {
			for _, n := range notes {
				im.rep.add(LevelWarning, stored, stemLine, row.ShipScript, "add the projectile's row to SpeciesToTorp.py, or nothing to do if the class need not fire it", "%s", n)
			}
			cs.Source, cs.File = SourceShip, stored
			return vc, true
		}
	}
	fix := fixMissingHP
	if im.src.compiledOnly("ships.Hardpoints." + stem) {
		fix = "only the compiled " + stem + ".pyc is in the folder: decompile it to ships/Hardpoints/" + stem + ".py and import again"
	}
	im.rep.add(LevelError, stored, stemLine, row.ShipScript, fix, "no ships/Hardpoints/%s.py in the folder (nor a stock hardpoint of that name)", stem)
	return nil, false
}

// buildHardpoint reads the hardpoint at stored (with its parents) and
// creates its subsystems; ok is false when the class must be relay-only.
func (im *importer) buildHardpoint(row ships.ShipRow, stored string, cs *ClassSource) (*builder, bool) {
	h, parents, ok := im.mergedHardpoint(row.ShipScript, stored)
	if !ok {
		return nil, false
	}
	cs.File, cs.Parents = stored, parents
	im.rep.Findings = append(im.rep.Findings, classFindings(h.warnings, row.ShipScript)...)
	if len(h.unsupported) > 0 {
		// What the builder would say next follows from these.
		im.rep.Findings = append(im.rep.Findings, classFindings(h.unsupported, row.ShipScript)...)
		return nil, false
	}
	b := &builder{h: h, row: row, project: im.projectile}
	b.create()
	b.check()
	if len(b.bad) > 0 {
		im.rep.Findings = append(im.rep.Findings, classFindings(b.bad, row.ShipScript)...)
		return nil, false
	}
	if len(parents) > 0 {
		im.noteInheritance(row, h, parents)
	}
	return b, true
}

// encodeBuilt writes a built class's files; the warnings of the build go
// into the report.
func (im *importer) encodeBuilt(b *builder, row ships.ShipRow, file string) *encodedClass {
	f := b.files()
	im.rep.Findings = append(im.rep.Findings, classFindings(b.warns, row.ShipScript)...)
	e := &encodedClass{species: row.Index, shipObj: f.ship, other: map[string][]byte{}}
	for name, v := range map[string]any{"subsystems.json": f.subsystems, "serialization.json": f.serial, "power.json": f.power} {
		enc, err := encodeFile(v)
		if err != nil {
			// The values were checked as they were read; this is the
			// importer's own fault.
			im.log.Debug("encoding an imported class", "file", file, "err", err)
			enc = nil
		}
		e.other[name] = enc
	}
	return e
}

func classFindings(fs []Finding, class string) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		f.Class = class
		out[i] = f
	}
	return out
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
			out = append(out, s.p.name+"|"+s.kind.String()+"|"+parent)
		}
		return out
	}
	return slices.Equal(key(a), key(b))
}
