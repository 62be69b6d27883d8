package modimport

import (
	"errors"
	"fmt"
	"strings"
)

// Hardpoint files (ships/Hardpoints/<stem>.py), the property editor's
// output, read by the grammar of mods.md 3.4: property blocks created with
// App.<Class>_Create("name"), their setters, helper vectors passed by name,
// RegisterLocalTemplate, and LoadPropertySet adding the names in order.

// prop is one registered property template.
type prop struct {
	class string // "HullProperty"
	name  string
	file  string // the hardpoint that registers it (a parent's, for an inheriting class)
	line  int
	// calls holds the last call of each setter, arguments resolved when
	// the call was made (a helper vector's value at that moment, rule 3).
	calls map[string]setterCall
	// indexed holds the setters keyed by their first argument (rule 2):
	// SetMaxShields, SetShieldChargePerSecond, SetMaxTorpedoes,
	// SetTorpedoScript.
	indexed map[string]map[string]setterCall
}

type setterCall struct {
	args []value
	line int
}

// indexedSetters are keyed by their first argument (mods.md 3.4 rule 2).
var indexedSetters = map[string]bool{
	"SetMaxShields": true, "SetShieldChargePerSecond": true, "SetMaxTorpedoes": true, "SetTorpedoScript": true,
}

// readSetters are the setters the pack reads (mods.md 3.5): their
// arguments must be literals; arithmetic there leaves the class out.
var readSetters = map[string]bool{
	"SetMaxCondition": true, "SetCritical": true, "SetTargetable": true, "SetPrimary": true, "SetPosition": true,
	"SetRepairComplexity": true, "SetDisabledPercentage": true, "SetRadius": true, "SetNormalPowerPerSecond": true,
	"SetMaxShields": true, "SetShieldChargePerSecond": true, "SetPowerOutput": true, "SetMainBatteryLimit": true,
	"SetBackupBatteryLimit": true, "SetMainConduitCapacity": true, "SetBackupConduitCapacity": true,
	"SetMaxSpeed": true, "SetMaxAccel": true, "SetMaxAngularAccel": true, "SetMaxAngularVelocity": true,
	"SetEngineType": true, "SetMaxRepairPoints": true, "SetNumRepairTeams": true, "SetCloakStrength": true,
	"SetWeaponSystemType": true, "SetNumAmmoTypes": true, "SetMaxTorpedoes": true, "SetTorpedoScript": true,
	"SetMaxDamage": true, "SetMaxCharge": true, "SetMinFiringCharge": true, "SetRechargeRate": true,
	"SetNormalDischargeRate": true, "SetMaxDamageDistance": true, "SetWeaponID": true, "SetOrientation": true,
	"SetArcWidthAngles": true, "SetArcHeightAngles": true, "SetModuleName": true, "SetCooldownTime": true,
	"SetReloadDelay": true, "SetMaxReady": true, "SetImmediateDelay": true, "SetDumbfire": true, "SetDirection": true,
	"SetMass": true, "SetRotationalInertia": true, "SetStationary": true, "SetDamageRadiusFactor": true,
	"SetGroups": true, "SetWidth": true, "SetLength": true, "SetPhaserWidth": true, "SetSingleFire": true,
	"SetAimedWeapon": true, "SetFiringChainString": true,
}

// added is one name LoadPropertySet adds, in order; name "" marks where
// an inheriting file calls its parent's LoadPropertySet.
type added struct {
	name string
	line int
	file string // the hardpoint whose LoadPropertySet adds it
	at   int    // for a repeat: how many adds were kept before it
}

// hardpoint is a parsed hardpoint file.
type hardpoint struct {
	file      string
	templates map[string]*prop // by property name, as registered
	adds      []added
	// parent is the module an inheriting file imports and reloads
	// (the __import__ of its editor guard), editorParent the
	// ParentPropertyScript it names for the editor.
	parent, editorParent         string
	parentLine, editorParentLine int
	// loadLine is the line of "def LoadPropertySet".
	loadLine int
	// inherits is set on a merged hardpoint (mods.md 3.4 rule 5): a name
	// added again is ignored (the preferred reading), not an error.
	inherits bool
	// repeats are the names added again in a merged hardpoint.
	repeats []added
	// unsupported holds the constructs outside the grammar, each with its
	// line: any makes the class relay-only (rule 6).
	unsupported []Finding
	warnings    []Finding
}

// fixGrammar is what to do about a construct outside the property
// editor's layout (mods.md 3.4 rule 6).
const fixGrammar = "the class is relayed without a damage model; to have it modelled, write this part as the property editor does: one block per property, literal values"

// fixIgnored is what to do about a construct the pack does not need.
const fixIgnored = "nothing to do: the pack does not use it"

func (h *hardpoint) bad(line int, format string, args ...any) {
	h.unsupported = append(h.unsupported, Finding{Level: LevelError, File: h.file, Line: line, Msg: fmt.Sprintf(format, args...), Fix: fixGrammar})
}

func (h *hardpoint) warn(line int, fix, format string, args ...any) {
	h.warnings = append(h.warnings, Finding{Level: LevelWarning, File: h.file, Line: line, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// helper variables of a hardpoint's module level.
type hpVars struct {
	props   map[string]*prop
	points  map[string]value // TGPoint3 helpers: a tuple of three numbers once set
	colors  map[string]bool
	strings map[string]string // TGString helpers
}

// readHardpoint parses one hardpoint file.
func readHardpoint(src *scripts, stored string) (*hardpoint, error) {
	stmts, err := src.parse(stored)
	if err != nil {
		return nil, err
	}
	h := &hardpoint{file: stored, templates: map[string]*prop{}}
	v := hpVars{props: map[string]*prop{}, points: map[string]value{}, colors: map[string]bool{}, strings: map[string]string{}}
	for _, s := range stmts {
		h.topLevel(s, &v)
	}
	return h, nil
}

func (h *hardpoint) topLevel(s *stmt, v *hpVars) {
	switch {
	case s.starts("import") || s.starts("from"):
		return
	case len(s.toks) == 1 && s.toks[0].kind == tString:
		return // a docstring
	case s.starts("def", "LoadPropertySet"):
		h.loadLine = s.line
		h.loadFn(s)
		return
	case s.starts("def"):
		name := "?"
		if len(s.toks) > 1 {
			name = s.toks[1].text
		}
		h.warn(s.line, fixIgnored, "function %s is not part of the hardpoint grammar (not called, so ignored)", name)
		return
	case s.starts("if"):
		if h.parentGuard(s) {
			return
		}
		h.bad(s.line, "a conditional at module level")
		return
	case s.header():
		h.bad(s.line, "a %q block", s.toks[0].text)
		return
	}
	if name, rhs, ok := assignment(s); ok {
		h.assign(s, name, rhs, v)
		return
	}
	call, err := parseExpr(s.toks)
	if err != nil || call.kind != vCall {
		if recv, method, ok := calleeOf(s); ok && v.props[recv] != nil {
			// A setter whose arguments are not literals (or not numbers
			// the game holds).
			what := " with an expression in its arguments"
			if err != nil && !errors.Is(err, errArithmetic) {
				_, msg, _ := explain(err)
				what = ": " + msg
			}
			if readSetters[method] {
				h.bad(s.line, "%s.%s%s", v.props[recv].name, method, what)
			} else {
				h.warn(s.line, fixIgnored, "%s.%s%s (not used by the pack, ignored)", v.props[recv].name, method, what)
			}
			return
		}
		h.bad(s.line, "a statement outside the hardpoint grammar")
		return
	}
	recv, method := splitCallee(call.str)
	switch {
	case call.str == "App.g_kModelPropertyManager.RegisterLocalTemplate":
		if len(call.items) != 1 || call.items[0].kind != vName || v.props[call.items[0].str] == nil {
			h.bad(s.line, "RegisterLocalTemplate of something that is not a property")
			return
		}
		p := v.props[call.items[0].str]
		h.templates[p.name] = p // a name registered again replaces the template
	case call.str == "reload":
		if h.parent == "" {
			h.bad(s.line, "reload() without a parent module imported before it")
		}
	case v.isPoint(recv):
		if method != "SetXYZ" || len(call.items) != 3 {
			h.bad(s.line, "%s on a TGPoint3", method)
			return
		}
		for _, a := range call.items {
			if a.kind != vNumber {
				h.bad(s.line, "SetXYZ with %s", a.describe())
				return
			}
		}
		v.points[recv] = value{kind: vTuple, items: call.items, line: s.line}
	case v.colors[recv]:
		// Colours do not enter the pack.
	case v.isString(recv):
		if method != "SetString" || len(call.items) != 1 || call.items[0].kind != vString {
			h.bad(s.line, "%s on a TGString", method)
			return
		}
		v.strings[recv] = call.items[0].str
	case v.props[recv] != nil:
		h.setter(s, v.props[recv], method, call.items, v)
	default:
		h.bad(s.line, "call of %s", call.str)
	}
}

func (v *hpVars) isPoint(name string) bool {
	_, ok := v.points[name]
	return ok
}

func (v *hpVars) isString(name string) bool {
	_, ok := v.strings[name]
	return ok
}

func (h *hardpoint) assign(s *stmt, name string, rhs []token, v *hpVars) {
	val, err := parseExpr(rhs)
	if err != nil {
		_, msg, _ := explain(err)
		h.bad(s.line, "%s = an expression (%s)", name, msg)
		return
	}
	delete(v.props, name)
	delete(v.points, name)
	delete(v.colors, name)
	delete(v.strings, name)
	switch {
	case name == "ParentPropertyScript" && val.kind == vString:
		h.editorParent, h.editorParentLine = val.str, s.line
	case name == "ParentModule" && val.kind == vCall && val.str == "__import__" && len(val.items) > 0 && val.items[0].kind == vString:
		// The parent imported without the editor guard: the game loads it
		// all the same.
		h.parent, h.parentLine = val.items[0].str, s.line
	case val.kind == vCall && val.str == "App.TGPoint3" && len(val.items) == 0:
		v.points[name] = value{kind: vTuple, items: []value{{kind: vNumber}, {kind: vNumber}, {kind: vNumber}}, line: s.line}
	case val.kind == vCall && val.str == "App.TGColorA" && len(val.items) == 0:
		v.colors[name] = true
	case val.kind == vCall && val.str == "App.TGString" && len(val.items) == 0:
		v.strings[name] = ""
	case val.kind == vCall && strings.HasPrefix(val.str, "App.") && strings.HasSuffix(val.str, "_Create"):
		if len(val.items) != 1 || val.items[0].kind != vString {
			h.bad(s.line, "%s without a property name", val.str)
			return
		}
		class := strings.TrimSuffix(strings.TrimPrefix(val.str, "App."), "_Create")
		v.props[name] = &prop{class: class, name: val.items[0].str, file: h.file, line: s.line,
			calls: map[string]setterCall{}, indexed: map[string]map[string]setterCall{}}
	default:
		h.bad(s.line, "%s = %s", name, val.describe())
	}
}

// setter records one setter call with its arguments resolved now.
func (h *hardpoint) setter(s *stmt, p *prop, method string, args []value, v *hpVars) {
	res := make([]value, len(args))
	for i, a := range args {
		switch a.kind {
		case vNumber, vString:
			res[i] = a
		case vName:
			switch {
			case v.isPoint(a.str):
				res[i] = v.points[a.str]
			case v.isString(a.str):
				res[i] = value{kind: vString, str: v.strings[a.str], line: a.line}
			default:
				// An enum (ShieldGenerator.FRONT_SHIELDS, Phasers.WST_PHASER)
				// or a colour: kept by its last name.
				res[i] = value{kind: vName, str: a.str[strings.LastIndexByte(a.str, '.')+1:], line: a.line}
			}
		default:
			if readSetters[method] {
				h.bad(s.line, "%s.%s with %s", p.name, method, a.describe())
				return
			}
			h.warn(s.line, fixIgnored, "%s.%s with %s (not used by the pack, ignored)", p.name, method, a.describe())
			return
		}
	}
	if intSetters[method] {
		for _, a := range res {
			if a.kind == vNumber && (a.num <= -maxInt || a.num >= maxInt) {
				h.bad(s.line, "%s.%s(%s): beyond the game's 32-bit integers", p.name, method, a.str)
				return
			}
		}
	}
	call := setterCall{args: res, line: s.line}
	if indexedSetters[method] {
		if len(res) < 2 {
			h.bad(s.line, "%s.%s without an index", p.name, method)
			return
		}
		m := p.indexed[method]
		if m == nil {
			m = map[string]setterCall{}
			p.indexed[method] = m
		}
		m[keyOf(res[0])] = call
		return
	}
	p.calls[method] = call
}

// keyOf is an indexed setter's key: an enum name or a number.
func keyOf(v value) string {
	if v.kind == vNumber {
		return fmt.Sprintf("%d", int(v.num))
	}
	return v.str
}

// intSetters take integers (counts, ids, flags): a value past 32 bits is
// no such number.
var intSetters = map[string]bool{
	"SetCritical": true, "SetTargetable": true, "SetPrimary": true, "SetNumRepairTeams": true,
	"SetNumAmmoTypes": true, "SetMaxTorpedoes": true, "SetWeaponID": true, "SetMaxReady": true,
	"SetDumbfire": true, "SetStationary": true, "SetGroups": true, "SetSingleFire": true, "SetAimedWeapon": true,
}

// parentGuard reads the editor guard of an inheriting file:
// if not ('g_bIsModelPropertyEditor' in dir(App)): ParentModule = __import__(...); reload(ParentModule)
// The __import__ names the parent the game loads.
func (h *hardpoint) parentGuard(s *stmt) bool {
	if !isEditorGuard(s) {
		return false
	}
	for _, b := range s.body {
		if name, rhs, ok := assignment(b); ok && name == "ParentModule" {
			v, err := parseExpr(rhs)
			if err != nil || v.kind != vCall || v.str != "__import__" || len(v.items) < 1 || v.items[0].kind != vString {
				h.bad(b.line, "a parent module that is not __import__(\"<module>\", ...)")
				continue
			}
			h.parent, h.parentLine = v.items[0].str, b.line
			continue
		}
		if c, ok := callOf(b); ok && c.str == "reload" {
			continue
		}
		h.bad(b.line, "a statement in the parent-module guard")
	}
	return true
}

// isEditorGuard matches "if not ('g_bIsModelPropertyEditor' in dir(App)):".
func isEditorGuard(s *stmt) bool {
	if !s.starts("if", "not") || !s.header() {
		return false
	}
	for _, t := range s.toks {
		if t.kind == tString && t.text == "g_bIsModelPropertyEditor" {
			return true
		}
	}
	return false
}

// loadFn reads LoadPropertySet: FindByName into a variable, then the
// "!= None" guard around AddToSet; or the parent's LoadPropertySet.
func (h *hardpoint) loadFn(fn *stmt) {
	var pendingVar, pendingName string
	pendingLine := 0
	for _, s := range fn.body {
		switch {
		case len(s.toks) == 1 && s.toks[0].kind == tString:
			continue
		case isEditorGuard(s):
			for _, b := range s.body {
				if c, ok := callOf(b); !ok || !strings.HasSuffix(c.str, ".LoadPropertySet") {
					h.bad(b.line, "a statement in the parent-module guard of LoadPropertySet")
				}
			}
			h.adds = append(h.adds, added{name: "", line: s.line, file: h.file}) // the parent's adds go here
			continue
		}
		if name, rhs, ok := assignment(s); ok {
			v, err := parseExpr(rhs)
			if err != nil || v.kind != vCall || !strings.HasSuffix(v.str, ".FindByName") || len(v.items) < 1 || v.items[0].kind != vString {
				h.bad(s.line, "a LoadPropertySet line of another shape")
				continue
			}
			pendingVar, pendingName, pendingLine = name, v.items[0].str, s.line
			continue
		}
		if s.starts("if") && s.header() && len(s.body) == 1 && pendingVar != "" && isNoneGuard(s, pendingVar) {
			c, ok := callOf(s.body[0])
			if ok && strings.HasSuffix(c.str, ".AddToSet") && len(c.items) == 2 && c.items[1].kind == vName && c.items[1].str == pendingVar {
				h.adds = append(h.adds, added{name: pendingName, line: pendingLine, file: h.file})
				pendingVar = ""
				continue
			}
		}
		if c, ok := callOf(s); ok && strings.HasSuffix(c.str, ".LoadPropertySet") && c.str != "LoadPropertySet" {
			// The parent's LoadPropertySet outside the guard; whether a
			// parent was imported is checked when the file is merged.
			h.adds = append(h.adds, added{name: "", line: s.line, file: h.file})
			continue
		}
		h.bad(s.line, "a LoadPropertySet line of another shape")
	}
}

// isNoneGuard matches "if (prop != None):", "if prop != None:" and
// "if prop:" for the variable.
func isNoneGuard(s *stmt, v string) bool {
	var words []string
	for _, t := range s.toks[1 : len(s.toks)-1] {
		if t.is(tOp, "(") || t.is(tOp, ")") {
			continue
		}
		words = append(words, t.text)
	}
	switch strings.Join(words, " ") {
	case v + " != None", v + " <> None", v + " is not None", v:
		return true
	}
	return false
}

// calleeOf reads "RECV.Method(...)" from a statement whose arguments did
// not parse.
func calleeOf(s *stmt) (recv, method string, ok bool) {
	t := s.toks
	if len(t) < 4 || t[0].kind != tName || !t[len(t)-1].is(tOp, ")") {
		return "", "", false
	}
	name := t[0].text
	i := 1
	for i+1 < len(t) && t[i].is(tOp, ".") && t[i+1].kind == tName {
		name += "." + t[i+1].text
		i += 2
	}
	if i >= len(t) || !t[i].is(tOp, "(") {
		return "", "", false
	}
	recv, method = splitCallee(name)
	return recv, method, recv != ""
}
