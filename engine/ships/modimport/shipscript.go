package modimport

import (
	"strings"
)

// shipStats is what a ship script's GetShipStats() dictionary literal says
// (mods.md 3.3).
type shipStats struct {
	file          string
	line          int
	name          string // "Name": the LOD model name, informational
	hardpoint     string // "HardpointFile"
	normalHP      string // "NormalHP" (KM), "" when absent
	species       int    // "Species", a SpeciesToShip constant
	hasSpecies    bool
	speciesSource string // the constant as written
	// The lines of those values, for the report.
	hardpointLine, normalHPLine, speciesLine int
}

// readShipScript finds GetShipStats and reads its dictionary. Only that
// literal is read; a value that is neither a literal nor a table constant
// makes the class unsupported.
func readShipScript(src *scripts, stored string, shipConsts map[string]int) (shipStats, error) {
	st := shipStats{file: stored}
	stmts, err := src.parse(stored)
	if err != nil {
		return st, err
	}
	var fn *stmt
	for _, s := range stmts {
		if s.starts("def", "GetShipStats") {
			fn = s
		}
	}
	if fn == nil {
		return st, errAt(0, "no GetShipStats()")
	}
	st.line = fn.line
	dicts := map[string]value{}
	var stats *value
	for _, s := range fn.body {
		if name, rhs, ok := assignment(s); ok {
			v, err := parseExpr(rhs)
			if err != nil {
				return st, err
			}
			dicts[name] = v
			continue
		}
		if s.starts("return") {
			v, err := parseExpr(s.toks[1:])
			if err != nil {
				return st, err
			}
			if v.kind == vName {
				d, ok := dicts[v.str]
				if !ok {
					return st, errAt(s.line, "returns %s, not a dictionary assigned before", v.str)
				}
				v = d
			}
			if v.kind != vDict {
				return st, errAt(s.line, "returns %s, not a dictionary", v.describe())
			}
			stats = &v
			break
		}
	}
	if stats == nil {
		return st, errAt(fn.line, "GetShipStats returns no dictionary literal")
	}
	str := func(key string) (string, int, bool, error) {
		v, ok := stats.lookup(key)
		if !ok {
			return "", 0, false, nil
		}
		if v.kind != vString {
			return "", v.line, true, errAt(v.line, "%q is %s, not a string", key, v.describe())
		}
		return v.str, v.line, true, nil
	}
	if st.name, _, _, err = str("Name"); err != nil {
		return st, err
	}
	var ok bool
	if st.hardpoint, st.hardpointLine, ok, err = str("HardpointFile"); err != nil {
		return st, err
	} else if !ok {
		return st, errAt(stats.line, "no \"HardpointFile\"")
	}
	if st.normalHP, st.normalHPLine, _, err = str("NormalHP"); err != nil {
		return st, err
	}
	if v, ok := stats.lookup("Species"); ok {
		st.speciesLine = v.line
		switch v.kind {
		case vNumber:
			if !v.isInt || v.num < 0 || v.num > 255 {
				return st, errAt(v.line, "\"Species\" is %s, not a species number", v.str)
			}
			st.species, st.hasSpecies, st.speciesSource = int(v.num), true, v.str
		case vName:
			c := v.str[strings.LastIndexByte(v.str, '.')+1:]
			if n, ok := shipConsts[c]; ok {
				st.species, st.hasSpecies, st.speciesSource = n, true, v.str
			} else {
				return st, errAt(v.line, "\"Species\" is %s, not a SpeciesToShip constant", v.str)
			}
		default:
			return st, errAt(v.line, "\"Species\" is %s", v.describe())
		}
	}
	return st, nil
}
