package ships

import (
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

// vanillaFS is the stock 1.1 data set, the repo copy of the reference
// data/vanilla-1.1 (make sync-shared refreshes it, internal/vectors checks it).
//
//go:embed data/vanilla-1.1
var vanillaFS embed.FS

const vanillaDir = "data/vanilla-1.1"

// vanilla is the package's only shared state: built once on first use and
// read-only afterwards, so every game can share it.
var vanilla = sync.OnceValues(func() (*Registry, error) {
	return Load(predecoded{vanillaFS, vanillaDecoded}, vanillaDir)
})

// Vanilla returns the embedded stock BC 1.1 data set. The Registry is built
// on the first call and the same read-only value is returned every time.
func Vanilla() (*Registry, error) { return vanilla() }

// VanillaData returns the embedded vanilla 1.1 data folder (manifest.json,
// ships/, projectiles/, gamemodes/), for tools that copy stock classes into
// a pack.
func VanillaData() fs.FS {
	sub, err := fs.Sub(vanillaFS, vanillaDir)
	if err != nil {
		panic(err) // vanillaDir is a constant valid path
	}
	return sub
}

// ShipScript returns the ship script of a species: the topmost species
// table's row, or without tables the name of the class loaded for it.
func (r *Registry) ShipScript(species int) (string, bool) {
	if r.tables != nil {
		return r.tables.ShipScript(species)
	}
	if c, ok := r.classes[species]; ok {
		return c.Name, true
	}
	return "", false
}

// Registry maps wire ids to loaded data: species to ship classes, net type
// ids to projectiles, and file stems to game modes. It is read-only after
// loading and safe to share between goroutines.
type Registry struct {
	layers      []string
	classes     map[int]*Class
	byName      map[string]*Class // lower-case ShipData.Name
	projectiles map[int]*Projectile
	byStem      map[string]*Projectile
	modes       map[string]*GameMode
	tables      *SpeciesTables // the topmost layer's species tables, or nil
}

// Load reads the data folder dir of fsys (laid out like
// shared/data/vanilla-1.1, see data/README.md) and validates it.
//
// If dir holds manifest.json, its "ships" and "projectiles" lists name
// exactly what is loaded; otherwise every folder under ships/ and every
// *.json under projectiles/ is loaded. Game modes are always every *.json
// under gamemodes/. Errors name the offending file.
func Load(fsys fs.FS, dir string) (*Registry, error) {
	r := &Registry{
		classes:     make(map[int]*Class),
		byName:      make(map[string]*Class),
		projectiles: make(map[int]*Projectile),
		byStem:      make(map[string]*Projectile),
		modes:       make(map[string]*GameMode),
	}
	if err := r.addLayer(fsys, dir); err != nil {
		return nil, fmt.Errorf("ships: loading data folder %q: %w", dir, err)
	}
	return r, nil
}

// Overlay returns a new Registry with the data folder dir of fsys laid over
// r; r itself is unchanged. The folder has the same layout as for Load but
// may hold any subset (only ships/, say). Rules, applied per overlay in
// call order so later overlays win:
//
//   - a ship class replaces the class with the same species_id, or adds a
//     new species; a class folder is always complete (all four files), there
//     is no per-file or per-subsystem merging;
//   - a projectile replaces the one with the same net_type_id, or adds one;
//   - a game mode replaces the one with the same file name, or adds one;
//   - two classes with different species may not share a name;
//   - a folder with a species table (tables.json, written by the mod
//     importer) replaces every class and projectile below it: one species
//     table holds per game (mods.md 7.3), so its pack carries the whole
//     ship data, stock classes included. Game modes still layer.
func (r *Registry) Overlay(fsys fs.FS, dir string) (*Registry, error) {
	n := &Registry{
		layers:      slices.Clone(r.layers),
		classes:     maps.Clone(r.classes),
		byName:      maps.Clone(r.byName),
		projectiles: maps.Clone(r.projectiles),
		byStem:      maps.Clone(r.byStem),
		modes:       maps.Clone(r.modes),
		tables:      r.tables,
	}
	if err := n.addLayer(fsys, dir); err != nil {
		return nil, fmt.Errorf("ships: overlaying data folder %q: %w", dir, err)
	}
	return n, nil
}

// Layers names the loaded data folders in load order: the manifest's
// version where there is one, else the folder path.
func (r *Registry) Layers() []string { return slices.Clone(r.layers) }

// Class returns the ship class of a SpeciesToShip index. ok is false for
// an unknown species: the caller keeps relaying the object's messages but
// builds no model and applies no damage to it (simulation.md 3.3).
func (r *Registry) Class(species int) (*Class, bool) {
	c, ok := r.classes[species]
	return c, ok
}

// ClassByName returns the class whose ship.json name is name, ignoring case.
func (r *Registry) ClassByName(name string) (*Class, bool) {
	c, ok := r.byName[strings.ToLower(name)]
	return c, ok
}

// Classes returns every class, ordered by species.
func (r *Registry) Classes() []*Class {
	return sortedValues(r.classes, func(a, b *Class) int { return cmp.Compare(a.SpeciesID, b.SpeciesID) })
}

// NewShip builds a full-condition ship of the given species, or returns
// false for an unknown species (simulation.md 3.3).
func (r *Registry) NewShip(species int, objectID int32) (*Ship, bool) {
	c, ok := r.classes[species]
	if !ok {
		return nil, false
	}
	return NewShip(c, objectID), true
}

// Projectile returns the projectile with the given net type id (the species
// byte of a torpedo object, simulation.md 3.3).
func (r *Registry) Projectile(netType int) (*Projectile, bool) {
	p, ok := r.projectiles[netType]
	return p, ok
}

// ProjectileByStem returns the projectile loaded from projectiles/<stem>.json,
// the name ship data uses for it (pulse weapons' and torpedo ammo's
// "projectile" fields).
func (r *Registry) ProjectileByStem(stem string) (*Projectile, bool) {
	p, ok := r.byStem[stem]
	return p, ok
}

// Projectiles returns every projectile, ordered by net type id.
func (r *Registry) Projectiles() []*Projectile {
	return sortedValues(r.projectiles, func(a, b *Projectile) int { return cmp.Compare(a.NetTypeID, b.NetTypeID) })
}

// GameMode returns the game mode loaded from gamemodes/<key>.json.
func (r *Registry) GameMode(key string) (*GameMode, bool) {
	m, ok := r.modes[key]
	return m, ok
}

// GameModes returns every game mode, ordered by key.
func (r *Registry) GameModes() []*GameMode {
	return sortedValues(r.modes, func(a, b *GameMode) int { return cmp.Compare(a.Key, b.Key) })
}

func sortedValues[K comparable, V any](m map[K]V, cmp func(a, b V) int) []V {
	return slices.SortedFunc(maps.Values(m), cmp)
}

// addLayer loads one data folder into r, replacing entries as Overlay
// documents. r is only valid if it returns nil.
func (r *Registry) addLayer(fsys fs.FS, dir string) error {
	if !fs.ValidPath(dir) {
		return fmt.Errorf("invalid fs path %q", dir)
	}
	var man *manifestFile
	var mf manifestFile
	manName := path.Join(dir, "manifest.json")
	switch err := readJSON(fsys, manName, &mf); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		man = &mf
	}
	label := dir
	if man != nil && man.Version != "" {
		label = man.Version
	}
	tables, err := loadTables(fsys, dir)
	if err != nil {
		return err
	}
	if tables != nil {
		r.tables = tables
		r.replaceBelow()
	}

	shipDirs, err := listLayer(fsys, dir, "ships", man, true)
	if err != nil {
		return err
	}
	layerClasses := make(map[int]*Class)
	for _, name := range shipDirs {
		c, err := loadClass(fsys, path.Join(dir, "ships", name))
		if err != nil {
			return err
		}
		if prev := layerClasses[c.SpeciesID]; prev != nil {
			return fmt.Errorf("%s and %s both use species_id %d", prev.Dir, c.Dir, c.SpeciesID)
		}
		layerClasses[c.SpeciesID] = c
	}
	maps.Copy(r.classes, layerClasses)
	clear(r.byName)
	for _, c := range r.classes {
		key := strings.ToLower(c.Name)
		if prev := r.byName[key]; prev != nil {
			return fmt.Errorf("%s (species %d) and %s (species %d) share the name %q",
				prev.Dir, prev.SpeciesID, c.Dir, c.SpeciesID, c.Name)
		}
		r.byName[key] = c
	}

	projNames, err := listLayer(fsys, dir, "projectiles", man, false)
	if err != nil {
		return err
	}
	layerProj := make(map[int]*Projectile)
	for _, name := range projNames {
		p := new(Projectile)
		file := path.Join(dir, "projectiles", name+".json")
		if err := readJSON(fsys, file, p); err != nil {
			return err
		}
		p.Stem, p.File = name, file
		if err := validateProjectile(p); err != nil {
			return fmt.Errorf("%s: %w", p.File, err)
		}
		if prev := layerProj[p.NetTypeID]; prev != nil {
			return fmt.Errorf("%s and %s both use net_type_id %d", prev.File, p.File, p.NetTypeID)
		}
		layerProj[p.NetTypeID] = p
	}
	for _, p := range layerProj {
		if prev := r.projectiles[p.NetTypeID]; prev != nil && r.byStem[prev.Stem] == prev {
			delete(r.byStem, prev.Stem)
		}
		r.projectiles[p.NetTypeID] = p
		r.byStem[p.Stem] = p
	}
	if err := r.checkProjectileRefs(); err != nil {
		return err
	}

	modeNames, err := listLayer(fsys, dir, "gamemodes", nil, false)
	if err != nil {
		return err
	}
	for _, name := range modeNames {
		m := new(GameMode)
		file := path.Join(dir, "gamemodes", name+".json")
		if err := readJSON(fsys, file, m); err != nil {
			return err
		}
		m.Key, m.File = name, file
		if m.ID == "" || m.Script == "" {
			return fmt.Errorf("%s: id and script are required", m.File)
		}
		r.modes[name] = m
	}
	r.layers = append(r.layers, label)
	return nil
}

// listLayer returns the entries of one kind in a layer: from the manifest
// when it has the list (ships, projectiles), else from the folder listing
// (sub-folders for ships, *.json stems otherwise). A missing folder is an
// empty list, so an overlay may carry only what it changes.
func listLayer(fsys fs.FS, dir, kind string, man *manifestFile, folders bool) ([]string, error) {
	if man != nil {
		list := man.Projectiles
		if kind == "ships" {
			list = man.Ships
		}
		for _, name := range list {
			if name == "" || strings.ContainsAny(name, `/\`) || !fs.ValidPath(name) {
				return nil, fmt.Errorf("%s: bad %s entry %q", path.Join(dir, "manifest.json"), kind, name)
			}
		}
		return list, nil
	}
	ents, err := fs.ReadDir(fsys, path.Join(dir, kind))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		switch {
		case folders && e.IsDir():
			out = append(out, e.Name())
		case !folders && !e.IsDir() && strings.HasSuffix(e.Name(), ".json"):
			out = append(out, strings.TrimSuffix(e.Name(), ".json"))
		}
	}
	return out, nil
}

// checkProjectileRefs checks that every projectile a class names (pulse
// weapons' bolts, torpedo ammo) is loaded, in this layer or one below.
func (r *Registry) checkProjectileRefs() error {
	for _, c := range r.classes {
		for i := range c.Subsystems {
			d := c.Subsystems[i].Data
			if d == nil || d.Projectile == "" {
				continue
			}
			if _, ok := r.byStem[d.Projectile]; !ok {
				return fmt.Errorf("%s: subsystem %q: projectile %q is not loaded", path.Join(c.Dir, "subsystems.json"), d.Name, d.Projectile)
			}
		}
		for _, a := range c.TorpedoAmmo {
			if _, ok := r.byStem[a.Projectile]; a.Projectile != "" && !ok {
				return fmt.Errorf("%s: torpedo_ammo[%d]: projectile %q is not loaded", path.Join(c.Dir, "ship.json"), a.Index, a.Projectile)
			}
		}
	}
	return nil
}

func validateProjectile(p *Projectile) error {
	switch {
	case p.Name == "":
		return errors.New("name is empty")
	case p.NetTypeID < 1 || p.NetTypeID > 255:
		// It is the species byte of a torpedo object; 0 means unknown.
		return fmt.Errorf("net_type_id %d out of range 1..255", p.NetTypeID)
	case p.Damage < 0 || p.LaunchSpeed < 0 || p.Lifetime < 0 || p.GuidanceLifetime < 0:
		return errors.New("damage, launch_speed, lifetime and guidance_lifetime must not be negative")
	case p.DamageRadiusFactor < 0 || p.BoltLength != nil && *p.BoltLength < 0 || p.BoltWidth != nil && *p.BoltWidth < 0:
		return errors.New("damage_radius_factor, bolt_length and bolt_width must not be negative")
	}
	return nil
}
