package modimport

import (
	"fmt"
	"strconv"

	"github.com/bcserver/bcserver/engine/ships"
)

// From a hardpoint's added properties to the class files: creation order,
// object ids, the primary pointers, parents and the top-level list
// exactly as the stock engine builds them (mods.md 3.6), and the field
// mapping of mods.md 3.8.

// weaponSystemProperty is the kind of a WeaponSystemProperty until its
// SetWeaponSystemType refines it to a weapon system's type.
const weaponSystemProperty = ships.NoType

// subsystemClasses are the property classes that create a subsystem (one
// object id each); nonSubsystemClasses create none (mods.md 3.5).
var subsystemClasses = map[string]ships.SubsystemType{
	"HullProperty": ships.TypeHull, "ShieldProperty": ships.TypeShield, "SensorProperty": ships.TypeSensor, "PowerProperty": ships.TypePower,
	"ImpulseEngineProperty": ships.TypeImpulseEngine, "WarpEngineProperty": ships.TypeWarpEngine, "EngineProperty": ships.TypeEngine,
	"RepairSubsystemProperty": ships.TypeRepair, "CloakingSubsystemProperty": ships.TypeCloak,
	"WeaponSystemProperty": weaponSystemProperty, "TorpedoSystemProperty": ships.TypeTorpedoSystem,
	"PhaserProperty": ships.TypePhaser, "PulseWeaponProperty": ships.TypePulseWeapon, "TractorBeamProperty": ships.TypeTractorBeam,
	"TorpedoTubeProperty": ships.TypeTorpedoTube,
}

// isSubsystemClass reports whether a property class creates a subsystem.
func isSubsystemClass(class string) bool {
	_, ok := subsystemClasses[class]
	return ok
}

var nonSubsystemClasses = map[string]bool{
	"ShipProperty": true, "PositionOrientationProperty": true, "ObjectEmitterProperty": true, "BlinkingLightProperty": true,
}

// weaponSystemTypes maps WST_* to a weapon system's type.
var weaponSystemTypes = map[string]ships.SubsystemType{
	"WST_PHASER": ships.TypePhaserSystem, "WST_PULSE": ships.TypePulseSystem, "WST_TRACTOR": ships.TypeTractorSystem, "WST_TORPEDO": ships.TypeTorpedoSystem,
}

// facings in the order of shield_hp (mods.md 3.8).
var facings = []string{"FRONT_SHIELDS", "REAR_SHIELDS", "TOP_SHIELDS", "BOTTOM_SHIELDS", "LEFT_SHIELDS", "RIGHT_SHIELDS"}

// sub is one created subsystem.
type sub struct {
	p        *prop
	kind     ships.SubsystemType
	k        int // id offset: 1-based creation index
	primary  bool
	parent   *sub
	children []*sub
}

// projInfo is what a class needs of a projectile it names.
type projInfo struct {
	stem    string
	netType int
	name    string
}

// classFiles are one class's four files.
type classFiles struct {
	ship, power  object
	subsystems   []object
	serial       []object
	subsystemCnt int
}

// builder turns one hardpoint into class files.
type builder struct {
	h       *hardpoint
	row     ships.ShipRow
	project func(module string) (projInfo, bool)
	bad     []Finding
	warns   []Finding
	subs    []*sub
	ship    *prop
}

// fail leaves the class out for a reason at file:line, with fix (the
// grammar's when "").
func (b *builder) fail(file string, line int, fix, format string, args ...any) {
	if fix == "" {
		fix = fixGrammar
	}
	b.bad = append(b.bad, Finding{Level: LevelError, File: file, Line: line, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

func (b *builder) warn(file string, line int, fix, format string, args ...any) {
	b.warns = append(b.warns, Finding{Level: LevelWarning, File: file, Line: line, Msg: fmt.Sprintf(format, args...), Fix: fix})
}

// create makes the subsystems of the added properties in order and links
// them (mods.md 3.6).
func (b *builder) create() {
	pointers := map[ships.SubsystemType]*sub{}
	seen := map[string]bool{}
	for _, a := range b.h.adds {
		if a.name == "" {
			b.fail(a.file, a.line, "import the parent module (ParentModule = __import__(...)) as the editor writes inheriting files",
				"calls a parent's LoadPropertySet, but the file imports no parent")
			continue
		}
		if seen[a.name] {
			// Whether a second add creates a second subsystem is open
			// (mods.md 9 question 9); merged (inheriting) hardpoints
			// have their repeats taken out by the preferred reading.
			b.fail(a.file, a.line, "add each property once; until then the class is relayed", "%q is added twice", a.name)
			continue
		}
		seen[a.name] = true
		p := b.h.templates[a.name]
		if p == nil {
			// FindByName returns None; the stock guard skips it.
			b.warn(a.file, a.line, "register the property, or nothing to do if the ship is meant to lack it",
				"%q is added but never registered: nothing is created", a.name)
			continue
		}
		kind, isSub := subsystemClasses[p.class]
		if !isSub {
			if !nonSubsystemClasses[p.class] {
				b.fail(p.file, p.line, "", "unknown property class %s (%q)", p.class, p.name)
			}
			if p.class == "ShipProperty" {
				b.ship = p
			}
			continue
		}
		if kind == weaponSystemProperty {
			t, _ := p.enum("SetWeaponSystemType")
			var ok bool
			if kind, ok = weaponSystemTypes[t]; !ok {
				b.fail(p.file, p.line, "give it SetWeaponSystemType(WST_PHASER, WST_PULSE, WST_TRACTOR or WST_TORPEDO)",
					"weapon system %q without a known SetWeaponSystemType", p.name)
				continue
			}
		}
		primary := true
		if v, ok := p.flag("SetPrimary"); ok {
			primary = v
		} else {
			b.warn(p.file, p.line, "give it SetPrimary(1), or SetPrimary(0) for a secondary one",
				"%q has no SetPrimary: taken as primary", p.name)
		}
		s := &sub{p: p, kind: kind, k: len(b.subs) + 1, primary: primary}
		b.subs = append(b.subs, s)
		if primary {
			// A later primary of the same kind replaces an earlier one
			// (rule 2).
			pointers[kind] = s
		}
	}
	for _, s := range b.subs {
		var pk ships.SubsystemType
		switch {
		case s.kind == ships.TypeEngine:
			switch t, _ := s.p.enum("SetEngineType"); t {
			case "EP_IMPULSE":
				pk = ships.TypeImpulseEngine
			case "EP_WARP":
				pk = ships.TypeWarpEngine
			default:
				b.warn(s.p.file, s.p.line, "give it SetEngineType(EP_IMPULSE or EP_WARP)",
					"engine %q has no SetEngineType: stays top level", s.p.name)
			}
		case s.kind.Weapon() != ships.NoWeapon && !s.kind.IsWeaponSystem():
			// A weapon attaches to its system's pointer (rule 3).
			pk = s.kind.Weapon().SystemType()
		}
		if parent := pointers[pk]; pk != ships.NoType && parent != nil {
			s.parent = parent
			parent.children = append(parent.children, s)
		}
	}
}

// files builds the four class files.
func (b *builder) files() classFiles {
	var f classFiles
	f.subsystemCnt = len(b.subs)
	for _, s := range b.subs {
		if s.kind.IsWeaponSystem() || s.kind == ships.TypeEngine && s.parent == nil {
			// An engine without a system stays a bare top-level entry:
			// the loader wants engine_type to name its parent.
			continue
		}
		f.subsystems = append(f.subsystems, b.subsystemEntry(s))
	}
	for _, s := range b.subs {
		if s.parent == nil {
			f.serial = append(f.serial, b.serialEntry(s))
		}
	}
	f.power = b.powerFile()
	f.ship = b.shipFile()
	return f
}

func (b *builder) subsystemEntry(s *sub) object {
	p := s.p
	typ := s.kind
	o := object{
		{"name", p.name}, {"type", typ.String()}, {"position", p.vec3("SetPosition")},
		{"radius", p.f32("SetRadius")}, {"max_condition", p.f32("SetMaxCondition")},
		{"disabled_pct", p.f32("SetDisabledPercentage")}, {"is_critical", p.boolean("SetCritical")},
		{"is_targetable", p.boolean("SetTargetable")}, {"repair_complexity", p.f32("SetRepairComplexity")},
		{"is_primary", s.primary},
	}
	weapon := func() {
		fwd, up := p.orientation()
		o = append(o, field{"max_damage", p.f32("SetMaxDamage")}, field{"max_charge", p.f32("SetMaxCharge")},
			field{"min_firing_charge", p.f32("SetMinFiringCharge")}, field{"recharge_rate", p.f32("SetRechargeRate")},
			field{"discharge_rate", p.f32("SetNormalDischargeRate")}, field{"max_damage_distance", p.f32("SetMaxDamageDistance")},
			field{"weapon_id", p.integer("SetWeaponID")}, field{"forward", fwd}, field{"up", up},
			field{"arc_width", p.pair("SetArcWidthAngles")}, field{"arc_height", p.pair("SetArcHeightAngles")})
	}
	switch typ {
	case ships.TypeRepair:
		o = append(o, field{"max_repair_points", p.f32("SetMaxRepairPoints")}, field{"num_repair_teams", p.integer("SetNumRepairTeams")})
	case ships.TypeCloak:
		o = append(o, field{"cloak_strength", p.f32("SetCloakStrength")}, field{"normal_power", p.f32("SetNormalPowerPerSecond")})
	case ships.TypePhaser:
		weapon()
		o = append(o, field{"damage_radius_factor", p.f32("SetDamageRadiusFactor")}, field{"groups", p.integer("SetGroups")},
			field{"strip_width", p.f32("SetWidth")}, field{"strip_length", p.f32("SetLength")}, field{"phaser_width", p.f32("SetPhaserWidth")})
	case ships.TypePulseWeapon:
		weapon()
		module, _ := p.str("SetModuleName")
		stem := ""
		if module != "" {
			if pi, ok := b.project(module); ok {
				stem = pi.stem
			} else {
				b.warn(p.file, p.calls["SetModuleName"].line, "add the projectile's row to SpeciesToTorp.py and its script to Tactical/Projectiles",
					"%q fires %s, which the pack does not hold: the cannon has no projectile", p.name, module)
			}
		}
		o = append(o, field{"damage_radius_factor", p.f32("SetDamageRadiusFactor")}, field{"groups", p.integer("SetGroups")},
			field{"module_name", module}, field{"projectile", stem}, field{"cooldown_time", p.f32("SetCooldownTime")})
	case ships.TypeTractorBeam:
		weapon()
		o = append(o, field{"normal_power", p.f32("SetNormalPowerPerSecond")},
			field{"damage_radius_factor", p.f32("SetDamageRadiusFactor")}, field{"groups", p.integer("SetGroups")})
	case ships.TypeEngine:
		et := "impulse"
		if s.parent.kind == ships.TypeWarpEngine {
			et = "warp"
		}
		o = append(o, field{"engine_type", et})
	case ships.TypeTorpedoTube:
		o = append(o, field{"reload_delay", p.f32("SetReloadDelay")}, field{"max_ready", p.integer("SetMaxReady")},
			field{"immediate_delay", p.f32("SetImmediateDelay")}, field{"weapon_id", p.integer("SetWeaponID")},
			field{"dumbfire", p.boolean("SetDumbfire")}, field{"direction", p.vec3("SetDirection")},
			field{"damage_radius_factor", p.f32("SetDamageRadiusFactor")}, field{"groups", p.integer("SetGroups")})
	}
	return o
}

// serialEntry is a top-level entry of serialization.json (mods.md 3.8).
func (b *builder) serialEntry(s *sub) object {
	format := "powered"
	switch s.kind {
	case ships.TypeHull, ships.TypeShield:
		format = "base"
	case ships.TypePower:
		format = "power"
	}
	o := object{{"format", format}, {"name", s.p.name}, {"max_condition", s.p.f32("SetMaxCondition")}}
	if format == "powered" {
		// power_mode is no hardpoint value: the engine defaults.
		mode := 0
		switch s.kind {
		case ships.TypeTractorSystem:
			mode = 1
		case ships.TypeCloak:
			mode = 2
		}
		o = append(o, field{"normal_power", s.p.f32("SetNormalPowerPerSecond")}, field{"power_mode", mode})
	}
	if len(s.children) > 0 {
		ch := make([]object, len(s.children))
		for i, c := range s.children {
			ch[i] = object{{"name", c.p.name}, {"max_condition", c.p.f32("SetMaxCondition")}, {"id_offset", c.k}}
		}
		o = append(o, field{"children", ch})
	}
	return append(o, field{"id_offset", s.k})
}

// pointer returns the subsystem a kind's pointer holds: the last primary
// one created (mods.md 3.6 rule 2).
func (b *builder) pointer(kind ships.SubsystemType) *sub {
	var out *sub
	for _, s := range b.subs {
		if s.kind == kind && s.primary {
			out = s
		}
	}
	return out
}

func (b *builder) powerFile() object {
	var p *prop
	if s := b.pointer(ships.TypePower); s != nil {
		p = s.p
	}
	return object{
		{"power_output", p.f32("SetPowerOutput")}, {"main_battery_limit", p.f32("SetMainBatteryLimit")},
		{"backup_battery_limit", p.f32("SetBackupBatteryLimit")}, {"main_conduit_capacity", p.f32("SetMainConduitCapacity")},
		{"backup_conduit_capacity", p.f32("SetBackupConduitCapacity")},
	}
}

func (b *builder) shipFile() object {
	get := func(kind ships.SubsystemType) *prop {
		if s := b.pointer(kind); s != nil {
			return s.p
		}
		return nil
	}
	count := func(kind ships.SubsystemType) int {
		n := 0
		for _, s := range b.subs {
			if s.kind == kind {
				n++
			}
		}
		return n
	}
	hull, imp, shield, repair, torps := get(ships.TypeHull), get(ships.TypeImpulseEngine), get(ships.TypeShield), get(ships.TypeRepair), get(ships.TypeTorpedoSystem)
	hp, charge := make([]float32, 6), make([]float32, 6)
	for i, f := range facings {
		hp[i] = shield.indexedF32("SetMaxShields", f, i)
		charge[i] = shield.indexedF32("SetShieldChargePerSecond", f, i)
	}
	ammo := []object{}
	nAmmo := torps.integer("SetNumAmmoTypes")
	for i := 0; i < nAmmo; i++ {
		script := torps.indexedStr("SetTorpedoScript", i)
		stem, nt, name := "", 0, ""
		if script != "" {
			if pi, ok := b.project(script); ok {
				stem, nt, name = pi.stem, pi.netType, pi.name
			} else {
				b.warn(torps.file, torps.line, "add the projectile's row to SpeciesToTorp.py and its script to Tactical/Projectiles",
					"torpedo type %d is %s, which the pack does not hold", i, script)
			}
		} else {
			b.warn(torps.file, torps.line, fmt.Sprintf("give it SetTorpedoScript(%d, \"Tactical.Projectiles.<name>\")", i), "torpedo type %d has no SetTorpedoScript", i)
		}
		ammo = append(ammo, object{{"index", i}, {"script", script}, {"projectile", stem}, {"net_type_id", nt},
			{"ammo_name", name}, {"max_torpedoes", int(torps.indexedF32("SetMaxTorpedoes", strconv.Itoa(i), -1))},
			// The stock multiplayer ship select removes the type named
			// "Phased" (missions.md 3.7).
			{"removed_in_multiplayer", name == "Phased"}})
	}
	systems := []object{}
	for _, s := range b.subs {
		if !s.kind.IsWeaponSystem() {
			continue
		}
		weapons := make([]string, len(s.children))
		for i, c := range s.children {
			weapons[i] = c.p.name
		}
		chain, _ := s.p.str("SetFiringChainString")
		systems = append(systems, object{{"name", s.p.name}, {"type", s.kind.String()}, {"id_offset", s.k},
			{"single_fire", s.p.boolean("SetSingleFire")}, {"aimed_weapon", s.p.boolean("SetAimedWeapon")},
			{"firing_chain", chain}, {"weapons", weapons}})
	}
	return object{
		{"name", b.row.ShipScript}, {"species_id", b.row.Index}, {"faction", b.row.Side},
		{"hull_hp", hull.f32("SetMaxCondition")}, {"mass", b.ship.f32("SetMass")},
		{"rotational_inertia", b.ship.f32("SetRotationalInertia")},
		{"max_speed", imp.f32("SetMaxSpeed")}, {"max_accel", imp.f32("SetMaxAccel")},
		{"max_angular_accel", imp.f32("SetMaxAngularAccel")}, {"max_angular_velocity", imp.f32("SetMaxAngularVelocity")},
		{"shield_hp", hp}, {"shield_recharge", charge},
		{"can_cloak", count(ships.TypeCloak) > 0}, {"has_tractor", count(ships.TypeTractorSystem) > 0},
		{"torpedo_tubes", count(ships.TypeTorpedoTube)}, {"phaser_banks", count(ships.TypePhaser)},
		{"pulse_weapons", count(ships.TypePulseWeapon)}, {"tractor_beams", count(ships.TypeTractorBeam)},
		{"max_repair_points", repair.f32("SetMaxRepairPoints")}, {"num_repair_teams", repair.integer("SetNumRepairTeams")},
		{"stationary", b.ship.boolean("SetStationary")}, {"subsystem_count", len(b.subs)},
		{"num_ammo_types", nAmmo}, {"torpedo_ammo", ammo},
		{"objcreate_tail_full_health_hex", ""}, // filled in once the loader built the class
		{"weapon_systems", systems},
	}
}

// Setter readers. A missing setter reads as zero (the property's
// default); a nil prop (no such property on the ship) likewise.
