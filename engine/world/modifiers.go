package world

import "math"

// Modifiers scale the stock model's numbers for custom rulesets
// (docs/lua-api.md "Custom rules"): a mission can make a class hit harder,
// a team's shields recharge faster or a flagship shrug off rams. Each
// factor multiplies what the stock model computes at the step it names,
// so the host's health updates carry the result to every client. A factor
// of 0 means "not set" (1), so the zero Modifiers is stock play; None
// makes a factor (practically) zero.
type Modifiers struct {
	// DamageDealt scales the damage of every weapon hit the ship deals
	// (each beam quantum, bolt and torpedo), before the target's shields.
	DamageDealt float32
	// ShieldDamage scales what the ship's shield facings lose for the
	// damage they absorb (how much they stop is the stock ramp).
	ShieldDamage float32
	// HullDamage and SubsystemDamage scale what its hull and its other
	// subsystems lose to a hit that gets through.
	HullDamage      float32
	SubsystemDamage float32
	// CollisionDamage scales the collision damage the ship takes.
	CollisionDamage float32
	// ShieldRecharge and RepairRate scale its shield regeneration and its
	// repair teams' work.
	ShieldRecharge float32
	RepairRate     float32
}

// None is the factor that makes a step (practically) zero: 0 itself means
// "not set".
const None = math.SmallestNonzeroFloat32

// ModifierRules are modifiers by class (species) and by team; a ship's
// factors are its class's × its team's × its own (Object.SetModifiers).
type ModifierRules struct {
	Classes map[int]Modifiers
	Teams   map[int]Modifiers
}

// SetModifierRules sets the class and team modifiers (the zero value:
// none). They apply at once to every ship, and to every ship made later.
func (w *World) SetModifierRules(r ModifierRules) {
	if len(r.Classes) == 0 && len(r.Teams) == 0 {
		w.rules = nil
		return
	}
	w.rules = &r
}

// ModifierRules returns the class and team modifiers in force.
func (w *World) ModifierRules() ModifierRules {
	if w.rules == nil {
		return ModifierRules{}
	}
	return *w.rules
}

// SetModifiers sets a ship's own modifiers; the zero value removes them.
// They go with the ship: a player's next ship has none.
func (o *Object) SetModifiers(m Modifiers) {
	if m == (Modifiers{}) {
		o.mods = nil
		return
	}
	o.mods = &m
}

// Modifiers returns a ship's own modifiers (the zero value when it has
// none).
func (o *Object) Modifiers() Modifiers {
	if o.mods == nil {
		return Modifiers{}
	}
	return *o.mods
}

// Effective returns the factors that apply to ship o: its class's × its
// team's × its own, every field set (1 in stock play).
func (w *World) Effective(o *Object) Modifiers {
	return Modifiers{
		DamageDealt: w.mod(o, dealt), ShieldDamage: w.mod(o, shieldDmg), HullDamage: w.mod(o, hullDmg),
		SubsystemDamage: w.mod(o, subDmg), CollisionDamage: w.mod(o, collided),
		ShieldRecharge: w.mod(o, recharge), RepairRate: w.mod(o, repairRate),
	}
}

// factor is a Modifiers factor: 0 (not set) means 1.
func factor(f float32) float32 {
	if f == 0 {
		return 1
	}
	return max(f, 0)
}

// mod returns one factor for ship o: 1 in stock play, without a lookup.
func (w *World) mod(o *Object, pick func(*Modifiers) float32) float32 {
	if o == nil || o.mods == nil && w.rules == nil {
		return 1
	}
	f := float32(1)
	if o.mods != nil {
		f *= factor(pick(o.mods))
	}
	if w.rules != nil {
		if m, ok := w.rules.Classes[o.Species]; ok {
			f *= factor(pick(&m))
		}
		if m, ok := w.rules.Teams[o.Team()]; ok {
			f *= factor(pick(&m))
		}
	}
	return f
}

func dealt(m *Modifiers) float32      { return m.DamageDealt }
func shieldDmg(m *Modifiers) float32  { return m.ShieldDamage }
func hullDmg(m *Modifiers) float32    { return m.HullDamage }
func subDmg(m *Modifiers) float32     { return m.SubsystemDamage }
func collided(m *Modifiers) float32   { return m.CollisionDamage }
func recharge(m *Modifiers) float32   { return m.ShieldRecharge }
func repairRate(m *Modifiers) float32 { return m.RepairRate }
