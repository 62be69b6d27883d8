package modimport

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bcserver/bcserver/engine/ships"
)

// The species tables of Scripts/Multiplayer, evaluated statically
// (mods.md 3.2): integer constants, then one kSpeciesTuple literal whose
// rows may name the constants, App.SPECIES_* names, strings and None.
// Anything that could compute or extend the tuple makes the table
// unusable, and the pack is not built.

const tupleName = "kSpeciesTuple"

// tableModule is what a table script defines.
type tableModule struct {
	file      string
	consts    map[string]int
	constLine map[string]int
	order     []string // constant names in file order
	tuple     value
	found     bool
	line      int // of the kSpeciesTuple assignment
}

// fixTable is what to do about a table the importer cannot evaluate.
const fixTable = "write the table as the stock file does: integer constants, then one kSpeciesTuple literal; no pack is written until then"

// errTable wraps every reason a table is unusable.
var errTable = errors.New("species table not usable")

func readTableModule(src *scripts, stored string, rep *Report) (*tableModule, error) {
	stmts, err := src.parse(stored)
	if err != nil {
		line, msg, fix := explain(err)
		if fix == "" {
			fix = fixTable
		}
		return nil, fmt.Errorf("%w: %w", errTable, &placedError{stored, line, msg, fix})
	}
	m := &tableModule{file: stored, consts: map[string]int{}, constLine: map[string]int{}}
	fail := func(line int, format string, args ...any) error {
		return tableErr(stored, line, fixTable, format, args...)
	}
	for _, s := range stmts {
		switch {
		case s.starts("import") || s.starts("from"):
		case s.starts("def"):
			// Functions (GetShipFromSpecies, InitObject) run on the
			// client; they are not data.
		case s.header():
			return nil, fail(s.line, "a %q block at module level may change the table", s.toks[0].text)
		default:
			name, rhs, ok := assignment(s)
			if !ok {
				if mentions(s, tupleName) {
					return nil, fail(s.line, "a statement acting on %s", tupleName)
				}
				rep.add(LevelWarning, stored, s.line, "", "nothing to do if it leaves the table alone; if it changes it, write the change into the kSpeciesTuple literal", "statement not evaluated")
				continue
			}
			v, err := parseExpr(rhs)
			if name == tupleName {
				if m.found {
					return nil, fail(s.line, "%s is assigned twice", tupleName)
				}
				if err != nil || v.kind != vTuple {
					return nil, fail(s.line, "%s is not a tuple literal", tupleName)
				}
				m.tuple, m.found, m.line = v, true, s.line
				continue
			}
			if err != nil {
				if mentions(s, tupleName) {
					return nil, fail(s.line, "%s computed", name)
				}
				rep.add(LevelWarning, stored, s.line, "", "nothing to do unless the rows use it; then write its value as a number", "%s: value not evaluated", name)
				continue
			}
			n, ok := m.intOf(v)
			if !ok {
				continue // strings, App objects: not table data
			}
			if _, dup := m.consts[name]; !dup {
				m.order = append(m.order, name)
			}
			m.consts[name] = n
			m.constLine[name] = s.line
		}
	}
	if !m.found {
		return nil, tableErr(stored, 0, fixTable, "no %s", tupleName)
	}
	return m, nil
}

// tableErr is an unusable table at a file and line.
func tableErr(file string, line int, fix, format string, args ...any) error {
	return fmt.Errorf("%w: %w", errTable, &placedError{file: file, line: line, msg: fmt.Sprintf(format, args...), fix: fix})
}

// maxInt bounds the integers of a table: constants are species and net
// type numbers, class numbers; anything past 32 bits is not one.
const maxInt = 1 << 31

// mentions reports whether a statement (or its block) names word.
func mentions(s *stmt, word string) bool {
	for _, t := range s.toks {
		if t.kind == tName && t.text == word {
			return true
		}
	}
	for _, b := range s.body {
		if mentions(b, word) {
			return true
		}
	}
	return false
}

// intOf evaluates an integer literal or a constant defined earlier.
func (m *tableModule) intOf(v value) (int, bool) {
	switch v.kind {
	case vNumber:
		if v.isInt && v.num > -maxInt && v.num < maxInt {
			return int(v.num), true
		}
	case vName:
		n, ok := m.consts[v.str]
		return n, ok
	}
	return 0, false
}

// constFor names the first constant whose value is n.
func (m *tableModule) constFor(n int) string {
	for _, name := range m.order {
		if m.consts[name] == n {
			return name
		}
	}
	return ""
}

func (m *tableModule) need(name string) (int, error) {
	n, ok := m.consts[name]
	if !ok {
		return 0, tableErr(m.file, 0, fixTable, "no %s constant", name)
	}
	return n, nil
}

// byteBound checks a MAX_* constant of a table whose index is one byte on
// the wire: at most 256 rows can ever be named.
func (m *tableModule) byteBound(name string, n int, what string) error {
	if n < 1 || n > 256 {
		return tableErr(m.file, m.constLine[name], fmt.Sprintf("set %s to at most 256 (and at least 1)", name),
			"%s = %d: %s is one byte on the wire (0..255)", name, n, what)
	}
	return nil
}

// readShipTable evaluates SpeciesToShip.py (mods.md 3.2).
func readShipTable(src *scripts, stored string, rep *Report) (ships.ShipTable, *tableModule, error) {
	var t ships.ShipTable
	m, err := readTableModule(src, stored, rep)
	if err != nil {
		return t, nil, err
	}
	if t.MaxShips, err = m.need("MAX_SHIPS"); err != nil {
		return t, nil, err
	}
	if t.MaxFlyableShips, err = m.need("MAX_FLYABLE_SHIPS"); err != nil {
		return t, nil, err
	}
	// The species byte is one byte on the wire; a stock receiver takes
	// 128..255 as negative (mods.md 4.1), which a mod's table handles.
	if err := m.byteBound("MAX_SHIPS", t.MaxShips, "the species"); err != nil {
		return t, nil, err
	}
	if t.MaxFlyableShips > t.MaxShips || t.MaxFlyableShips < 0 {
		return t, nil, tableErr(stored, m.constLine["MAX_FLYABLE_SHIPS"], "set MAX_FLYABLE_SHIPS between 0 and MAX_SHIPS",
			"MAX_FLYABLE_SHIPS = %d with MAX_SHIPS = %d", t.MaxFlyableShips, t.MaxShips)
	}
	for i, row := range m.tuple.items {
		if i >= 256 {
			rep.add(LevelWarning, stored, row.line, "", "nothing to do: such rows are never used", "rows from 256 on cannot be named by the species byte; ignored")
			break
		}
		r, err := m.shipRow(i, row)
		if err != nil {
			return t, nil, tableErr(stored, row.line, fixTable, "row %d: %s", i, err.Error())
		}
		r.Flyable = i > 0 && i < t.MaxFlyableShips && r.ShipScript != ""
		t.Entries = append(t.Entries, r)
	}
	return t, m, nil
}

func (m *tableModule) shipRow(i int, row value) (ships.ShipRow, error) {
	r := ships.ShipRow{Index: i, Constant: m.constFor(i)}
	if row.kind != vTuple || len(row.items) < 4 {
		return r, errors.New("want (script, icon species, side, class)")
	}
	it := row.items
	switch it[0].kind {
	case vString:
		r.ShipScript = it[0].str
	case vNone:
	default:
		return r, fmt.Errorf("script is %s", it[0].describe())
	}
	// A string in [1] is a display name (stock row 16): icon, side and
	// class move one place on.
	if it[1].kind == vString {
		r.DisplayName = it[1].str
		it = it[1:]
		if len(it) < 4 {
			return r, errors.New("a display name but no class")
		}
	}
	switch it[1].kind {
	case vName:
		if n, ok := m.consts[it[1].str]; ok {
			r.IconSpecies = strconv.Itoa(n)
		} else {
			r.IconSpecies = strings.TrimPrefix(it[1].str, "App.")
		}
	case vNumber:
		r.IconSpecies = strconv.Itoa(int(it[1].num))
	default:
		return r, fmt.Errorf("icon species is %s", it[1].describe())
	}
	if it[2].kind != vString {
		return r, fmt.Errorf("side is %s", it[2].describe())
	}
	r.Side = it[2].str
	c, ok := m.intOf(it[3])
	if !ok {
		return r, fmt.Errorf("class is %s", it[3].describe())
	}
	r.Class = c
	return r, nil
}

// readPairTable evaluates SpeciesToTorp.py or SpeciesToSystem.py: rows
// (CONST, "Script"), the row's position being its index.
func readPairTable(src *scripts, stored, maxName string, rep *Report) (max int, rows [][3]string, m *tableModule, err error) {
	m, err = readTableModule(src, stored, rep)
	if err != nil {
		return 0, nil, nil, err
	}
	if max, err = m.need(maxName); err != nil {
		return 0, nil, nil, err
	}
	if err := m.byteBound(maxName, max, "the index"); err != nil {
		return 0, nil, nil, err
	}
	for i, row := range m.tuple.items {
		if i >= 256 {
			rep.add(LevelWarning, stored, row.line, "", "nothing to do: such rows are never used", "rows from 256 on cannot be named by a byte; ignored")
			break
		}
		if row.kind != vTuple || len(row.items) < 2 {
			return 0, nil, nil, tableErr(stored, row.line, fixTable, "row %d: want (constant, script)", i)
		}
		n, ok := m.intOf(row.items[0])
		if !ok {
			return 0, nil, nil, tableErr(stored, row.line, fixTable, "row %d: %s is not a constant", i, row.items[0].describe())
		}
		if n != i {
			rep.add(LevelWarning, stored, row.line, "", "nothing to do if the position is meant; else move the row", "row %d holds constant value %d; receivers use the position", i, n)
		}
		script := ""
		switch row.items[1].kind {
		case vString:
			script = row.items[1].str
		case vNone:
		default:
			return 0, nil, nil, tableErr(stored, row.line, fixTable, "row %d: script is %s", i, row.items[1].describe())
		}
		rows = append(rows, [3]string{strconv.Itoa(i), m.constFor(i), script})
	}
	return max, rows, m, nil
}

// tableConsts returns a table module's constants (for SetNetType and
// "Species" references), empty when the table failed.
func tableConsts(m *tableModule) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m.consts
}
