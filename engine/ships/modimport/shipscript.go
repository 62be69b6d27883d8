package modimport

import (
	"fmt"
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
		return st, fmt.Errorf("no GetShipStats()")
	}
	st.line = fn.line
	dicts := map[string]value{}
	var stats *value
	for _, s := range fn.body {
		if name, rhs, ok := assignment(s); ok {
			v, err := parseExpr(rhs)
			if err != nil {
				return st, fmt.Errorf("line %d: %v", s.line, err)
			}
			dicts[name] = v
			continue
		}
		if s.starts("return") {
			v, err := parseExpr(s.toks[1:])
			if err != nil {
				return st, fmt.Errorf("line %d: %v", s.line, err)
			}
			if v.kind == vName {
				d, ok := dicts[v.str]
				if !ok {
					return st, fmt.Errorf("line %d: returns %s, not a dictionary assigned before", s.line, v.str)
				}
				v = d
			}
			if v.kind != vDict {
				return st, fmt.Errorf("line %d: returns %s, not a dictionary", s.line, v.describe())
			}
			stats = &v
			break
		}
	}
	if stats == nil {
		return st, fmt.Errorf("line %d: GetShipStats returns no dictionary literal", fn.line)
	}
	str := func(key string) (string, bool, error) {
		v, ok := stats.lookup(key)
		if !ok {
			return "", false, nil
		}
		if v.kind != vString {
			return "", true, fmt.Errorf("line %d: %q is %s, not a string", v.line, key, v.describe())
		}
		return v.str, true, nil
	}
	if st.name, _, err = str("Name"); err != nil {
		return st, err
	}
	var ok bool
	if st.hardpoint, ok, err = str("HardpointFile"); err != nil {
		return st, err
	} else if !ok {
		return st, fmt.Errorf("line %d: no \"HardpointFile\"", stats.line)
	}
	if st.normalHP, _, err = str("NormalHP"); err != nil {
		return st, err
	}
	if v, ok := stats.lookup("Species"); ok {
		switch v.kind {
		case vNumber:
			st.species, st.hasSpecies = int(v.num), true
		case vName:
			c := v.str[strings.LastIndexByte(v.str, '.')+1:]
			if n, ok := shipConsts[c]; ok {
				st.species, st.hasSpecies, st.speciesSource = n, true, v.str
			} else {
				return st, fmt.Errorf("line %d: \"Species\" is %s, not a SpeciesToShip constant", v.line, v.str)
			}
		default:
			return st, fmt.Errorf("line %d: \"Species\" is %s", v.line, v.describe())
		}
	}
	return st, nil
}
