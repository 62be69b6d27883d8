package world

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/engine/ships"
)

// Every modelled ship carries the host's copy of its weapon systems, as
// every stock peer does (simulation.md 5.5): a phaser system's target list
// (filled by StartFiring 0x07 from the owner, or by FireAt for a host
// ship), its level (0x12) and its banks, which choose, aim and fire beams
// every tick by the stock rules (3.6 "Weapon system, per frame"); the
// charge of pulse cannons and the load of torpedo tubes. Player bolts and
// torpedoes arrive one by one (0x1A, 0x19) and are checked against the
// copy; a host ship's cannons and tubes fire from it.

// Weapon groups name a ship's weapon systems to FireAt and StopFiring.
const (
	GroupPhasers   = "phasers"
	GroupTorpedoes = "torpedoes"
	GroupPulse     = "pulse"
	GroupTractors  = "tractors"
)

// groupOf names the group of a kind of weapon's systems ("" for a kind the
// host does not model). Tractors deal no damage (tractors.go).
func groupOf(w ships.Weapon) string {
	switch w {
	case ships.WeaponPhaser:
		return GroupPhasers
	case ships.WeaponPulse:
		return GroupPulse
	case ships.WeaponTorpedo:
		return GroupTorpedoes
	case ships.WeaponTractor:
		return GroupTractors
	}
	return ""
}

// Groups returns the weapon groups of the kinds the host models, in the
// ship data's order of weapons: what FireAt, StopFiring and Targets take.
func Groups() []string {
	var out []string
	for _, w := range ships.Weapons() {
		if g := groupOf(w); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// IsGroup reports whether g names a weapon group (Groups).
func IsGroup(g string) bool {
	for _, w := range ships.Weapons() {
		if g != "" && groupOf(w) == g {
			return true
		}
	}
	return false
}

// systemDisabled is a weapon system container's disabled fraction:
// containers are not in subsystems.json; the starbase's Phasers system has
// 0.75 (simulation.md 3.6), as every stock bank does.
const systemDisabled float32 = 0.75

// weaponSystem is one weapon system of a ship and its weapons.
type weaponSystem struct {
	entry, sub int // the container's entry and subsystem index
	weapon     ships.Weapon
	group      string
	singleFire bool
	firing     bool // the stock "firing" flag: StartFiring has run
	level      int  // phaser level, MED at construction [code: FUN_00573c90]
	targets    []aimTarget
	last       int // the bank that fired last: a pass starts there
	banks      []weaponBank
	nextLaunch time.Time
	ammo       []int // torpedoes left per ammo type
	ammoType   int
}

// aimTarget is one entry of a system's target list: the target and the
// aim offset in its model frame, by default its power plant (simulation.md
// 3.6).
type aimTarget struct {
	id        int32
	offset    [3]float32
	hasOffset bool
}

// beamState is a phaser bank's state (bank +0xF4, simulation.md 5.5).
type beamState uint8

const (
	bankIdle beamState = iota
	bankWindup
	bankExtend
	bankHitting
)

// weaponBank is one weapon of a system: a phaser bank, a pulse cannon or
// a torpedo tube.
type weaponBank struct {
	sub    int
	charge float32
	// A beam: its state and the time spent in it, the target it was
	// started at, and the hits gathered on the object its ray meets.
	state  beamState
	since  float32
	target int32
	hitID  int32
	accum  float32 // seconds of hitting hitID not yet applied
	hitAt  trace   // where the ray last met hitID
	hitD   float32 // distance from the bank to that point
	// A tube: torpedoes ready and the time to the next.
	loaded int
	reload float32
	// debt counts a player's torpedoes fired on a reload not yet done
	// (within the fair-play FireLag): the reloads pay them first.
	debt int
	// lastShot is the time of the weapon's last shot, for the rate check
	// of a player's torpedoes and a host ship's cannons.
	lastShot time.Time
}

// newArms builds a class's weapon systems, in creation order: from the
// data's weapon_systems, or for older data from the 0x20 entries' kinds.
func newArms(c *ships.Class) []weaponSystem {
	var out []weaponSystem
	add := func(sub int, w ships.Weapon, single bool, members []int) {
		s := weaponSystem{entry: c.Subsystems[sub].Entry, sub: sub, weapon: w, singleFire: single, level: LevelMed,
			group: groupOf(w)}
		if s.group == "" {
			return // no weapon system, or a kind the host does not model
		}
		if w == ships.WeaponTorpedo {
			for _, a := range c.TorpedoAmmo {
				s.ammo = append(s.ammo, a.MaxTorpedoes)
			}
		}
		// Sized ahead: a ship keeps these for its life (two to three
		// kB of a player's memory), and growing them by appending left
		// up to half their room unused.
		s.banks = make([]weaponBank, 0, len(members))
		for _, i := range members {
			if d := c.Subsystems[i].Data; d != nil {
				s.banks = append(s.banks, weaponBank{sub: i, charge: d.MaxCharge, loaded: d.MaxReady, reload: d.ReloadDelay})
			}
		}
		if len(s.banks) > 0 {
			out = append(out, s)
		}
	}
	if len(c.WeaponSystems) > 0 {
		out = make([]weaponSystem, 0, len(c.WeaponSystems))
		for k := range c.WeaponSystems {
			ws := &c.WeaponSystems[k]
			add(ws.Subsystem, c.Entries[c.Subsystems[ws.Subsystem].Entry].Weapon, ws.SingleFire, ws.Members)
		}
		return out
	}
	for e := range c.Entries {
		en := &c.Entries[e]
		var members []int
		for i := en.Subsystem + 1; i <= en.Subsystem+en.Children; i++ {
			members = append(members, i)
		}
		add(en.Subsystem, en.Weapon, false, members)
	}
	return out
}

// systemOf returns the ship's weapon system whose container has object id
// id, or nil.
func (o *Object) systemOf(id int32) *weaponSystem {
	i, ok := o.Model.SubsystemIndex(id)
	if !ok {
		return nil
	}
	for k := range o.sim.arms {
		if o.sim.arms[k].sub == i {
			return &o.sim.arms[k]
		}
	}
	return nil
}

// bankOf returns the system and weapon whose subsystem index is i.
func (o *Object) bankOf(i int) (*weaponSystem, *weaponBank) {
	for k := range o.sim.arms {
		s := &o.sim.arms[k]
		for j := range s.banks {
			if s.banks[j].sub == i {
				return s, &s.banks[j]
			}
		}
	}
	return nil, nil
}

// addTarget appends a target to the list (the stock StartFiring): not
// twice, never the ship itself, at most maxTargets.
func (s *weaponSystem) addTarget(self int32, t aimTarget) bool {
	if t.id == 0 || t.id == self || len(s.targets) >= maxTargets {
		return false
	}
	for i := range s.targets {
		if s.targets[i].id == t.id {
			return false
		}
	}
	s.targets = append(s.targets, t)
	s.firing = true
	return true
}

// maxTargets bounds a system's target list.
const maxTargets = 64

// systemDown reports a weapon system that cannot fire: destroyed, below
// its disabled fraction, switched off, or on a cloaked ship (cloaking
// disables the weapons through the same path, simulation.md 5.6).
func systemDown(o *Object, s *weaponSystem) bool {
	if o.Cloaked() {
		return true
	}
	m := o.Model
	if _, on := m.Power(s.entry); !on {
		return true
	}
	return m.ConditionFraction(s.sub) < systemDisabled
}

// bankDown reports a weapon that cannot fire: below its disabled fraction.
func bankDown(o *Object, b *weaponBank) bool {
	m := o.Model
	d := m.Class().Subsystems[b.sub].Data
	return m.Condition(b.sub) <= 0 || m.ConditionFraction(b.sub) < d.DisabledPct
}

func bankData(o *Object, b *weaponBank) *ships.SubsystemData {
	return o.Model.Class().Subsystems[b.sub].Data
}

// ammoLeft is the selected ammo type's torpedoes not yet fired (the
// loaded ones included).
func (s *weaponSystem) ammoLeft() int {
	if s.ammoType < 0 || s.ammoType >= len(s.ammo) {
		return 0
	}
	return s.ammo[s.ammoType]
}

// loadedTubes counts the torpedoes loaded in the system's tubes.
func (s *weaponSystem) loadedTubes() int {
	n := 0
	for i := range s.banks {
		n += s.banks[i].loaded
	}
	return n
}

// find returns the index of a target in the list, -1 if absent.
func (s *weaponSystem) find(id int32) int {
	for i := range s.targets {
		if s.targets[i].id == id {
			return i
		}
	}
	return -1
}

// inArc checks that a world-frame direction from a weapon lies inside its
// firing arc (simulation.md 3.6 "Can a bank hit the target"): the azimuth
// in the weapon's strip plane, measured from its Forward, within
// ArcWidth, and the elevation above that plane, seen from the point of the
// firing strip's ellipse (StripWidth × StripLength) at that azimuth,
// within ArcHeight; both widened by tol. Without the ship's orientation it
// passes.
func inArc(ship *Object, d *ships.SubsystemData, world [3]float32, tol float64) bool {
	if _, _, ok := ship.axes(); !ok || d.ArcWidth == [2]float32{} {
		return true
	}
	return inArcLocal(d, toLocal(ship, world), tol)
}

// inArcLocal is inArc for a direction v already in the ship's frame.
func inArcLocal(d *ships.SubsystemData, v [3]float32, tol float64) bool {
	f := unit3(d.Forward, [3]float32{0, 1, 0})
	u := unit3(d.Up, [3]float32{0, 0, 1})
	r := cross3(f, u)
	x, y := float64(dot3(v, r)), float64(dot3(v, f))
	az := math.Atan2(x, y)
	// The strip's edge at that azimuth, then the target's height above the
	// strip plane as seen from there.
	ex, ey := float64(d.StripWidth)/2*math.Sin(az), float64(d.StripLength)/2*math.Cos(az)
	flat := math.Hypot(x-ex, y-ey)
	el := math.Atan2(float64(dot3(v, u)), flat)
	within := func(a float64, lim [2]float32) bool {
		// Some stock arcs list their limits high to low.
		lo, hi := float64(min(lim[0], lim[1])), float64(max(lim[0], lim[1]))
		return a >= lo-tol && a <= hi+tol
	}
	// An arc that wraps past ±π is tried again shifted by a turn
	// [code: FUN_005714a0, the constant at 0x0089316C].
	inAz := within(az, d.ArcWidth) || within(az+2*math.Pi, d.ArcWidth) || within(az-2*math.Pi, d.ArcWidth)
	return inAz && within(el, d.ArcHeight)
}

// weaponPos is where a weapon sits in the world at run time: a phaser
// bank on its strip (ships.RuntimePosition), where its beam starts.
func weaponPos(o *Object, b *weaponBank) [3]float32 {
	return worldPoint(o, o.Model.Class().Subsystems[b.sub].Position)
}

// mountPos is a weapon's hardpoint position in the world, the origin of
// its firing arc: inArc finds the strip's edge from there itself.
func mountPos(o *Object, b *weaponBank) [3]float32 { return worldPoint(o, bankData(o, b).Position) }

// factionTorpedo is the projectile assumed for a ship's torpedoes when its
// data has no torpedo_ammo list (older or mod data; net type ids,
// SpeciesToTorp).
var factionTorpedo = map[string]int{
	"Federation": 2,  // PhotonTorpedo
	"Klingon":    6,  // KlingonTorpedo
	"Romulan":    12, // PhasedPlasma
	"Ferengi":    2,
	"Cardassian": 5, // CardassianTorpedo
	"Kessok":     7, // PositronTorpedo
}

// torpedoFor returns the projectile net type a class fires with ammo type
// ammo selected: the TorpedoTypeChange value (and the ObjCreate tail's
// ammo byte) indexes the class's torpedo_ammo list (simulation.md 5.5).
// Without a list, or for an index outside it, the faction's torpedo is
// used.
func torpedoFor(c *ships.Class, ammo int) int {
	if ammo >= 0 && ammo < len(c.TorpedoAmmo) {
		return c.TorpedoAmmo[ammo].NetTypeID
	}
	if len(c.TorpedoAmmo) > 0 {
		return c.TorpedoAmmo[0].NetTypeID
	}
	if t, ok := factionTorpedo[c.Faction]; ok {
		return t
	}
	return 2
}

// pulseCost is the charge one bolt of a cannon costs at MED, the setting
// every peer models (simulation.md 5.5): its NormalDischargeRate.
func pulseCost(d *ships.SubsystemData) float32 { return d.DischargeRate * pulseCostFactor[LevelMed] }

// pulseChargeSlack forgives float rounding between the client's charge and
// the host's copy: a Warbird cannon's second bolt leaves 0.03 of 2.0.
const pulseChargeSlack float32 = 1e-3

// pulseCharged reports whether a cannon's charge covers one bolt: a cannon
// fires while it does, not from MinFiringCharge or after CooldownTime
// [measured P1, P4; Correction 44].
func pulseCharged(b *weaponBank, d *ships.SubsystemData) bool {
	return b.charge+pulseChargeSlack >= pulseCost(d)
}
