package ships

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
)

// This file holds the JSON shapes of the data files (data/README.md). Every
// file is decoded strictly: an unknown field is an error naming the file,
// because a misspelt key in a mod (say "max_conditon") would otherwise
// silently fall back to zero and corrupt the 0x20 stream.

// manifestFile is manifest.json.
type manifestFile struct {
	Version     string   `json:"version"`
	Ships       []string `json:"ships"`
	Projectiles []string `json:"projectiles"`
}

// ShipData is ships/<name>/ship.json: per-class physical and summary data.
type ShipData struct {
	Name               string    `json:"name"`
	SpeciesID          int       `json:"species_id"`
	Faction            string    `json:"faction"`
	HullHP             float32   `json:"hull_hp"`
	Mass               float32   `json:"mass"`
	RotationalInertia  float32   `json:"rotational_inertia"`
	MaxSpeed           float32   `json:"max_speed"`
	MaxAccel           float32   `json:"max_accel"`
	MaxAngularAccel    float32   `json:"max_angular_accel"`
	MaxAngularVelocity float32   `json:"max_angular_velocity"`
	ShieldHP           []float32 `json:"shield_hp"`       // 6 facings: front, rear, top, bottom, left, right
	ShieldRecharge     []float32 `json:"shield_recharge"` // HP/s per facing at full power
	CanCloak           bool      `json:"can_cloak"`
	HasTractor         bool      `json:"has_tractor"`
	TorpedoTubes       int       `json:"torpedo_tubes"`
	PhaserBanks        int       `json:"phaser_banks"`
	PulseWeapons       int       `json:"pulse_weapons"`
	TractorBeams       int       `json:"tractor_beams"`
	MaxRepairPoints    float32   `json:"max_repair_points"`
	NumRepairTeams     int       `json:"num_repair_teams"`
	// Stationary is true for stations, which have no impulse engine and
	// are never flown by a player (simulation.md 3.5).
	Stationary bool `json:"stationary"`
	// SubsystemCount is the number of subsystems, children included: the
	// object ids a ship takes after its own (simulation.md 3.2). 0 = not
	// given (older data); then it is not checked.
	SubsystemCount int `json:"subsystem_count"`
	// NumAmmoTypes is len(TorpedoAmmo).
	NumAmmoTypes int `json:"num_ammo_types"`
	// TorpedoAmmo is the torpedo loadout in ammo-index order.
	TorpedoAmmo []AmmoData `json:"torpedo_ammo"`
	// WeaponSystems lists the class's weapon systems in creation order: the
	// system is what StartFiring (0x07) names (opcodes.md 3.2).
	WeaponSystems []WeaponSystemData `json:"weapon_systems"`
	// ObjCreateTailHex is the full-health ObjCreate subsystem tail the
	// data generator derived for this class (simulation.md 3.4); the tests
	// hold AppendTail to it. Informational: the server builds tails itself.
	ObjCreateTailHex string `json:"objcreate_tail_full_health_hex"`
}

// AmmoData is one torpedo_ammo entry of ship.json: a torpedo type the
// class carries (data/README.md).
type AmmoData struct {
	Index                int    `json:"index"`
	Script               string `json:"script"`
	Projectile           string `json:"projectile"`
	NetTypeID            int    `json:"net_type_id"`
	AmmoName             string `json:"ammo_name"`
	MaxTorpedoes         int    `json:"max_torpedoes"`
	RemovedInMultiplayer bool   `json:"removed_in_multiplayer"`
}

// WeaponSystemData is one weapon_systems entry of ship.json: a phaser,
// pulse, torpedo or tractor system and its weapons (data/README.md).
type WeaponSystemData struct {
	Name string `json:"name"`
	// Type is phaser_system, pulse_system, torpedo_system or tractor_system.
	Type     string `json:"type"`
	IDOffset int    `json:"id_offset"`
	// SingleFire: at most one weapon of the system fires at a time
	// (simulation.md 3.6, 5.5).
	SingleFire  bool `json:"single_fire"`
	AimedWeapon bool `json:"aimed_weapon"`
	// FiringChain is SetFiringChainString, e.g. "0;Single;123;Dual;53;Quad";
	// empty when the system has no chain.
	FiringChain string `json:"firing_chain"`
	// Weapons names the system's weapons (its children) in creation order.
	Weapons []string `json:"weapons"`
}

// SubsystemData is one entry of ships/<name>/subsystems.json. Type-specific
// fields are zero for types that do not carry them (data/README.md).
type SubsystemData struct {
	Name             string     `json:"name"`
	Type             string     `json:"type"`
	Position         [3]float32 `json:"position"`
	Radius           float32    `json:"radius"`
	MaxCondition     float32    `json:"max_condition"`
	DisabledPct      float32    `json:"disabled_pct"`
	IsCritical       bool       `json:"is_critical"`
	IsTargetable     bool       `json:"is_targetable"`
	RepairComplexity float32    `json:"repair_complexity"`
	// IsPrimary is the property's SetPrimary flag (it feeds the integrity
	// hash, simulation.md 4.4).
	IsPrimary bool `json:"is_primary"`

	// repair
	MaxRepairPoints float32 `json:"max_repair_points"`
	NumRepairTeams  int     `json:"num_repair_teams"`
	// cloak
	CloakStrength float32 `json:"cloak_strength"`
	// cloak, tractor_beam
	NormalPower float32 `json:"normal_power"`
	// phaser, pulse_weapon, tractor_beam
	MaxDamage         float32    `json:"max_damage"`
	MaxCharge         float32    `json:"max_charge"`
	MinFiringCharge   float32    `json:"min_firing_charge"`
	RechargeRate      float32    `json:"recharge_rate"`
	DischargeRate     float32    `json:"discharge_rate"`
	MaxDamageDistance float32    `json:"max_damage_distance"`
	Forward           [3]float32 `json:"forward"`
	Up                [3]float32 `json:"up"`
	ArcWidth          [2]float32 `json:"arc_width"`
	ArcHeight         [2]float32 `json:"arc_height"`
	// phaser, pulse_weapon, tractor_beam, torpedo_tube
	WeaponID int `json:"weapon_id"`
	// DamageRadiusFactor is SetDamageRadiusFactor: for a beam the hit
	// radius of its hits; a bolt or torpedo uses its projectile's value
	// instead (simulation.md 5.5).
	DamageRadiusFactor float32 `json:"damage_radius_factor"`
	// Groups is SetGroups: the firing-chain group(s) of the weapon.
	Groups int `json:"groups"`
	// phaser: the firing-strip ellipse of the arc test (simulation.md 3.6)
	// and SetPhaserWidth.
	StripWidth  float32 `json:"strip_width"`
	StripLength float32 `json:"strip_length"`
	PhaserWidth float32 `json:"phaser_width"`
	// pulse_weapon: the projectile script each bolt is built from, the
	// file stem of that projectile under projectiles/, and
	// SetCooldownTime in seconds.
	ModuleName   string  `json:"module_name"`
	Projectile   string  `json:"projectile"`
	CooldownTime float32 `json:"cooldown_time"`
	// torpedo_tube
	ReloadDelay    float32    `json:"reload_delay"`
	MaxReady       int        `json:"max_ready"`
	ImmediateDelay float32    `json:"immediate_delay"`
	Dumbfire       bool       `json:"dumbfire"`
	Direction      [3]float32 `json:"direction"`
	// engine: impulse or warp (hardpoint SetEngineType), the system the
	// engine is a child of.
	EngineType string `json:"engine_type"`
}

// engineSystemType is the system type an engine of engine_type t is a
// child of (NoType for a t that is neither impulse nor warp).
func engineSystemType(t string) SubsystemType {
	switch t {
	case "impulse":
		return TypeImpulseEngine
	case "warp":
		return TypeWarpEngine
	}
	return NoType
}

// serialEntryFile is one top-level entry of serialization.json.
type serialEntryFile struct {
	Format       string            `json:"format"`
	Name         string            `json:"name"`
	MaxCondition *float32          `json:"max_condition"`
	Children     []serialChildFile `json:"children"`
	NormalPower  float32           `json:"normal_power"`
	PowerMode    int               `json:"power_mode"`
	IDOffset     int               `json:"id_offset"`
}

// serialChildFile is one child of a serialization entry.
type serialChildFile struct {
	Name         string   `json:"name"`
	MaxCondition *float32 `json:"max_condition"`
	IDOffset     int      `json:"id_offset"`
}

// PowerData is ships/<name>/power.json (simulation.md 10).
type PowerData struct {
	PowerOutput           float32 `json:"power_output"`
	MainBatteryLimit      float32 `json:"main_battery_limit"`
	BackupBatteryLimit    float32 `json:"backup_battery_limit"`
	MainConduitCapacity   float32 `json:"main_conduit_capacity"`
	BackupConduitCapacity float32 `json:"backup_conduit_capacity"`
}

// Projectile is projectiles/<name>.json: a torpedo or bolt type. NetTypeID
// is its SpeciesToTorp index, the species byte of class 0x8009 objects
// (simulation.md 3.3).
type Projectile struct {
	Name               string  `json:"name"`
	Script             string  `json:"script"`
	NetTypeID          int     `json:"net_type_id"`
	Damage             float32 `json:"damage"`
	DamageRadiusFactor float32 `json:"damage_radius_factor"`
	LaunchSpeed        float32 `json:"launch_speed"`
	PowerCost          float32 `json:"power_cost"`
	GuidanceLifetime   float32 `json:"guidance_lifetime"`
	MaxAngularAccel    float32 `json:"max_angular_accel"`
	Lifetime           float32 `json:"lifetime"`
	// ScriptNetType is the SetNetType value the script gives the
	// projectile object; it differs from NetTypeID for three scripts.
	ScriptNetType int    `json:"script_net_type"`
	LaunchSound   string `json:"launch_sound"`
	// BoltLength and BoltWidth size a bolt's model (nil for torpedoes);
	// a bolt's bounding radius is BoltLength/2 (data/README.md).
	BoltLength *float32 `json:"bolt_length"`
	BoltWidth  *float32 `json:"bolt_width"`

	// Stem is the file stem under projectiles/ ("photontorpedo"), the name
	// ship data uses to refer to the projectile.
	Stem string `json:"-"`
	// File is the file the projectile was loaded from (fs path).
	File string `json:"-"`
}

// GameMode is gamemodes/<name>.json: descriptive defaults for a mission.
// These files are informational only: missions.md 7.6 lists mappings in
// the vanilla set that are wrong (e.g. a "Base Assault" Mission4), so the
// mission rules come from missions.md, never from here.
type GameMode struct {
	ID                string          `json:"id"`
	Name              string          `json:"name"`
	Description       string          `json:"description"`
	Script            string          `json:"script"`
	Teams             bool            `json:"teams"`
	TeamCount         int             `json:"team_count"`
	TeamNames         []string        `json:"team_names"`
	HasObjective      bool            `json:"has_objective"`
	Objective         string          `json:"objective"`
	AsymmetricScoring bool            `json:"asymmetric_scoring"`
	Scoring           GameModeScoring `json:"scoring"`
	Defaults          GameModeLimits  `json:"defaults"`

	// Key is the file stem (e.g. "deathmatch"); modes are keyed by it
	// because ids repeat in the vanilla set (two files say "mission3").
	Key string `json:"-"`
	// File is the file the mode was loaded from (fs path).
	File string `json:"-"`
}

// GameModeScoring is the "scoring" object of a game mode. The vanilla
// faction-deathmatch.json gives a bare string ("team") instead of an object;
// that form is accepted and stored in Mode.
type GameModeScoring struct {
	Mode                   string `json:"mode"`
	KillAwardsFrag         bool   `json:"kill_awards_frag"`
	DamageContributesScore bool   `json:"damage_contributes_score"`
	FriendlyFirePenalty    bool   `json:"friendly_fire_penalty"`
	OnlyDefenderKillsCount bool   `json:"only_defender_kills_count"`
}

// UnmarshalJSON accepts the object form strictly and the bare-string form.
func (s *GameModeScoring) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*s = GameModeScoring{}
		return json.Unmarshal(b, &s.Mode)
	}
	type plain GameModeScoring // no UnmarshalJSON: avoids recursion
	var p plain
	if err := decodeStrict(b, &p); err != nil {
		return fmt.Errorf("scoring: %w", err)
	}
	*s = GameModeScoring(p)
	return nil
}

// GameModeLimits is the "defaults" object of a game mode (-1 = none).
type GameModeLimits struct {
	PlayerLimit      int `json:"player_limit"`
	TimeLimitMinutes int `json:"time_limit_minutes"`
	FragLimit        int `json:"frag_limit"`
}

// decodeStrict decodes one JSON value, rejecting unknown fields and
// trailing data.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// readJSON reads and strictly decodes one file, naming it in errors.
func readJSON(fsys fs.FS, name string, v any) error {
	if p, ok := fsys.(predecoded); ok && p.decode(name, v) {
		return nil
	}
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err // fs errors already carry the path
	}
	if err := decodeStrict(b, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
