package modimport

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"strconv"
	"strings"
	"testing/fstest"

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
	// in at the mod's species and net type numbers. A folder without a
	// species table then gives a pack of the stock classes it changes.
	Vanilla fs.FS
	// Logger, if set, gets what the report leaves out: the text of an
	// error inside the server's own loader (debug level).
	Logger *slog.Logger
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
	log     *slog.Logger
	rep     *Report
	files   map[string][]byte
	tables  ships.SpeciesTables
	shipMod *tableModule
	torpMod *tableModule
	// overlay: no species table in the folder; the rows are the stock
	// classes and only those the folder changes go into the pack.
	overlay bool
	// rowLine is the SpeciesToShip.py line of each species row,
	// torpLine that of each SpeciesToTorp row.
	rowLine, torpLine map[int]int
	// projectiles by lower-case script name.
	projByScript map[string]projInfo
	projOrder    []string // stems in net type order
	vanilla      *vanillaSet
}

// Import reads the scripts folder at the root of fsys (or its scripts/
// subfolder) and builds the pack. The error is non-nil only when no pack
// can be built; everything left out is in the Report. fsys is read
// without following what its directory listing shows as links; a folder
// on disk is better read with ImportDir.
func Import(fsys fs.FS, opts Options) (*Pack, error) {
	return importTree(fsTree{fsys}, opts)
}

// ImportDir is Import for a folder on disk, read through an os.Root: no
// path leaves the folder, whatever its links say, a pipe or device put
// where a script was listed is refused without blocking, and file names
// need not be UTF-8 (a Windows install's Latin-1 names).
func ImportDir(dir string, opts Options) (*Pack, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s cannot be opened as a folder", ErrNoPack, display(dir))
	}
	defer root.Close()
	return importTree(rootTree{root}, opts)
}

func importTree(t tree, opts Options) (*Pack, error) {
	if opts.Label == "" {
		opts.Label = "mod"
	}
	src, err := openScripts(t)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoPack, err)
	}
	im := &importer{src: src, opts: opts, log: opts.Logger, rep: &Report{}, files: map[string][]byte{},
		projByScript: map[string]projInfo{}, rowLine: map[int]int{}, torpLine: map[int]int{}}
	if im.log == nil {
		im.log = slog.New(slog.DiscardHandler)
	}
	if opts.Vanilla != nil {
		if im.vanilla, err = loadVanillaSet(opts.Vanilla); err != nil {
			return nil, fmt.Errorf("vanilla data: %w", err)
		}
	}
	if err := im.readTables(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoPack, err)
	}
	if err := im.importProjectiles(); err != nil {
		return nil, err
	}
	shipFolders, err := im.importClasses()
	if err != nil {
		return nil, err
	}
	if im.overlay && len(shipFolders) == 0 {
		return nil, fmt.Errorf("%w: the folder has no species table (Multiplayer/SpeciesToShip.py) and changes no stock class: nothing to import", ErrNoPack)
	}
	man := object{{"version", opts.Label}, {"ships", shipFolders}, {"projectiles", im.projOrder}}
	if err := im.put("manifest.json", man); err != nil {
		return nil, err
	}
	if !im.overlay {
		if err := im.put(ships.TablesFile, im.tables); err != nil {
			return nil, err
		}
	}
	im.reportRefusals()
	im.rep.Overlay = im.overlay
	im.files["report.txt"] = []byte(im.rep.String())
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

// reportRefusals names the entries the walk would not read and no lookup
// met (those a class or table needed are named where they were needed).
func (im *importer) reportRefusals() {
	n := 0
	for i, r := range im.src.refusals {
		if im.src.used[asciiLower(r.path)] {
			continue
		}
		if n++; n > maxRefusals {
			im.rep.add(LevelWarning, r.path, 0, "", "remove the links and special files from the folder",
				"and more entries not read, from here on (%d in all)", len(im.src.refusals)-i)
			break
		}
		im.rep.add(LevelWarning, r.path, 0, "", r.fix, "not read: %s", r.why)
	}
}

// missingTable says why a table file cannot be read: refused, compiled
// only, or absent.
func (im *importer) missingTable(rel string, l lookup) error {
	switch {
	case l.refused != nil:
		return &placedError{file: l.refused.path, msg: "not read: " + l.refused.why, fix: l.refused.fix}
	case im.src.compiledOnly(strings.TrimSuffix(strings.ReplaceAll(rel, "/", "."), ".py")):
		return &placedError{file: rel + "c", msg: "only the compiled table is in the folder; the importer reads Python source",
			fix: "decompile it into " + path.Base(rel) + " (a Python 1.5 decompiler) and import again"}
	}
	return nil
}

// readTables evaluates the Multiplayer species tables (mods.md 3.2).
func (im *importer) readTables() error {
	im.tables.Source = "imported by bcserver from Multiplayer/SpeciesToShip.py, SpeciesToTorp.py, SpeciesToSystem.py"
	im.tables.CompiledHashes = map[string]string{}
	const shipRel = "Multiplayer/SpeciesToShip.py"
	l := im.src.find(shipRel)
	switch {
	case l.found():
		st, m, err := readShipTable(im.src, l.stored, im.rep)
		if err != nil {
			return err
		}
		im.tables.SpeciesToShip, im.shipMod = st, m
		for i, row := range m.tuple.items {
			im.rowLine[i] = row.line
		}
	case im.missingTable(shipRel, l) != nil:
		return im.missingTable(shipRel, l)
	case im.vanilla != nil:
		// A folder of changed stock files (hardpoints, say) and no table:
		// the stock numbers hold, and the pack lays over the built-in
		// data instead of replacing it.
		im.overlay = true
		im.tables.SpeciesToShip = im.vanilla.shipTable()
	default:
		return errors.New("no Multiplayer/SpeciesToShip.py: the species table decides what every species byte means; import the mod's scripts folder (holding Multiplayer/)")
	}
	const torpRel = "Multiplayer/SpeciesToTorp.py"
	l = im.src.find(torpRel)
	switch {
	case l.found():
		max, rows, m, err := readPairTable(im.src, l.stored, "MAX_TORPS", im.rep)
		if err != nil {
			return err
		}
		im.torpMod = m
		im.tables.SpeciesToTorp.MaxTorps = max
		for i, r := range rows {
			n, _ := strconv.Atoi(r[0])
			im.tables.SpeciesToTorp.Entries = append(im.tables.SpeciesToTorp.Entries, ships.TorpRow{Index: n, Constant: r[1], Script: r[2]})
			im.torpLine[n] = m.tuple.items[i].line
		}
	case im.missingTable(torpRel, l) != nil:
		return im.missingTable(torpRel, l)
	case im.vanilla != nil:
		im.tables.SpeciesToTorp = im.vanilla.torpTable()
		if !im.overlay {
			im.rep.add(LevelNote, "Multiplayer/", 0, "", "nothing to do if the mod keeps the stock torpedoes; else add its SpeciesToTorp.py",
				"no SpeciesToTorp.py: the stock torpedo table is used")
		}
	default:
		return errors.New("no Multiplayer/SpeciesToTorp.py: import the mod's scripts folder (holding Multiplayer/)")
	}
	if l := im.src.find("Multiplayer/SpeciesToSystem.py"); l.found() {
		max, rows, _, err := readPairTable(im.src, l.stored, "MAX_SYSTEMS", im.rep)
		if err != nil {
			line, msg, fix := explainTable(err)
			im.rep.add(LevelWarning, l.stored, line, "", fix, "star-system table not read: %s", msg)
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
		l := im.src.find("Multiplayer/" + name)
		if !l.found() {
			continue
		}
		b, err := im.src.readRaw(l.stored)
		if err != nil {
			im.rep.addErr(LevelWarning, l.stored, "", "not hashed", err, "")
			continue
		}
		im.tables.CompiledHashes[path.Base(l.stored)] = fmt.Sprintf("0x%08X", checksum.FileHash(b))
	}
	return nil
}

// explainTable is explain for a table error, with the table's fix.
func explainTable(err error) (int, string, string) {
	var pe *placedError
	if errors.As(err, &pe) {
		return pe.line, pe.msg, pe.fix
	}
	line, msg, fix := explain(err)
	if fix == "" {
		fix = fixTable
	}
	return line, msg, fix
}

// stemOf is a projectile's or class folder's name: lower case, characters
// outside [a-z0-9_-] as '_' (mods.md 3.8).
func stemOf(name string) string {
	b := []byte(asciiLower(name))
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
	torpFile := ""
	if im.torpMod != nil {
		torpFile = im.torpMod.file
	}
	for _, row := range im.tables.SpeciesToTorp.Entries {
		if row.Script == "" || row.Index < 1 || row.Index >= im.tables.SpeciesToTorp.MaxTorps || row.Index > 255 {
			continue
		}
		rowLine := im.torpLine[row.Index]
		key := asciiLower(row.Script)
		if prev, dup := im.projByScript[key]; dup {
			im.rep.add(LevelWarning, torpFile, rowLine, "", "give each projectile script one row",
				"torpedo rows %d and %d both name %s; receivers use either, the pack keeps %d", prev.netType, row.Index, row.Script, prev.netType)
			continue
		}
		stem := stemOf(row.Script)
		if stems[stem] {
			stem += "-" + strconv.Itoa(row.Index)
		}
		var body any
		var name string
		l := im.src.module("Tactical.Projectiles." + row.Script)
		switch {
		case l.found():
			pr, notes, err := readProjectile(im.src, l.stored, consts)
			im.rep.Findings = append(im.rep.Findings, notes...)
			if err != nil {
				im.rep.addErr(LevelError, l.stored, "", "projectile not imported", err,
					"write Create(pTorp) and GetName() as the stock projectiles do; until then weapons firing it have no projectile")
				continue
			}
			body, name = pr.jsonFor(row.Index), pr.name
		case l.refused != nil:
			im.rep.add(LevelError, l.refused.path, 0, "", l.refused.fix, "projectile of torpedo row %d not read: %s", row.Index, l.refused.why)
			continue
		default:
			vp, ok := im.vanilla.projectile(row.Script)
			if !ok {
				// Row 13 of the stock table names a module that does not
				// exist (mods.md 3.7): nothing to import.
				fix := "add Tactical/Projectiles/" + row.Script + ".py to the folder, or nothing to do if no ship fires it"
				if im.src.compiledOnly("Tactical.Projectiles." + row.Script) {
					fix = "only the compiled " + row.Script + ".pyc is in the folder: decompile it to " + row.Script + ".py"
				}
				im.rep.add(LevelWarning, torpFile, rowLine, "", fix, "torpedo row %d names %s, which has no script", row.Index, row.Script)
				continue
			}
			vp.NetTypeID = row.Index
			body, name = vp, vp.Name
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
	m := asciiLower(module)
	if !strings.HasPrefix(m, prefix) {
		return projInfo{}, false
	}
	p, ok := im.projByScript[strings.TrimPrefix(m, prefix)]
	return p, ok
}
