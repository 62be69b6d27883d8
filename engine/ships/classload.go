package ships

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
)

// Loading a class from its folder (docs/mod-packs.md): the four files are
// read, checked against each other and indexed into a Class.

// classFiles are the four files of one class folder.
type classFiles struct {
	ship   ShipData
	power  PowerData
	subs   []SubsystemData
	serial []serialEntryFile
}

// loadClass reads and validates the class folder dir (an fs path).
func loadClass(fsys fs.FS, dir string) (*Class, error) {
	var f classFiles
	for _, x := range []struct {
		name string
		v    any
	}{
		{"ship.json", &f.ship},
		{"power.json", &f.power},
		{"subsystems.json", &f.subs},
		{"serialization.json", &f.serial},
	} {
		if err := readJSON(fsys, path.Join(dir, x.name), x.v); err != nil {
			return nil, err
		}
	}
	c, err := buildClass(&f, dir)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// buildClass validates the decoded files and assembles the Class. Errors
// name the file that is wrong.
func buildClass(f *classFiles, dir string) (*Class, error) {
	shipFile := path.Join(dir, "ship.json")
	powerFile := path.Join(dir, "power.json")
	subsFile := path.Join(dir, "subsystems.json")
	serialFile := path.Join(dir, "serialization.json")

	if err := validateShip(&f.ship); err != nil {
		return nil, fmt.Errorf("%s: %w", shipFile, err)
	}
	if err := validatePower(&f.power); err != nil {
		return nil, fmt.Errorf("%s: %w", powerFile, err)
	}

	data := make(map[string]subsystemData, len(f.subs))
	for i := range f.subs {
		s := &f.subs[i]
		// The type is parsed here, once: the class keeps it typed.
		typ, ok := ParseSubsystemType(s.Type)
		switch {
		case s.Name == "":
			return nil, fmt.Errorf("%s: subsystem %d has no name", subsFile, i)
		case data[s.Name].d != nil:
			return nil, fmt.Errorf("%s: subsystem name %q is used twice", subsFile, s.Name)
		case !ok || typ.IsWeaponSystem():
			return nil, fmt.Errorf("%s: subsystem %q: unknown type %q", subsFile, s.Name, s.Type)
		case !(s.MaxCondition > 0):
			return nil, fmt.Errorf("%s: subsystem %q: max_condition %v must be positive", subsFile, s.Name, s.MaxCondition)
		case typ == TypeEngine && engineSystemType(s.EngineType) == NoType:
			return nil, fmt.Errorf("%s: engine %q: engine_type %q, want impulse or warp", subsFile, s.Name, s.EngineType)
		case typ != TypeEngine && s.EngineType != "":
			return nil, fmt.Errorf("%s: subsystem %q: engine_type is only for type engine", subsFile, s.Name)
		}
		data[s.Name] = subsystemData{s, typ}
	}

	// The start index is one byte on the wire (simulation.md 4.3).
	if len(f.serial) == 0 || len(f.serial) > 255 {
		return nil, fmt.Errorf("%s: %d entries, want 1..255", serialFile, len(f.serial))
	}
	// Sized ahead: growing them by appends was half of what loading the
	// stock classes allocated, on the way to the first answered query.
	n := len(f.serial)
	for i := range f.serial {
		n += len(f.serial[i].Children)
	}
	c := &Class{
		ShipData: f.ship, Power: f.power, Dir: dir,
		Hull: -1, Reactor: -1, Repair: -1, ShieldGenerator: -1, PowerEntry: -1,
		Entries:    make([]Entry, 0, len(f.serial)),
		Subsystems: make([]Subsystem, 0, n),
		byName:     make(map[string]int, n),
	}
	for ei := range f.serial {
		if err := c.addEntry(&f.serial[ei], data); err != nil {
			return nil, fmt.Errorf("%s: entry %d (%q): %w", serialFile, ei, f.serial[ei].Name, err)
		}
	}
	if c.Hull < 0 || c.Subsystems[c.Hull].Child >= 0 {
		// A ship dies when its hull reaches 0 (simulation.md 5.4).
		return nil, fmt.Errorf("%s: no top-level entry of subsystems.json type hull", serialFile)
	}
	if err := c.indexOffsets(); err != nil {
		return nil, fmt.Errorf("%s: %w", serialFile, err)
	}
	if n := f.ship.SubsystemCount; n != 0 && n != len(c.Subsystems) {
		return nil, fmt.Errorf("%s: subsystem_count %d, but %s lists %d subsystems", shipFile, n, serialFile, len(c.Subsystems))
	}
	if err := validateAmmo(&f.ship); err != nil {
		return nil, fmt.Errorf("%s: %w", shipFile, err)
	}
	if err := c.resolveWeaponSystems(); err != nil {
		return nil, fmt.Errorf("%s: %w", shipFile, err)
	}
	for i := range f.subs {
		if _, ok := c.byName[f.subs[i].Name]; !ok {
			c.Unlisted = append(c.Unlisted, f.subs[i].Name)
		}
	}
	return c, nil
}

// subsystemData is a subsystems.json record and its type, parsed.
type subsystemData struct {
	d   *SubsystemData
	typ SubsystemType
}

// addEntry appends one serialization entry and its children.
func (c *Class) addEntry(e *serialEntryFile, data map[string]subsystemData) error {
	format, err := parseFormat(e.Format)
	if err != nil {
		return err
	}
	ei := len(c.Entries)
	own, err := c.addSubsystem(e.Name, e.MaxCondition, e.IDOffset, data, ei, -1)
	if err != nil {
		return err
	}
	typ := c.Subsystems[own].Type()
	// The power format carries the battery bytes, so it and the reactor
	// type must go together or the client reads the wrong byte count.
	if (format == FormatPower) != (typ == TypePower) && typ != NoType {
		return fmt.Errorf("format %s does not fit subsystems.json type %q", format, typ)
	}
	if format == FormatPower {
		if c.PowerEntry >= 0 {
			return fmt.Errorf("second power entry (first is %q)", c.Entries[c.PowerEntry].Name)
		}
		c.PowerEntry = ei
		c.Reactor = own
	}
	if format != FormatPowered && (e.NormalPower != 0 || e.PowerMode != 0) {
		return errors.New("normal_power/power_mode given on a non-powered entry")
	}
	if e.NormalPower < 0 {
		return fmt.Errorf("normal_power %v is negative", e.NormalPower)
	}
	for ci := range e.Children {
		ch := &e.Children[ci]
		i, err := c.addSubsystem(ch.Name, ch.MaxCondition, ch.IDOffset, data, ei, ci)
		if err != nil {
			return fmt.Errorf("child %d: %w", ci, err)
		}
		// An engine is a child of its system (data/README.md): one listed
		// under the other system would be damaged and repaired as a part
		// of the wrong one.
		if d := c.Subsystems[i].Data; d != nil && c.Subsystems[i].typ == TypeEngine && engineSystemType(d.EngineType) != typ {
			return fmt.Errorf("child %d: %s engine %q under a %q entry", ci, d.EngineType, ch.Name, typ)
		}
	}
	tail, weapon, err := entryTail(format, c.Subsystems[own:])
	if err != nil {
		return err
	}
	// A weapon system's container has no data of its own: its kind is its
	// weapons' (entryTail checked they agree).
	if weapon != NoWeapon {
		c.Subsystems[own].weapon = weapon
	}
	c.Entries = append(c.Entries, Entry{
		Name: e.Name, Format: format, Subsystem: own, Children: len(e.Children),
		NormalPower: e.NormalPower, PowerMode: e.PowerMode, Tail: tail, Weapon: weapon,
	})
	c.maxEntryLen = max(c.maxEntryLen, entryLen(&c.Entries[ei], false))
	return nil
}

// addSubsystem appends one subsystem and records the well-known ones.
func (c *Class) addSubsystem(name string, maxCond *float32, idOffset int, data map[string]subsystemData, entry, child int) (int, error) {
	if name == "" {
		return 0, errors.New("subsystem without a name")
	}
	if _, dup := c.byName[name]; dup {
		// Names key repair events and lookups; a repeat would be ambiguous.
		return 0, fmt.Errorf("subsystem %q listed twice", name)
	}
	d, typ := data[name].d, data[name].typ
	var mc float32
	switch {
	case maxCond != nil:
		mc = *maxCond
	case d != nil:
		mc = d.MaxCondition
	default:
		return 0, fmt.Errorf("subsystem %q is not in subsystems.json and gives no max_condition", name)
	}
	if !(mc > 0) {
		return 0, fmt.Errorf("subsystem %q: max_condition %v must be positive", name, mc)
	}
	i := len(c.Subsystems)
	c.Subsystems = append(c.Subsystems, Subsystem{Name: name, Entry: entry, Child: child, MaxCondition: mc, Data: d, IDOffset: idOffset,
		typ: typ, weapon: typ.Weapon()})
	if d != nil {
		c.Subsystems[len(c.Subsystems)-1].Position = runtimePosition(d, typ)
	}
	c.byName[name] = i
	switch {
	case typ == TypeHull && c.Hull < 0:
		c.Hull = i // "Hull" precedes "Bridge", which is also type hull
	case typ == TypeRepair && c.Repair < 0:
		c.Repair = i
	case typ == TypeShield && c.ShieldGenerator < 0:
		c.ShieldGenerator = i
	}
	return i, nil
}

// indexOffsets checks the id offsets and builds byOffset. They must number
// the subsystems 1..n, each once; a data folder that gives none (older
// data) gets the depth-first serialization order, the approximation used
// before the stock creation order was known.
func (c *Class) indexOffsets() error {
	n := len(c.Subsystems)
	given := 0
	for i := range c.Subsystems {
		if c.Subsystems[i].IDOffset != 0 {
			given++
		}
	}
	if given == 0 {
		for i := range c.Subsystems {
			c.Subsystems[i].IDOffset = i + 1
		}
	} else if given != n {
		return fmt.Errorf("id_offset given for %d of %d subsystems; give all or none", given, n)
	}
	c.byOffset = make([]int, n)
	for i := range c.byOffset {
		c.byOffset[i] = -1
	}
	for i := range c.Subsystems {
		k := c.Subsystems[i].IDOffset
		switch {
		case k < 1 || k > n:
			return fmt.Errorf("subsystem %q: id_offset %d out of range 1..%d", c.Subsystems[i].Name, k, n)
		case c.byOffset[k-1] >= 0:
			return fmt.Errorf("subsystems %q and %q share id_offset %d", c.Subsystems[c.byOffset[k-1]].Name, c.Subsystems[i].Name, k)
		}
		c.byOffset[k-1] = i
	}
	return nil
}

// resolveWeaponSystems checks weapon_systems against the subsystem list:
// each system is a listed top-level subsystem at its id_offset, and its
// weapons are that entry's children of the matching subsystem type.
func (c *Class) resolveWeaponSystems() error {
	c.WeaponSystems = make([]WeaponSystem, 0, len(c.ShipData.WeaponSystems))
	for k := range c.ShipData.WeaponSystems {
		d := &c.ShipData.WeaponSystems[k]
		typ, ok := ParseSubsystemType(d.Type)
		if !ok || !typ.IsWeaponSystem() {
			return fmt.Errorf("weapon_systems[%d] %q: unknown type %q", k, d.Name, d.Type)
		}
		want := typ.Weapon().WeaponType()
		si, ok := c.byName[d.Name]
		switch {
		case !ok:
			return fmt.Errorf("weapon_systems[%d]: %q is not a subsystem of serialization.json", k, d.Name)
		case c.Subsystems[si].Child >= 0:
			return fmt.Errorf("weapon_systems[%d]: %q is a child, not a top-level entry", k, d.Name)
		case d.IDOffset != c.Subsystems[si].IDOffset:
			return fmt.Errorf("weapon_systems[%d] %q: id_offset %d, but serialization.json gives %d", k, d.Name, d.IDOffset, c.Subsystems[si].IDOffset)
		}
		ws := WeaponSystem{WeaponSystemData: *d, Weapon: typ.Weapon(), Subsystem: si, Members: make([]int, 0, len(d.Weapons))}
		for _, w := range d.Weapons {
			wi, ok := c.byName[w]
			switch {
			case !ok:
				return fmt.Errorf("weapon_systems[%d] %q: weapon %q is not a subsystem", k, d.Name, w)
			case c.Subsystems[wi].Entry != c.Subsystems[si].Entry || c.Subsystems[wi].Child < 0:
				return fmt.Errorf("weapon_systems[%d] %q: weapon %q is not a child of the system", k, d.Name, w)
			case c.Subsystems[wi].Data != nil && c.Subsystems[wi].typ != want:
				return fmt.Errorf("weapon_systems[%d] %q: weapon %q has type %q, want %q", k, d.Name, w, c.Subsystems[wi].typ, want)
			}
			ws.Members = append(ws.Members, wi)
		}
		c.WeaponSystems = append(c.WeaponSystems, ws)
	}
	return nil
}

func validateAmmo(s *ShipData) error {
	if s.NumAmmoTypes != len(s.TorpedoAmmo) {
		return fmt.Errorf("num_ammo_types %d, but torpedo_ammo has %d entries", s.NumAmmoTypes, len(s.TorpedoAmmo))
	}
	// The ammo index is one byte of the tail and of TorpedoTypeChange.
	if len(s.TorpedoAmmo) > 255 {
		return fmt.Errorf("%d torpedo types, at most 255", len(s.TorpedoAmmo))
	}
	for i, a := range s.TorpedoAmmo {
		switch {
		case a.Index != i:
			return fmt.Errorf("torpedo_ammo[%d] has index %d, want %d", i, a.Index, i)
		case a.MaxTorpedoes < 0:
			return fmt.Errorf("torpedo_ammo[%d]: max_torpedoes %d is negative", i, a.MaxTorpedoes)
		}
	}
	return nil
}

func validateShip(s *ShipData) error {
	switch {
	case s.Name == "":
		return errors.New("name is empty")
	case s.SpeciesID < 1 || s.SpeciesID > 255:
		// The species is one byte of ObjCreate and 0 means unknown (3.3).
		return fmt.Errorf("species_id %d out of range 1..255", s.SpeciesID)
	case !(s.Mass > 0):
		// Mass divides the collision force (simulation.md 5.2).
		return fmt.Errorf("mass %v must be positive", s.Mass)
	case len(s.ShieldHP) != 6:
		return fmt.Errorf("shield_hp has %d facings, want 6", len(s.ShieldHP))
	case len(s.ShieldRecharge) != 6:
		return fmt.Errorf("shield_recharge has %d facings, want 6", len(s.ShieldRecharge))
	}
	return nil
}

func validatePower(p *PowerData) error {
	for _, v := range []struct {
		name string
		v    float32
	}{
		{"power_output", p.PowerOutput},
		{"main_battery_limit", p.MainBatteryLimit},
		{"backup_battery_limit", p.BackupBatteryLimit},
		{"main_conduit_capacity", p.MainConduitCapacity},
		{"backup_conduit_capacity", p.BackupConduitCapacity},
	} {
		if v.v < 0 {
			return fmt.Errorf("%s %v is negative", v.name, v.v)
		}
	}
	return nil
}
