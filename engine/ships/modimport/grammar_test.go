package modimport

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// miniHardpoint is a small valid hardpoint: a hull, a reactor, a phaser
// system with one bank, and the ship property.
const miniHardpoint = `import App
import GlobalPropertyTemplates
#################################################
Hull = App.HullProperty_Create("Hull")

Hull.SetMaxCondition(1000.000000)
Hull.SetCritical(1)
Hull.SetTargetable(1)
Hull.SetPrimary(1)
Hull.SetPosition(0.000000, 0.000000, 0.000000)
Hull.SetRadius(1.000000)
App.g_kModelPropertyManager.RegisterLocalTemplate(Hull)
#################################################
Core = App.PowerProperty_Create("Core")

Core.SetMaxCondition(500.000000)
Core.SetPrimary(1)
Core.SetPowerOutput(100.000000)
App.g_kModelPropertyManager.RegisterLocalTemplate(Core)
#################################################
Phasers = App.WeaponSystemProperty_Create("Phasers")

Phasers.SetMaxCondition(300.000000)
Phasers.SetPrimary(1)
Phasers.SetWeaponSystemType(Phasers.WST_PHASER)
App.g_kModelPropertyManager.RegisterLocalTemplate(Phasers)
#################################################
Bank = App.PhaserProperty_Create("Bank")

Bank.SetMaxCondition(200.000000)
Bank.SetPrimary(1)
Bank.SetMaxDamage(100.000000)
App.g_kModelPropertyManager.RegisterLocalTemplate(Bank)
#################################################
Mini = App.ShipProperty_Create("Mini")

Mini.SetMass(10.000000)
App.g_kModelPropertyManager.RegisterLocalTemplate(Mini)

def LoadPropertySet(pObj):
	"Sets up the object's properties."
	prop = App.g_kModelPropertyManager.FindByName("Hull", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Core", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Bank", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Phasers", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if prop != None:
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Mini", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
`

const miniTable = `import App
UNKNOWN = 0
MINI = 1
MAX_SHIPS = 2
MAX_FLYABLE_SHIPS = 2
kSpeciesTuple = (
	(None, 0, "Neutral", 0),
	("Mini", 200, "Federation", 1),
	(None, 0, "Neutral", 1))
`

const miniTorps = "UNKNOWN = 0\nMAX_TORPS = 1\nkSpeciesTuple = ((UNKNOWN, None),)\n"

const miniShip = `import Multiplayer.SpeciesToShip
def GetShipStats():
	return {"Name": "Mini", "HardpointFile": "mini", "Species": Multiplayer.SpeciesToShip.MINI}
`

func miniMod(edit map[string]string) fstest.MapFS {
	files := map[string]string{
		"ships/Mini.py":                  miniShip,
		"ships/Hardpoints/mini.py":       miniHardpoint,
		"Multiplayer/SpeciesToShip.py":   miniTable,
		"Multiplayer/SpeciesToTorp.py":   miniTorps,
		"Multiplayer/SpeciesToSystem.py": "MAX_SYSTEMS = 2\nkSpeciesTuple = ((0, None), (1, \"Multi1\"))\n",
	}
	for k, v := range edit {
		if v == "" {
			delete(files, k)
		} else {
			files[k] = v
		}
	}
	out := fstest.MapFS{}
	for k, v := range files {
		out[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return out
}

func TestMiniImport(t *testing.T) {
	p, err := Import(miniMod(nil), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Report.Imported) != 1 || len(p.Report.Errors()) != 0 {
		t.Fatalf("report:\n%s", p.Report)
	}
	// The bank was added before its system and still is its child
	// (mods.md 3.6 rule 3); ids follow the add order.
	ser := string(p.Files["ships/mini/serialization.json"])
	if !strings.Contains(ser, `"name": "Bank",`) || strings.Index(ser, `"Phasers"`) > strings.Index(ser, `"Bank"`) {
		t.Errorf("serialization:\n%s", ser)
	}
	if !strings.Contains(string(p.Files["tables.json"]), `"script": "Multi1"`) {
		t.Errorf("star systems missing:\n%s", p.Files["tables.json"])
	}
}

// Constructs outside the grammar leave the class out (relay-only) with the
// file and line (mods.md 3.4 rule 6); some are only warned about.
func TestGrammarFindings(t *testing.T) {
	hp := func(old, new string) map[string]string {
		return map[string]string{"ships/Hardpoints/mini.py": strings.Replace(miniHardpoint, old, new, 1)}
	}
	tests := []struct {
		name  string
		edit  map[string]string
		left  bool   // the class is left out
		where string // substring of the finding: file:line
		msg   string
	}{
		{"arithmetic in a read setter", hp("Hull.SetMaxCondition(1000.000000)", "Hull.SetMaxCondition(500.0 * 2)"), true, "mini.py:6", "Hull.SetMaxCondition with"},
		{"arithmetic in an unread setter", hp("Hull.SetRadius(1.000000)", "Hull.SetRadius(1.0)\nHull.SetPosition2D(64.0 + 1, 50.0)"), false, "mini.py:12", "not used by the pack"},
		{"a loop", hp("#################################################\nCore", "for i in range(3):\n\tpass\nCore"), true, "mini.py:13", "\"for\" block"},
		{"unknown property class", hp("App.PowerProperty_Create", "App.FluxCapacitorProperty_Create"), true, "mini.py:14", "unknown property class FluxCapacitorProperty"},
		{"added twice", hp(`	prop = App.g_kModelPropertyManager.FindByName("Mini"`, `	prop = App.g_kModelPropertyManager.FindByName("Hull", App.TGModelPropertyManager.LOCAL_TEMPLATES)
	if (prop != None):
		pObj.AddToSet("Scene Root", prop)
	prop = App.g_kModelPropertyManager.FindByName("Mini"`), true, "mini.py:54", `"Hull" is added twice`},
		{"LoadPropertySet of another shape", hp("\tprop = App.g_kModelPropertyManager.FindByName(\"Mini\"", "\tpObj.SetSomething(1)\n\tprop = App.g_kModelPropertyManager.FindByName(\"Mini\""), true, "mini.py:54", "LoadPropertySet line of another shape"},
		{"a helper function call", hp("Hull.SetRadius(1.000000)", "Hull.SetRadius(1.000000)\nSetupHull(Hull)"), true, "mini.py:12", "call of SetupHull"},
		// FindByName finds nothing and the stock guard skips it: no reactor.
		{"never registered", hp("App.g_kModelPropertyManager.RegisterLocalTemplate(Core)", ""), false, "mini.py", `"Core" is added but never registered`},
		{"no hull", hp(`"Hull")`, `"Hull")`+"\nHull = App.SensorProperty_Create(\"Hull\")"), true, "mini.py:41", "no hull (HullProperty) is added"},
		{"no hardpoint", map[string]string{"ships/Hardpoints/mini.py": ""}, true, "", "no ships/Hardpoints/mini.py"},
		{"computed stats", map[string]string{"ships/Mini.py": strings.Replace(miniShip, `"mini"`, `"mi" + "ni"`, 1)}, true, "ships/Mini.py", "not read"},
		{"species mismatch", map[string]string{"ships/Mini.py": strings.Replace(miniShip, "SpeciesToShip.MINI", "SpeciesToShip.UNKNOWN", 1)}, false, "ships/Mini.py:3", `"Species" is 0`},
		{"NormalHP with another list", map[string]string{
			"ships/Mini.py":             strings.Replace(miniShip, `"HardpointFile": "mini"`, `"HardpointFile": "mini", "NormalHP": "mini2"`, 1),
			"ships/Hardpoints/mini2.py": strings.Replace(miniHardpoint, `FindByName("Bank"`, `FindByName("Nothing"`, 1),
		}, true, "ships/Mini.py:3", "NormalHP mini2 and HardpointFile mini give different subsystem lists"},
		{"NormalHP with the same list", map[string]string{
			"ships/Mini.py":             strings.Replace(miniShip, `"HardpointFile": "mini"`, `"HardpointFile": "mini", "NormalHP": "Mini2"`, 1),
			"ships/Hardpoints/mini2.py": strings.Replace(miniHardpoint, "1000.000000", "2000.000000", 1),
		}, false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Import(miniMod(tc.edit), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if left := len(p.Report.Imported) == 0; left != tc.left {
				t.Fatalf("left out %t, want %t:\n%s", left, tc.left, p.Report)
			}
			if tc.msg == "" {
				return
			}
			found := false
			for _, f := range p.Report.Findings {
				if s := f.String(); strings.Contains(s, tc.where) && strings.Contains(s, tc.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("no finding at %q with %q:\n%s", tc.where, tc.msg, p.Report)
			}
		})
	}
}

// A table that could be computed makes no pack at all (mods.md 3.2 rule 1).
func TestUnusableTables(t *testing.T) {
	for name, table := range map[string]string{
		"extended":      miniTable + "kSpeciesTuple = kSpeciesTuple + ((\"X\", 1, \"Y\", 1),)\n",
		"loop":          miniTable + "for i in range(3):\n\tMAX_SHIPS = MAX_SHIPS + 1\n",
		"computed row":  strings.Replace(miniTable, `("Mini", 200, "Federation", 1)`, `("Mini", 200 + 1, "Federation", 1)`, 1),
		"no MAX_SHIPS":  strings.Replace(miniTable, "MAX_SHIPS = 2\n", "", 1),
		"acted upon":    miniTable + "Extend(kSpeciesTuple)\n",
		"not a literal": "MAX_SHIPS = 2\nMAX_FLYABLE_SHIPS = 2\nkSpeciesTuple = Build()\n",
		"too large":     strings.Replace(miniTable, "MAX_SHIPS = 2", "MAX_SHIPS = 300", 1),
	} {
		if _, err := Import(miniMod(map[string]string{"Multiplayer/SpeciesToShip.py": table}), Options{}); !errors.Is(err, ErrNoPack) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Import(miniMod(map[string]string{"Multiplayer/SpeciesToShip.py": ""}), Options{}); !errors.Is(err, ErrNoPack) {
		t.Errorf("no table: %v", err)
	}
	if _, err := Import(fstest.MapFS{"readme.txt": {}}, Options{}); !errors.Is(err, ErrNoPack) {
		t.Errorf("no scripts folder: %v", err)
	}
	// A folder given as the install root finds scripts/ inside it.
	inst := fstest.MapFS{}
	for k, v := range miniMod(nil) {
		inst["scripts/"+k] = v
	}
	if p, err := Import(inst, Options{}); err != nil || len(p.Report.Imported) != 1 {
		t.Errorf("install root: %v", err)
	}
}

func TestLexer(t *testing.T) {
	src := "x = (1,\n  -2.5e1, 0x1F, 7L) # comment\ns = 'a' \"b\" '''c\nd'''\nif a: b = 1\ny = \\\n 3\n"
	stmts, err := parseModule(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 4 {
		t.Fatalf("%d statements", len(stmts))
	}
	v, err := parseExpr(stmts[0].toks[2:])
	if err != nil || v.kind != vTuple || v.items[1].num != -25 || v.items[2].num != 31 || v.items[3].num != 7 {
		t.Fatalf("tuple %+v %v", v, err)
	}
	if s, err := parseExpr(stmts[1].toks[2:]); err != nil || s.str != "abc\nd" {
		t.Errorf("strings %q %v", s.str, err)
	}
	if len(stmts[2].body) != 1 || stmts[2].body[0].toks[0].text != "b" {
		t.Errorf("inline block %+v", stmts[2])
	}
	if stmts[3].line != 6 || len(stmts[3].toks) != 3 {
		t.Errorf("continued line %+v", stmts[3])
	}
	for _, bad := range []string{"s = 'open\n", "x = $\n", "s = '''never"} {
		if _, err := parseModule(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	for _, bad := range []string{"1 + 2", "a * b", "f(1) - 2", "(1, 2", "-x"} {
		stmts, err := parseModule("v = " + bad + "\n")
		if err == nil {
			_, err = parseExpr(stmts[0].toks[2:])
		}
		if err == nil {
			t.Errorf("%q evaluated", bad)
		}
	}
}

// FuzzParse: no script text makes the reader panic or hang.
func FuzzParse(f *testing.F) {
	f.Add(miniHardpoint)
	f.Add(miniTable)
	f.Add("def f():\n\tif (x != None):\n\t\ty(1, 'a', {\"k\": [1, 2]})\n")
	f.Fuzz(func(t *testing.T, src string) {
		stmts, err := parseModule(src)
		if err != nil {
			return
		}
		var walk func([]*stmt)
		walk = func(ss []*stmt) {
			for _, s := range ss {
				_, _ = parseExpr(s.toks)
				walk(s.body)
			}
		}
		walk(stmts)
		h := &hardpoint{file: "f.py", templates: map[string]*prop{}}
		v := hpVars{props: map[string]*prop{}, points: map[string]value{}, colors: map[string]bool{}, strings: map[string]string{}}
		for _, s := range stmts {
			h.topLevel(s, &v)
		}
	})
}

// FuzzImport: any text in place of one of a mod's scripts gives a pack or
// an error, never a panic.
func FuzzImport(f *testing.F) {
	files := []string{"Multiplayer/SpeciesToShip.py", "Multiplayer/SpeciesToTorp.py", "ships/Mini.py", "ships/Hardpoints/mini.py", "Tactical/Projectiles/Bolt.py"}
	f.Add(uint8(0), miniTable)
	f.Add(uint8(1), "MAX_TORPS = 2\nkSpeciesTuple = ((0, None), (1, \"Bolt\"))\n")
	f.Add(uint8(2), miniShip)
	f.Add(uint8(3), miniHardpoint)
	f.Add(uint8(4), "def Create(pTorp):\n\tpTorp.SetDamage(GetDamage())\n\tpTorp.CreateDisruptorModel(a, b, 1.0, 0.1)\ndef GetName():\n\treturn \"Bolt\"\ndef GetDamage():\n\treturn(5)\n")
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		edit := map[string]string{
			"Multiplayer/SpeciesToTorp.py": "MAX_TORPS = 2\nkSpeciesTuple = ((0, None), (1, \"Bolt\"))\n",
			"Tactical/Projectiles/Bolt.py": "def Create(pTorp):\n\tpass\ndef GetName():\n\treturn \"Bolt\"\n",
		}
		edit[files[int(which)%len(files)]] = src + "\n"
		_, _ = Import(miniMod(edit), Options{})
	})
}
