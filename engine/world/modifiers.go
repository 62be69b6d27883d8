package world

// Modifiers scale the stock model's numbers for one ship, for custom
// rulesets (docs/lua-api.md "Custom rules"): a mission can make a class
// hit harder, a team's shields recharge faster or a flagship shrug off
// rams. Each factor multiplies what the stock model computes at the step
// it names, so the host's health updates carry the result to every client.
// The zero Modifiers is stock play (every factor 1).
type Modifiers struct {
	// DamageDealt scales the damage of every weapon hit this ship deals
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

// factor is a Modifiers factor: 0 (not set) means 1.
func factor(f float32) float32 {
	if f == 0 {
		return 1
	}
	return max(f, 0)
}

// SetModifiers sets a ship's modifiers; the zero value restores stock play.
func (o *Object) SetModifiers(m Modifiers) {
	if m == (Modifiers{}) {
		o.mods = nil
		return
	}
	o.mods = &m
}

// Modifiers returns a ship's modifiers (the zero value in stock play).
func (o *Object) Modifiers() Modifiers {
	if o.mods == nil {
		return Modifiers{}
	}
	return *o.mods
}

// mod returns one factor of a ship's modifiers: 1 without any.
func (o *Object) mod(pick func(*Modifiers) float32) float32 {
	if o == nil || o.mods == nil {
		return 1
	}
	return factor(pick(o.mods))
}

func dealt(m *Modifiers) float32      { return m.DamageDealt }
func shieldDmg(m *Modifiers) float32  { return m.ShieldDamage }
func hullDmg(m *Modifiers) float32    { return m.HullDamage }
func subDmg(m *Modifiers) float32     { return m.SubsystemDamage }
func collided(m *Modifiers) float32   { return m.CollisionDamage }
func recharge(m *Modifiers) float32   { return m.ShieldRecharge }
func repairRate(m *Modifiers) float32 { return m.RepairRate }
