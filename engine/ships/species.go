package ships

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// TablesFile is the species-table file of a data pack, beside
// manifest.json: the mod's SpeciesToShip, SpeciesToTorp and
// SpeciesToSystem tables as the pack was built from them (mods.md 3.2
// rule 2; the stock tables are vectors/tables.json).
const TablesFile = "tables.json"

// SpeciesTables is a pack's tables.json. One species table holds per game
// (mods.md 7.3): a layer that carries one decides which species the
// classes of the layers below it may keep (see Overlay).
type SpeciesTables struct {
	// Source says what the tables were read from (informational).
	Source          string      `json:"source"`
	SpeciesToShip   ShipTable   `json:"species_to_ship"`
	SpeciesToTorp   TorpTable   `json:"species_to_torp"`
	SpeciesToSystem SystemTable `json:"species_to_system"`
	// CompiledHashes are the stock FileHashes (handshake.md 3.2) of the
	// compiled tables (SpeciesToShip.pyc, SpeciesToTorp.pyc,
	// SpeciesToSystem.pyc) found beside the sources, as "0x%08X" by file
	// name, so the server can tie the pack to its clients' tables
	// (mods.md 3.2 rule 3, 7.3). Empty when the folder held only sources.
	CompiledHashes map[string]string `json:"compiled_hashes"`
}

// ShipTable is Multiplayer/SpeciesToShip.py: row i describes species i,
// the species byte of ObjCreate (mods.md 1, 3.2).
type ShipTable struct {
	MaxShips        int       `json:"max_ships"`
	MaxFlyableShips int       `json:"max_flyable_ships"`
	Entries         []ShipRow `json:"entries"`
}

// ShipRow is one kSpeciesTuple row.
type ShipRow struct {
	Index int `json:"index"`
	// Constant is the module constant whose value is Index ("AKIRA"), ""
	// when none.
	Constant string `json:"constant"`
	// ShipScript is the ship script (module ships.<ShipScript>), "" for a
	// None row.
	ShipScript string `json:"ship_script"`
	// DisplayName is the extra string some rows carry after the script
	// (stock row 16), "" for none.
	DisplayName string `json:"display_name"`
	// IconSpecies is the App.SPECIES_* name or the integer, as written.
	IconSpecies string `json:"icon_species"`
	Side        string `json:"side"`
	Class       int    `json:"class"`
	// Flyable: offered in ship select (Index < MaxFlyableShips).
	Flyable bool `json:"flyable"`
}

// TorpTable is Multiplayer/SpeciesToTorp.py: row j is the net type of a
// torpedo body (class 0x8009).
type TorpTable struct {
	MaxTorps int       `json:"max_torps"`
	Entries  []TorpRow `json:"entries"`
}

// TorpRow is one SpeciesToTorp row: the projectile script receivers build
// a torpedo of this net type from.
type TorpRow struct {
	Index    int    `json:"index"`
	Constant string `json:"constant"`
	Script   string `json:"script"`
}

// SystemTable is Multiplayer/SpeciesToSystem.py: the star-system index of
// MISSION_INIT (missions.md 2.3).
type SystemTable struct {
	MaxSystems int         `json:"max_systems"`
	Entries    []SystemRow `json:"entries"`
}

// SystemRow is one SpeciesToSystem row.
type SystemRow struct {
	Index    int    `json:"index"`
	Constant string `json:"constant"`
	Script   string `json:"script"`
}

// ShipScript returns the ship script of species i, if the table has a
// usable row for it (1 <= i < MaxShips, as receivers accept).
func (t *SpeciesTables) ShipScript(i int) (string, bool) {
	if t == nil || i < 1 || i >= t.SpeciesToShip.MaxShips {
		return "", false
	}
	for _, r := range t.SpeciesToShip.Entries {
		if r.Index == i {
			return r.ShipScript, r.ShipScript != ""
		}
	}
	return "", false
}

// TorpScript returns the projectile script of net type j.
func (t *SpeciesTables) TorpScript(j int) (string, bool) {
	if t == nil || j < 1 || j >= t.SpeciesToTorp.MaxTorps {
		return "", false
	}
	for _, r := range t.SpeciesToTorp.Entries {
		if r.Index == j {
			return r.Script, r.Script != ""
		}
	}
	return "", false
}

// Hashes returns CompiledHashes as numbers.
func (t *SpeciesTables) Hashes() (map[string]uint32, error) {
	if t == nil || len(t.CompiledHashes) == 0 {
		return nil, nil
	}
	out := make(map[string]uint32, len(t.CompiledHashes))
	for name, h := range t.CompiledHashes {
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimPrefix(h, "0x"), "0X"), 16, 32)
		if err != nil {
			return nil, fmt.Errorf("compiled_hashes %s: %q is not a 0x hex hash", name, h)
		}
		out[name] = uint32(v)
	}
	return out, nil
}

func (t *SpeciesTables) validate() error {
	st := &t.SpeciesToShip
	if st.MaxShips < 1 || st.MaxShips > 256 || st.MaxFlyableShips < 0 || st.MaxFlyableShips > st.MaxShips {
		return fmt.Errorf("max_ships %d, max_flyable_ships %d: want 1 <= flyable <= ships <= 256", st.MaxShips, st.MaxFlyableShips)
	}
	// Torpedo net types and system indices are one byte on the wire too
	// (the species byte of a torpedo body, MISSION_INIT's system), and a
	// hand-written table is as hostile as an imported one.
	if m := t.SpeciesToTorp.MaxTorps; m < 0 || m > 256 {
		return fmt.Errorf("max_torps %d: want 0..256", m)
	}
	if m := t.SpeciesToSystem.MaxSystems; m < 0 || m > 256 {
		return fmt.Errorf("max_systems %d: want 0..256", m)
	}
	for _, n := range []struct {
		what string
		rows int
	}{{"species_to_ship", len(st.Entries)}, {"species_to_torp", len(t.SpeciesToTorp.Entries)}, {"species_to_system", len(t.SpeciesToSystem.Entries)}} {
		if n.rows > 256 {
			return fmt.Errorf("%s has %d entries, at most 256", n.what, n.rows)
		}
	}
	for i, r := range st.Entries {
		if r.Index != i {
			return fmt.Errorf("species_to_ship entry %d has index %d", i, r.Index)
		}
	}
	for i, r := range t.SpeciesToTorp.Entries {
		if r.Index != i {
			return fmt.Errorf("species_to_torp entry %d has index %d", i, r.Index)
		}
	}
	if _, err := t.Hashes(); err != nil {
		return err
	}
	return nil
}

// loadTables reads dir/tables.json; nil without one.
func loadTables(fsys fs.FS, dir string) (*SpeciesTables, error) {
	var t SpeciesTables
	err := readJSON(fsys, path.Join(dir, TablesFile), &t)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := t.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path.Join(dir, TablesFile), err)
	}
	return &t, nil
}

// replaceBelow drops every class and projectile of the lower layers: a
// layer with its own species tables is the whole ship data of its game.
// Keeping a vanilla class where the mod's table names the same script
// would model a mod's changed (or unreadable, hence relay-only) class with
// stock data, and a renumbered table gives vanilla species numbers other
// meanings (mods.md 7.3). The importer writes every class it can into the
// pack, stock ones included.
func (r *Registry) replaceBelow() {
	clear(r.classes)
	clear(r.projectiles)
	clear(r.byStem)
}

// SpeciesTables returns the species tables of the topmost layer that has
// them, or nil (the embedded vanilla data has none: its tables are the
// stock ones).
func (r *Registry) SpeciesTables() *SpeciesTables { return r.tables }
