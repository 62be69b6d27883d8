package modimport

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// pending is a class on its way into the pack.
type pending struct {
	row    ships.ShipRow
	folder string
	src    ClassSource
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
		e, src, status := im.importClass(row)
		switch status {
		case classStock:
			continue
		case classRelayed:
			im.rep.RelayOnly = append(im.rep.RelayOnly, fmt.Sprintf("%d %s", row.Index, row.ShipScript))
			continue
		}
		folder := stemOf(row.ShipScript)
		if usedFolder[folder] {
			folder += "-" + strconv.Itoa(row.Index)
		}
		name := row.ShipScript
		if prev, dup := usedName[asciiLower(name)]; dup {
			// The loader keys classes by name as well as by species.
			name = fmt.Sprintf("%s #%d", row.ShipScript, row.Index)
			file, line := im.rowPlace(row.Index)
			im.rep.add(LevelWarning, file, line, row.ShipScript, "nothing to do; missions and bcbot name it so",
				"species %d names the same script as species %d; its class is called %q", row.Index, prev, name)
		}
		if err := e.setName(name); err != nil {
			return nil, err
		}
		usedFolder[folder] = true
		usedName[asciiLower(name)] = row.Index
		all = append(all, &pending{row: row, folder: folder, src: src, e: e})
	}
	reg, err := im.loadClasses(all)
	if err != nil {
		// Find the classes the loader refuses, one by one (the slow path,
		// only for a pack with a fault the builder's checks missed), and
		// leave them out. The loader's words name pack files, not the
		// mod's, so they go to the log, not the report.
		var ok []*pending
		for _, p := range all {
			if _, err := im.loadClasses([]*pending{p}); err != nil {
				im.log.Debug("an imported class does not load", "species", p.row.Index, "class", p.row.ShipScript, "err", err)
				file, line := p.src.File, 0
				if file == "" {
					file, line = im.rowPlace(p.row.Index)
				}
				im.rep.add(LevelError, file, line, p.row.ShipScript,
					"the class is relayed without a damage model; please send this file to the bcserver developers",
					"species %d: the class read from this file does not fit the server's ship model", p.row.Index)
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
		im.rep.Classes = append(im.rep.Classes, p.src)
		if p.src.Source == SourceVanilla {
			im.rep.Vanilla = append(im.rep.Vanilla, fmt.Sprintf("%d %s", p.row.Index, p.row.ShipScript))
		} else {
			im.rep.Imported = append(im.rep.Imported, fmt.Sprintf("%d %s", p.row.Index, p.row.ShipScript))
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
