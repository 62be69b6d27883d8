package ships

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bcserver/bcserver/internal/vectors"
)

func mustVanilla(t testing.TB) *Registry {
	t.Helper()
	r, err := Vanilla()
	if err != nil {
		t.Fatalf("Vanilla: %v", err)
	}
	return r
}

func TestVanillaIsShared(t *testing.T) {
	a, b := mustVanilla(t), mustVanilla(t)
	if a != b {
		t.Error("Vanilla built twice")
	}
	if got := a.Layers(); len(got) != 1 || got[0] != "vanilla-1.1" {
		t.Errorf("Layers = %q", got)
	}
}

// Species and projectile ids agree with the stock SpeciesToShip and
// SpeciesToTorp tables (simulation.md 3.3, vectors/tables.json).
func TestVanillaSpeciesTables(t *testing.T) {
	var tab struct {
		SpeciesToShip struct {
			Entries []struct {
				Index      int    `json:"index"`
				ShipScript string `json:"ship_script"`
			} `json:"entries"`
		} `json:"species_to_ship"`
		SpeciesToTorp struct {
			Entries []struct {
				Index  int    `json:"index"`
				Script string `json:"script"`
			} `json:"entries"`
		} `json:"species_to_torp"`
	}
	vectors.MustLoad(t, "tables.json", &tab)
	r := mustVanilla(t)

	classes := 0
	for _, e := range tab.SpeciesToShip.Entries {
		c, ok := r.Class(e.Index)
		if !ok {
			continue // non-flyable objects the data set does not carry
		}
		classes++
		if c.Name != e.ShipScript {
			t.Errorf("species %d: class %q, stock table says %q", e.Index, c.Name, e.ShipScript)
		}
	}
	// 15 flyable classes, CardFreighter (16) and the seven stations.
	if classes != 23 || len(r.Classes()) != 23 {
		t.Errorf("matched %d classes, registry has %d; want 23 (species 1-16, 19, 22, 26-30)", classes, len(r.Classes()))
	}
	// stationary is the hardpoint's SetStationary, which the SpaceFacility
	// and FedOutpost hardpoints do not call.
	for sp, want := range map[int]bool{19: false, 22: true, 26: true, 27: true, 28: true, 29: false, 30: true, 1: false} {
		if c, ok := r.Class(sp); !ok || c.Stationary != want {
			t.Errorf("species %d: present %v, stationary want %v", sp, ok, want)
		}
	}
	for _, sp := range []int{0, 17, 37, 45, 255, -1} {
		if _, ok := r.Class(sp); ok {
			t.Errorf("species %d: have a class, want none", sp)
		}
	}

	// The data set's script for id 13 is the file stem, the stock table's
	// the module name; both name the same projectile.
	aliases := map[string]string{"Positron2": "PositronTorpedo2"}
	for _, e := range tab.SpeciesToTorp.Entries {
		p, ok := r.Projectile(e.Index)
		if !ok {
			t.Errorf("net type %d (%s): no projectile", e.Index, e.Script)
			continue
		}
		want := e.Script
		if a, ok := aliases[want]; ok {
			want = a
		}
		if p.Script != want {
			t.Errorf("net type %d: script %q, want %q", e.Index, p.Script, want)
		}
	}
	if len(r.Projectiles()) != 15 {
		t.Errorf("%d projectiles, want 15", len(r.Projectiles()))
	}
}

func TestVanillaLookups(t *testing.T) {
	r := mustVanilla(t)
	for _, name := range []string{"Sovereign", "sovereign", "SOVEREIGN"} {
		c, ok := r.ClassByName(name)
		if !ok || c.SpeciesID != 5 {
			t.Errorf("ClassByName(%q) = %v, %v", name, c, ok)
		}
	}
	if _, ok := r.ClassByName("Enterprise"); ok {
		t.Error("Enterprise is not in the data set")
	}
	if s, ok := r.NewShip(0, 0x3FFFFFFF); ok || s != nil {
		t.Error("NewShip for species 0 must fail")
	}
	m, ok := r.GameMode("deathmatch")
	if !ok || m.Script != "Multiplayer.Episode.Mission1.Mission1" {
		t.Errorf("GameMode(deathmatch) = %+v, %v", m, ok)
	}
	// The bare-string scoring form of faction-deathmatch.json is accepted.
	if m, ok := r.GameMode("faction-deathmatch"); !ok || m.Scoring.Mode != "team" {
		t.Errorf("faction-deathmatch scoring = %+v, %v", m, ok)
	}
	if n := len(r.GameModes()); n != 5 {
		t.Errorf("%d game modes, want 5", n)
	}
}

// Test data for overlays: a tiny valid class.
const (
	tinyShip = `{"name":"%s","species_id":%d,"faction":"Test","hull_hp":100,"mass":10,
		"rotational_inertia":1,"max_speed":1,"max_accel":1,"max_angular_accel":1,"max_angular_velocity":1,
		"shield_hp":[1,1,1,1,1,1],"shield_recharge":[1,1,1,1,1,1],"can_cloak":false,"has_tractor":false,
		"torpedo_tubes":0,"phaser_banks":0,"pulse_weapons":0,"tractor_beams":0,"max_repair_points":1,"num_repair_teams":1}`
	tinyPower = `{"power_output":10,"main_battery_limit":100,"backup_battery_limit":50,"main_conduit_capacity":10,"backup_conduit_capacity":5}`
	tinySubs  = `[{"name":"Hull","type":"hull","position":[0,0,0],"radius":1,"max_condition":100,"disabled_pct":0,"is_critical":true,"is_targetable":true,"repair_complexity":1},
		{"name":"Core","type":"power","position":[0,0,0],"radius":1,"max_condition":50,"disabled_pct":0,"is_critical":true,"is_targetable":true,"repair_complexity":1}]`
	tinySerial = `[{"format":"base","name":"Hull"},{"format":"power","name":"Core"},
		{"format":"powered","name":"Guns","max_condition":30,"normal_power":5,"children":[{"name":"Gun","max_condition":10}]}]`
)

// withWeaponSystems is tinyShip (class "A", species 46) with the given
// weapon_systems entries.
func withWeaponSystems(entries string) string {
	return strings.TrimSuffix(fmt.Sprintf(tinyShip, "A", 46), "}") + `,"weapon_systems":[` + entries + `]}`
}

func tinyClass(fsys fstest.MapFS, dir, name string, species int) {
	put(fsys, dir+"/ship.json", fmt.Sprintf(tinyShip, name, species))
	put(fsys, dir+"/power.json", tinyPower)
	put(fsys, dir+"/subsystems.json", tinySubs)
	put(fsys, dir+"/serialization.json", tinySerial)
}

func put(fsys fstest.MapFS, name, data string) { fsys[name] = &fstest.MapFile{Data: []byte(data)} }

func TestOverlay(t *testing.T) {
	base := mustVanilla(t)
	akira, _ := base.Class(1)

	mod1 := fstest.MapFS{}
	tinyClass(mod1, "mod1/ships/runabout", "Runabout", 46) // new species
	tinyClass(mod1, "mod1/ships/akira2", "Akira", 1)       // replaces Akira
	put(mod1, "mod1/projectiles/photontorpedo.json", `{"name":"Hot Photon","script":"PhotonTorpedo","net_type_id":2,
		"damage":900,"damage_radius_factor":0.1,"launch_speed":19,"power_cost":20,"guidance_lifetime":6,"max_angular_accel":0.15,"lifetime":0}`)
	put(mod1, "mod1/gamemodes/deathmatch.json", `{"id":"mission1","name":"Modded DM","script":"Multiplayer.Episode.Mission1.Mission1"}`)

	r1, err := base.Overlay(mod1, "mod1")
	if err != nil {
		t.Fatalf("Overlay: %v", err)
	}
	if c, ok := r1.Class(46); !ok || c.Name != "Runabout" || len(c.Subsystems) != 4 {
		t.Errorf("new species 46: %+v, %v", c, ok)
	}
	if c, _ := r1.Class(1); c == akira || len(c.Entries) != 3 {
		t.Errorf("species 1 not replaced")
	}
	if c, _ := r1.Class(5); c.Name != "Sovereign" {
		t.Errorf("species 5 lost: %v", c.Name)
	}
	if p, _ := r1.Projectile(2); p.Damage != 900 {
		t.Errorf("projectile 2 not replaced: %+v", p)
	}
	if m, _ := r1.GameMode("deathmatch"); m.Name != "Modded DM" {
		t.Errorf("game mode not replaced: %+v", m)
	}
	if got := r1.Layers(); len(got) != 2 || got[1] != "mod1" {
		t.Errorf("Layers = %q", got)
	}
	// The base is untouched.
	if c, _ := base.Class(1); c != akira {
		t.Error("Overlay modified its receiver")
	}
	if _, ok := base.Class(46); ok {
		t.Error("Overlay modified its receiver")
	}

	// A later overlay wins over an earlier one.
	mod2 := fstest.MapFS{}
	tinyClass(mod2, "ships/runabout", "Runabout Mk2", 46)
	r2, err := r1.Overlay(mod2, ".")
	if err != nil {
		t.Fatalf("second Overlay: %v", err)
	}
	if c, _ := r2.Class(46); c.Name != "Runabout Mk2" {
		t.Errorf("later overlay lost: %q", c.Name)
	}
	if _, ok := r2.ClassByName("Runabout"); ok {
		t.Error("replaced class still found by its old name")
	}
}

// Validation errors name the file at fault.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(fstest.MapFS)
		wantErr string // substring; the file name is always part of it
	}{
		{"unknown field", func(f fstest.MapFS) {
			put(f, "d/ships/a/power.json", strings.Replace(tinyPower, "power_output", "power_outptu", 1))
		}, "d/ships/a/power.json: json: unknown field"},
		{"duplicate species", func(f fstest.MapFS) { tinyClass(f, "d/ships/b", "B", 46) },
			"use species_id 46"},
		{"species out of range", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", fmt.Sprintf(tinyShip, "A", 256))
		}, "d/ships/a/ship.json: species_id 256"},
		{"serialization names unknown subsystem", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"base","name":"Hull"},{"format":"base","name":"Nope"}]`)
		}, `d/ships/a/serialization.json: entry 1 ("Nope"): subsystem "Nope" is not in subsystems.json`},
		{"child names unknown subsystem", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"base","name":"Hull","children":[{"name":"Nope"}]}]`)
		}, `d/ships/a/serialization.json: entry 0 ("Hull"): child 0: subsystem "Nope"`},
		{"subsystem listed twice", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"base","name":"Hull"},{"format":"base","name":"Hull"}]`)
		}, `listed twice`},
		{"duplicate subsystems.json name", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.Replace(tinySubs, `"Core"`, `"Hull"`, 1))
		}, `d/ships/a/subsystems.json: subsystem name "Hull" is used twice`},
		{"bad format", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"basic","name":"Hull"}]`)
		}, `d/ships/a/serialization.json: entry 0 ("Hull"): unknown format "basic"`},
		{"reactor not in power format", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"base","name":"Hull"},{"format":"powered","name":"Core"}]`)
		}, `format powered does not fit subsystems.json type "power"`},
		{"no hull", func(f fstest.MapFS) {
			put(f, "d/ships/a/serialization.json", `[{"format":"power","name":"Core"}]`)
		}, `d/ships/a/serialization.json: no top-level entry of subsystems.json type hull`},
		{"empty list", func(f fstest.MapFS) { put(f, "d/ships/a/serialization.json", `[]`) },
			`d/ships/a/serialization.json: 0 entries`},
		{"missing file", func(f fstest.MapFS) { delete(f, "d/ships/a/power.json") }, "d/ships/a/power.json"},
		{"bad manifest entry", func(f fstest.MapFS) { put(f, "d/manifest.json", `{"version":"x","ships":["../a"]}`) },
			`d/manifest.json: bad ships entry "../a"`},
		{"manifest names missing folder", func(f fstest.MapFS) { put(f, "d/manifest.json", `{"ships":["a","zz"]}`) },
			"d/ships/zz/ship.json"},
		{"duplicate projectile id", func(f fstest.MapFS) {
			p := `{"name":"P","script":"S","net_type_id":3,"damage":1,"damage_radius_factor":1,"launch_speed":1,"power_cost":1,"guidance_lifetime":0,"max_angular_accel":0,"lifetime":0}`
			put(f, "d/projectiles/p1.json", p)
			put(f, "d/projectiles/p2.json", p)
		}, "d/projectiles/p1.json and d/projectiles/p2.json both use net_type_id 3"},
		{"zero mass", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", strings.Replace(fmt.Sprintf(tinyShip, "A", 46), `"mass":10`, `"mass":0`, 1))
		}, "d/ships/a/ship.json: mass 0 must be positive"},
		{"five shield facings", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", strings.Replace(fmt.Sprintf(tinyShip, "A", 46), `"shield_hp":[1,1,1,1,1,1]`, `"shield_hp":[1,1,1,1,1]`, 1))
		}, "d/ships/a/ship.json: shield_hp has 5 facings"},
		{"negative battery", func(f fstest.MapFS) {
			put(f, "d/ships/a/power.json", strings.Replace(tinyPower, `"main_battery_limit":100`, `"main_battery_limit":-1`, 1))
		}, "d/ships/a/power.json: main_battery_limit -1 is negative"},
		{"unknown subsystem type", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.Replace(tinySubs, `"type":"power"`, `"type":"reactor"`, 1))
		}, `d/ships/a/subsystems.json: subsystem "Core": unknown type "reactor"`},
		{"engine without engine_type", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.TrimSuffix(tinySubs, "]")+
				`,{"name":"Nacelle","type":"engine","position":[0,0,0],"radius":1,"max_condition":10}]`)
		}, `d/ships/a/subsystems.json: engine "Nacelle": engine_type "", want impulse or warp`},
		{"engine_type on a non-engine", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.Replace(tinySubs, `"type":"power"`, `"type":"power","engine_type":"warp"`, 1))
		}, `d/ships/a/subsystems.json: subsystem "Core": engine_type is only for type engine`},
		{"warp engine under the impulse system", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.TrimSuffix(tinySubs, "]")+
				`,{"name":"Impulse","type":"impulse_engine","position":[0,0,0],"radius":1,"max_condition":10}`+
				`,{"name":"Nacelle","type":"engine","position":[0,0,0],"radius":1,"max_condition":10,"engine_type":"warp"}]`)
			put(f, "d/ships/a/serialization.json", `[{"format":"base","name":"Hull"},{"format":"power","name":"Core"},`+
				`{"format":"powered","name":"Impulse","children":[{"name":"Nacelle"}]}]`)
		}, `d/ships/a/serialization.json: entry 2 ("Impulse"): child 0: warp engine "Nacelle" under a "impulse_engine" entry`},
		{"projectile id 0", func(f fstest.MapFS) {
			put(f, "d/projectiles/p.json", `{"name":"P","script":"S","net_type_id":0}`)
		}, "d/projectiles/p.json: net_type_id 0 out of range"},
		{"game mode without script", func(f fstest.MapFS) { put(f, "d/gamemodes/x.json", `{"id":"m"}`) },
			"d/gamemodes/x.json: id and script are required"},
		{"trailing data", func(f fstest.MapFS) { put(f, "d/ships/a/power.json", tinyPower+"{}") },
			"d/ships/a/power.json: trailing data"},
		{"weapon system not a subsystem", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", withWeaponSystems(`{"name":"Cannons","type":"pulse_system","id_offset":0,"weapons":["Gun"]}`))
		}, `d/ships/a/ship.json: weapon_systems[0]: "Cannons" is not a subsystem`},
		{"weapon system of unknown type", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", withWeaponSystems(`{"name":"Guns","type":"laser_system","id_offset":3,"weapons":["Gun"]}`))
		}, `weapon_systems[0] "Guns": unknown type "laser_system"`},
		{"weapon system names a foreign weapon", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", withWeaponSystems(`{"name":"Guns","type":"pulse_system","id_offset":3,"weapons":["Core"]}`))
		}, `weapon "Core" is not a child of the system`},
		{"weapon system with the wrong id_offset", func(f fstest.MapFS) {
			put(f, "d/ships/a/ship.json", withWeaponSystems(`{"name":"Guns","type":"pulse_system","id_offset":7,"weapons":["Gun"]}`))
		}, `id_offset 7, but serialization.json gives 3`},
		{"pulse weapon names a missing projectile", func(f fstest.MapFS) {
			put(f, "d/ships/a/subsystems.json", strings.TrimSuffix(tinySubs, "]")+
				`,{"name":"Gun","type":"pulse_weapon","position":[0,0,0],"radius":1,"max_condition":10,"projectile":"nobolt"}]`)
		}, `d/ships/a/subsystems.json: subsystem "Gun": projectile "nobolt" is not loaded`},
		{"negative bolt length", func(f fstest.MapFS) {
			put(f, "d/projectiles/p.json", `{"name":"P","script":"S","net_type_id":3,"bolt_length":-1}`)
		}, "d/projectiles/p.json: damage_radius_factor, bolt_length and bolt_width must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fstest.MapFS{}
			tinyClass(f, "d/ships/a", "A", 46)
			tt.edit(f)
			_, err := Load(f, "d")
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
	// The same folder without the edits loads.
	f := fstest.MapFS{}
	tinyClass(f, "d/ships/a", "A", 46)
	if _, err := Load(f, "d"); err != nil {
		t.Fatalf("clean folder: %v", err)
	}
}

// The weapon model's data (data/README.md): weapon systems resolve to
// their container and weapons, and pulse weapons to their bolts.
func TestWeaponSystemData(t *testing.T) {
	r := mustVanilla(t)
	wb, _ := r.ClassByName("Warbird")
	type sys struct {
		name, typ string
		offset    int
		weapons   []string
	}
	var got []sys
	for _, ws := range wb.WeaponSystems {
		s := sys{ws.Name, ws.Type, wb.Subsystems[ws.Subsystem].IDOffset, nil}
		for _, m := range ws.Members {
			s.weapons = append(s.weapons, wb.Subsystems[m].Name)
		}
		got = append(got, s)
	}
	want := []sys{
		{"Disruptor Beam", "phaser_system", 4, []string{"Disruptor"}},
		{"Disruptor Cannons", "pulse_system", 6, []string{"Port Cannon 1", "Port Cannon 2", "Star Cannon 1", "Star Cannon 2"}},
		{"Torpedoes", "torpedo_system", 11, []string{"Forward Torpedo", "Aft Torpedo"}},
		{"Tractors", "tractor_system", 24, []string{"Aft Tractor", "Forward Tractor"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Warbird weapon systems\n got %v\nwant %v", got, want)
	}
	i, _ := wb.SubsystemIndex("Port Cannon 1")
	d := wb.Subsystems[i].Data
	if d.Projectile != "romulancannon" || d.ModuleName != "Tactical.Projectiles.RomulanCannon" || d.CooldownTime != 1.6 || d.Groups != 1 || !d.IsPrimary {
		t.Errorf("Port Cannon 1 data: %+v", d)
	}
	bolt, ok := r.ProjectileByStem(d.Projectile)
	if !ok || bolt.Damage != 400 || bolt.ScriptNetType != 1 || bolt.BoltLength == nil || *bolt.BoltLength != 2 {
		t.Errorf("romulancannon: %+v, %v", bolt, ok)
	}
	if ph, _ := r.ProjectileByStem("photontorpedo"); ph.BoltLength != nil || ph.Stem != "photontorpedo" {
		t.Errorf("photontorpedo: %+v", ph)
	}
	if wb.WeaponSystemOf(i) != nil {
		t.Error("a weapon is not a weapon system")
	}
	sov, _ := r.ClassByName("Sovereign")
	bank, _ := sov.SubsystemIndex("Ventral Phaser 1")
	if d := sov.Subsystems[bank].Data; d.StripWidth <= 0 || d.StripLength <= 0 || d.PhaserWidth != 0.3 || d.DamageRadiusFactor <= 0 {
		t.Errorf("Sovereign bank strip data: %+v", d)
	}
	// Every class of the vanilla set lists its weapon systems, and each
	// container's weapon-system lookup finds it.
	for _, c := range r.Classes() {
		for k := range c.WeaponSystems {
			if c.WeaponSystemOf(c.WeaponSystems[k].Subsystem) != &c.WeaponSystems[k] {
				t.Errorf("%s: WeaponSystemOf(%s) wrong", c.Name, c.WeaponSystems[k].Name)
			}
		}
		if len(c.WeaponSystems) == 0 && c.PhaserBanks+c.PulseWeapons+c.TorpedoTubes > 0 {
			t.Errorf("%s has weapons but no weapon systems", c.Name)
		}
	}
}

func TestOverlayNameClash(t *testing.T) {
	mod := fstest.MapFS{}
	tinyClass(mod, "ships/akira", "Akira", 60) // same name, other species
	_, err := mustVanilla(t).Overlay(mod, ".")
	if err == nil || !strings.Contains(err.Error(), `share the name "Akira"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestLoadMissingFolder(t *testing.T) {
	// No manifest and no sub-folders: an empty but valid layer.
	r, err := Load(fstest.MapFS{}, "nothing")
	if err != nil || len(r.Classes()) != 0 {
		t.Fatalf("Load(empty) = %v, %v", r, err)
	}
	if _, err := Load(fstest.MapFS{}, "../x"); err == nil {
		t.Error("invalid fs path accepted")
	}
}
