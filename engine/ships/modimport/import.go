package modimport

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/checksum"
	"github.com/bcserver/bcserver/engine/ships"
)

// Options configures Import.
type Options struct {
	// Label is the pack's manifest version, e.g. "Kobayashi Maru 2011";
	// default "mod".
	Label string
	// Vanilla, when set (ships.VanillaData()), supplies the stock classes
	// and projectiles whose scripts the folder does not hold: a mod
	// folder usually carries only the mod's own files. The pack replaces
	// the whole ship data of its game (ships.Overlay), so these are copied
	// in at the mod's species and net type numbers.
	Vanilla fs.FS
}

// Pack is an imported data pack, in memory until written.
type Pack struct {
	// Files are the pack's files by slash path: manifest.json,
	// tables.json, report.txt, ships/<folder>/*.json, projectiles/*.json.
	Files  map[string][]byte
	Report *Report
}

// FS returns the pack as a file system (its root is the pack folder).
func (p *Pack) FS() fs.FS {
	m := fstest.MapFS{}
	for name, b := range p.Files {
		m[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	return m
}

// ErrNoPack wraps the reasons no pack can be built at all (an unusable
// species table, no ships folder).
var ErrNoPack = errors.New("no pack")

// importer carries one import.
type importer struct {
	src     *scripts
	opts    Options
	rep     *Report
	files   map[string][]byte
	tables  ships.SpeciesTables
	shipMod *tableModule
	torpMod *tableModule
	// projectiles by lower-case script name.
	projByScript map[string]projInfo
	projOrder    []string // stems in net type order
	vanilla      *vanillaSet
}

// Import reads the scripts folder at the root of fsys (or its scripts/
// subfolder) and builds the pack. The error is non-nil only when no pack
// can be built; everything left out is in the Report.
func Import(fsys fs.FS, opts Options) (*Pack, error) {
	if opts.Label == "" {
		opts.Label = "mod"
	}
	src, err := openScripts(fsys)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoPack, err)
	}
	im := &importer{src: src, opts: opts, rep: &Report{}, files: map[string][]byte{}, projByScript: map[string]projInfo{}}
	if opts.Vanilla != nil {
		if im.vanilla, err = loadVanillaSet(opts.Vanilla); err != nil {
			return nil, fmt.Errorf("vanilla data: %w", err)
		}
	}
	if err := im.readTables(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoPack, err)
	}
	if err := im.importProjectiles(); err != nil {
		return nil, err
	}
	shipFolders, err := im.importClasses()
	if err != nil {
		return nil, err
	}
	man := object{{"version", opts.Label}, {"ships", shipFolders}, {"projectiles", im.projOrder}}
	if err := im.put("manifest.json", man); err != nil {
		return nil, err
	}
	if err := im.put(ships.TablesFile, im.tables); err != nil {
		return nil, err
	}
	im.files["report.txt"] = []byte(im.rep.String())
	// The classes were loaded together with the projectiles
	// (importClasses); only the tail strings changed since.
	return &Pack{Files: im.files, Report: im.rep}, nil
}

func (im *importer) put(name string, v any) error {
	b, err := encodeFile(v)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", name, err)
	}
	im.files[name] = b
	return nil
}

// readTables evaluates the Multiplayer species tables (mods.md 3.2).
func (im *importer) readTables() error {
	im.tables.Source = "imported by bcserver from Multiplayer/SpeciesToShip.py, SpeciesToTorp.py, SpeciesToSystem.py"
	im.tables.CompiledHashes = map[string]string{}
	stored, ok := im.src.find("Multiplayer/SpeciesToShip.py")
	if !ok {
		return errors.New("no Multiplayer/SpeciesToShip.py: the species table decides what every species byte means")
	}
	st, m, err := readShipTable(im.src, stored, im.rep)
	if err != nil {
		return err
	}
	im.tables.SpeciesToShip, im.shipMod = st, m
	if stored, ok := im.src.find("Multiplayer/SpeciesToTorp.py"); ok {
		max, rows, m, err := readPairTable(im.src, stored, "MAX_TORPS", im.rep)
		if err != nil {
			return err
		}
		im.torpMod = m
		im.tables.SpeciesToTorp.MaxTorps = max
		for _, r := range rows {
			n, _ := strconv.Atoi(r[0])
			im.tables.SpeciesToTorp.Entries = append(im.tables.SpeciesToTorp.Entries, ships.TorpRow{Index: n, Constant: r[1], Script: r[2]})
		}
	} else if im.vanilla != nil {
		im.tables.SpeciesToTorp = im.vanilla.torpTable()
		im.rep.add(LevelNote, "", 0, "", "no Multiplayer/SpeciesToTorp.py: the stock torpedo table is used")
	} else {
		return errors.New("no Multiplayer/SpeciesToTorp.py")
	}
	if stored, ok := im.src.find("Multiplayer/SpeciesToSystem.py"); ok {
		max, rows, _, err := readPairTable(im.src, stored, "MAX_SYSTEMS", im.rep)
		if err != nil {
			im.rep.add(LevelWarning, stored, 0, "", "star-system table not read: %v", err)
		} else {
			im.tables.SpeciesToSystem.MaxSystems = max
			for _, r := range rows {
				n, _ := strconv.Atoi(r[0])
				im.tables.SpeciesToSystem.Entries = append(im.tables.SpeciesToSystem.Entries, ships.SystemRow{Index: n, Constant: r[1], Script: r[2]})
			}
		}
	}
	if im.tables.SpeciesToSystem.Entries == nil {
		im.tables.SpeciesToSystem.Entries = []ships.SystemRow{}
	}
	// The compiled tables the clients hash in round 0xFF (mods.md 3.2
	// rule 3, 7.3).
	for _, name := range []string{"SpeciesToShip.pyc", "SpeciesToTorp.pyc", "SpeciesToSystem.pyc"} {
		if stored, ok := im.src.find("Multiplayer/" + name); ok {
			b, err := im.src.readRaw(stored)
			if err != nil {
				return err
			}
			im.tables.CompiledHashes[path.Base(stored)] = fmt.Sprintf("0x%08X", checksum.FileHash(b))
		}
	}
	return nil
}

// stemOf is a projectile's or class folder's name: lower case, characters
// outside [a-z0-9_-] as '_' (mods.md 3.8).
func stemOf(name string) string {
	b := []byte(strings.ToLower(name))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// importProjectiles builds one projectile per SpeciesToTorp row that names
// a script (mods.md 3.7): from the folder, else from vanilla.
func (im *importer) importProjectiles() error {
	stems := map[string]bool{}
	consts := tableConsts(im.torpMod)
	for _, row := range im.tables.SpeciesToTorp.Entries {
		if row.Script == "" || row.Index < 1 || row.Index >= im.tables.SpeciesToTorp.MaxTorps || row.Index > 255 {
			continue
		}
		key := strings.ToLower(row.Script)
		if prev, dup := im.projByScript[key]; dup {
			im.rep.add(LevelWarning, "", 0, "", "torpedo rows %d and %d both name %s; receivers use either, the pack keeps %d", prev.netType, row.Index, row.Script, prev.netType)
			continue
		}
		stem := stemOf(row.Script)
		if stems[stem] {
			stem += "-" + strconv.Itoa(row.Index)
		}
		var body any
		var name string
		if stored, ok := im.src.module("Tactical.Projectiles." + row.Script); ok {
			pr, notes, err := readProjectile(im.src, stored, consts)
			im.rep.Findings = append(im.rep.Findings, notes...)
			if err != nil {
				im.rep.add(LevelError, stored, 0, "", "projectile not imported: %v", err)
				continue
			}
			body, name = pr.jsonFor(row.Index), pr.name
		} else if vp, ok := im.vanilla.projectile(row.Script); ok {
			vp.NetTypeID = row.Index
			body, name = vp, vp.Name
			im.rep.add(LevelNote, "", 0, "", "projectile %s (net type %d) from the vanilla data", row.Script, row.Index)
		} else {
			// Row 13 of the stock table names a module that does not exist
			// (mods.md 3.7): nothing to import.
			im.rep.add(LevelWarning, "", 0, "", "torpedo row %d names %s, which has no script", row.Index, row.Script)
			continue
		}
		if err := im.put("projectiles/"+stem+".json", body); err != nil {
			return err
		}
		stems[stem] = true
		im.projByScript[key] = projInfo{stem: stem, netType: row.Index, name: name}
		im.projOrder = append(im.projOrder, stem)
	}
	im.rep.Projectiles = len(im.projOrder)
	return nil
}

// projectile resolves a module ("Tactical.Projectiles.PhotonTorpedo") to
// a pack projectile.
func (im *importer) projectile(module string) (projInfo, bool) {
	const prefix = "tactical.projectiles."
	m := strings.ToLower(module)
	if !strings.HasPrefix(m, prefix) {
		return projInfo{}, false
	}
	p, ok := im.projByScript[strings.TrimPrefix(m, prefix)]
	return p, ok
}

// pending is a class on its way into the pack.
type pending struct {
	row    ships.ShipRow
	folder string
	from   string
	e      *encodedClass
}

// importClasses builds a class for each species row 1..MAX_SHIPS-1 that
// names a script, checks them all with the loader in one pass, fills in
// their ObjCreate tails, and returns the class folders in species order.
func (im *importer) importClasses() ([]string, error) {
	var all []*pending
	usedFolder := map[string]bool{}
	usedName := map[string]int{}
	for _, row := range im.tables.SpeciesToShip.Entries {
		if row.Index < 1 || row.Index >= im.tables.SpeciesToShip.MaxShips || row.ShipScript == "" {
			continue
		}
		e, from, ok := im.importClass(row)
		if !ok {
			im.rep.RelayOnly = append(im.rep.RelayOnly, fmt.Sprintf("%d %s", row.Index, row.ShipScript))
			continue
		}
		folder := stemOf(row.ShipScript)
		if usedFolder[folder] {
			folder += "-" + strconv.Itoa(row.Index)
		}
		name := row.ShipScript
		if prev, dup := usedName[strings.ToLower(name)]; dup {
			// The loader keys classes by name as well as by species.
			name = fmt.Sprintf("%s #%d", row.ShipScript, row.Index)
			im.rep.add(LevelWarning, "", 0, row.ShipScript, "species %d names the same script as species %d; its class is called %q", row.Index, prev, name)
		}
		if err := e.setName(name); err != nil {
			return nil, err
		}
		usedFolder[folder] = true
		usedName[strings.ToLower(name)] = row.Index
		all = append(all, &pending{row: row, folder: folder, from: from, e: e})
	}
	reg, err := im.loadClasses(all)
	if err != nil {
		// Find the classes the loader refuses, one by one (the slow path,
		// only for a pack with a fault), and leave them out.
		var ok []*pending
		for _, p := range all {
			if _, err := im.loadClasses([]*pending{p}); err != nil {
				im.rep.add(LevelError, "", 0, p.row.ShipScript, "left out: %v", err)
				im.rep.RelayOnly = append(im.rep.RelayOnly, fmt.Sprintf("%d %s", p.row.Index, p.row.ShipScript))
				continue
			}
			ok = append(ok, p)
		}
		all = ok
		if reg, err = im.loadClasses(all); err != nil {
			return nil, fmt.Errorf("the imported classes do not load together: %w", err)
		}
	}
	slices.SortFunc(im.rep.RelayOnly, func(a, b string) int { return relayIndex(a) - relayIndex(b) })
	folders := []string{}
	for _, p := range all {
		c, ok := reg.Class(p.row.Index)
		if !ok {
			return nil, fmt.Errorf("species %d did not load", p.row.Index)
		}
		var w codec.Writer
		ships.AppendTail(&w, ships.NewShip(c, codec.FirstPlayerObjectID), ships.DefaultTail())
		if err := p.e.setTail(strings.ToUpper(hex.EncodeToString(w.Bytes()))); err != nil {
			return nil, err
		}
		enc, err := p.e.encode()
		if err != nil {
			return nil, err
		}
		for name, b := range enc {
			im.files["ships/"+p.folder+"/"+name] = b
		}
		folders = append(folders, p.folder)
		if p.from == "" {
			im.rep.Imported = append(im.rep.Imported, fmt.Sprintf("%d %s", p.row.Index, p.row.ShipScript))
		} else {
			im.rep.Vanilla = append(im.rep.Vanilla, fmt.Sprintf("%d %s", p.row.Index, p.row.ShipScript))
		}
	}
	return folders, nil
}

// relayIndex is the species number of a RelayOnly entry.
func relayIndex(s string) int {
	n, _ := strconv.Atoi(s[:strings.IndexByte(s+" ", ' ')])
	return n
}

// loadClasses loads classes with the pack's projectiles as the server
// will load the pack.
func (im *importer) loadClasses(classes []*pending) (*ships.Registry, error) {
	test := fstest.MapFS{}
	for name, b := range im.files {
		if strings.HasPrefix(name, "projectiles/") {
			test[name] = &fstest.MapFile{Data: b}
		}
	}
	folders := make([]string, 0, len(classes))
	for _, p := range classes {
		enc, err := p.e.encode()
		if err != nil {
			return nil, err
		}
		for name, b := range enc {
			test["ships/"+p.folder+"/"+name] = &fstest.MapFile{Data: b}
		}
		folders = append(folders, p.folder)
	}
	man, err := encodeFile(object{{"version", "check"}, {"ships", folders}, {"projectiles", im.projOrder}})
	if err != nil {
		return nil, err
	}
	test["manifest.json"] = &fstest.MapFile{Data: man}
	return ships.Load(test, ".")
}

// WriteDir writes the pack into dir, creating it. A folder that already
// holds a pack (manifest.json) has its ships/ and projectiles/ replaced, so
// classes a new import leaves out do not linger; a non-empty folder that
// is not a pack is refused rather than overwritten.
func (p *Pack) WriteDir(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case len(ents) > 0:
		if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
			return fmt.Errorf("%s is not empty and holds no pack (manifest.json): not overwriting it", dir)
		}
		for _, sub := range []string{"ships", "projectiles"} {
			if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
				return err
			}
		}
	}
	names := slices.Sorted(maps.Keys(p.Files))
	for _, name := range names {
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, p.Files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}
