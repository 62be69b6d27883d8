package modimport

import (
	"fmt"
	"path"
	"strings"
)

// Projectile scripts (Tactical/Projectiles/<T>.py, mods.md 3.7): Create(pTorp)
// sets the values on the torpedo object, and module functions return
// constants.

// projectile is what the pack's projectiles/<stem>.json holds.
type projectile struct {
	file          string
	script        string // the file stem as stored: "PhotonTorpedo"
	name          string
	launchSound   string
	damage        float32
	radiusFactor  float32
	launchSpeed   float32
	powerCost     float32
	guidance      float32
	maxAngAccel   float32
	lifetime      float32
	scriptNetType int
	boltLength    *float32
	boltWidth     *float32
}

// readProjectile reads one projectile script. torpConsts are the
// SpeciesToTorp constants its SetNetType names.
func readProjectile(src *scripts, stored string, torpConsts map[string]int) (*projectile, []Finding, error) {
	stmts, err := src.parse(stored)
	if err != nil {
		return nil, nil, err
	}
	base := path.Base(stored)
	pr := &projectile{file: stored, script: strings.TrimSuffix(base, path.Ext(base))}
	var notes []Finding
	note := func(line int, format string, args ...any) {
		notes = append(notes, Finding{Level: LevelWarning, File: stored, Line: line, Msg: fmt.Sprintf(format, args...),
			Fix: "write the value as a literal or a call of a function returning one; until then the pack holds 0 for it"})
	}
	// Module functions that return one literal.
	funcs := map[string]value{}
	var create *stmt
	for _, s := range stmts {
		if !s.starts("def") || len(s.toks) < 2 {
			continue
		}
		name := s.toks[1].text
		if name == "Create" {
			create = s
			continue
		}
		for _, b := range s.body {
			if len(b.toks) == 1 && b.toks[0].kind == tString {
				continue // a docstring
			}
			if b.starts("return") {
				if v, err := parseExpr(b.toks[1:]); err == nil && (v.kind == vNumber || v.kind == vString) {
					funcs[name] = v
				}
			}
			break
		}
	}
	if create == nil {
		return nil, notes, errAt(0, "no Create(pTorp)")
	}
	torp := "pTorp"
	if len(create.toks) > 4 && create.toks[3].kind == tName {
		torp = create.toks[3].text
	}
	// resolve reads a literal or a call of a module function returning one.
	resolve := func(v value) (value, bool) {
		switch {
		case v.kind == vNumber || v.kind == vString:
			return v, true
		case v.kind == vCall && len(v.items) == 0:
			r, ok := funcs[v.str]
			return r, ok
		}
		return value{}, false
	}
	set := map[string]value{}
	for _, s := range create.body {
		c, ok := callOf(s)
		if !ok {
			continue
		}
		recv, method := splitCallee(c.str)
		if recv != torp {
			continue
		}
		switch method {
		case "SetDamage", "SetDamageRadiusFactor", "SetGuidanceLifetime", "SetMaxAngularAccel", "SetLifetime":
			if len(c.items) != 1 {
				note(s.line, "%s with %d arguments", method, len(c.items))
				continue
			}
			v, ok := resolve(c.items[0])
			if !ok || v.kind != vNumber {
				note(s.line, "%s(%s) not read", method, c.items[0].describe())
				continue
			}
			set[method] = v
		case "SetNetType":
			if len(c.items) == 1 {
				switch a := c.items[0]; a.kind {
				case vNumber:
					pr.scriptNetType = int(a.num)
				case vName:
					if n, ok := torpConsts[a.str[strings.LastIndexByte(a.str, '.')+1:]]; ok {
						pr.scriptNetType = n
					} else {
						note(s.line, "SetNetType(%s): not a SpeciesToTorp constant", a.str)
					}
				}
			}
		case "CreateDisruptorModel":
			if len(c.items) >= 4 && c.items[2].kind == vNumber && c.items[3].kind == vNumber {
				l, w := f32of(c.items[2]), f32of(c.items[3])
				pr.boltLength, pr.boltWidth = &l, &w
			}
		}
	}
	num := func(setter, getter string) float32 {
		if v, ok := set[setter]; ok {
			return f32of(v)
		}
		if v, ok := funcs[getter]; ok && v.kind == vNumber {
			return f32of(v)
		}
		return 0
	}
	pr.damage = num("SetDamage", "GetDamage")
	pr.radiusFactor = f32of(set["SetDamageRadiusFactor"])
	pr.guidance = num("SetGuidanceLifetime", "GetGuidanceLifetime")
	pr.maxAngAccel = num("SetMaxAngularAccel", "GetMaxAngularAccel")
	if v, ok := set["SetLifetime"]; ok {
		pr.lifetime = f32of(v) // only a script that sets it has a lifetime of its own
	}
	pr.launchSpeed = num("", "GetLaunchSpeed")
	pr.powerCost = num("", "GetPowerCost")
	if v, ok := funcs["GetName"]; ok && v.kind == vString && v.str != "" {
		pr.name = v.str
	} else {
		return nil, notes, errAt(create.line, "no GetName() returning a name")
	}
	// The server's loader refuses negative values (engine/ships).
	for _, v := range []struct {
		what string
		v    float32
	}{{"damage", pr.damage}, {"launch speed", pr.launchSpeed}, {"lifetime", pr.lifetime}, {"guidance lifetime", pr.guidance},
		{"damage radius factor", pr.radiusFactor}} {
		if v.v < 0 {
			return nil, notes, errAt(create.line, "a negative %s (%v)", v.what, v.v)
		}
	}
	if pr.boltLength != nil && (*pr.boltLength < 0 || *pr.boltWidth < 0) {
		return nil, notes, errAt(create.line, "a negative bolt length or width")
	}
	if v, ok := funcs["GetLaunchSound"]; ok && v.kind == vString {
		pr.launchSound = v.str
	}
	return pr, notes, nil
}

// jsonFor returns projectiles/<stem>.json for net type nt.
func (pr *projectile) jsonFor(nt int) object {
	var length, width any
	if pr.boltLength != nil {
		length, width = *pr.boltLength, *pr.boltWidth
	}
	return object{
		{"name", pr.name}, {"damage", pr.damage}, {"launch_speed", pr.launchSpeed}, {"power_cost", pr.powerCost},
		{"guidance_lifetime", pr.guidance}, {"max_angular_accel", pr.maxAngAccel}, {"lifetime", pr.lifetime},
		{"damage_radius_factor", pr.radiusFactor}, {"net_type_id", nt}, {"script", pr.script},
		{"script_net_type", pr.scriptNetType}, {"launch_sound", pr.launchSound},
		{"bolt_length", length}, {"bolt_width", width},
	}
}
