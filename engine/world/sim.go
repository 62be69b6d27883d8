package world

import (
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The tick (Tick): every ship in id order takes its repair, shields, the
// Multi6 nebula, its power, a host ship's flight and its weapon systems —
// charge and reload, then each system's pass (phasers: beams.go, tractors:
// tractors.go, a host ship's cannons and tubes: hostweapons.go) — and then
// the projectiles in flight move (projectiles.go).

// Simulation constants (simulation.md). Values the sources do not pin down
// are documented where they are chosen.
const (
	// powerPeriod is the power system's game-time period (10).
	powerPeriod = time.Second
)

// Shield facings, in ship.json order (data/README.md).
const (
	facingFront = iota
	facingRear
	facingTop
	facingBottom
	facingLeft
	facingRight
)

// simState is the host's simulation state of a ship beyond the condition
// and power the ships.Ship model keeps.
type simState struct {
	shields     [6]float32
	shieldClock time.Duration // game time toward the next regeneration step
	dead        bool
	diedAt      time.Time
	lifetime    time.Duration
	repair      []int // queued subsystem indices, active ones first
	lastPower   time.Time
	lastTick    time.Time
	shape       shape // the class's approximate geometry (geometry.go)
	hashChecked bool
	arms        []weaponSystem
	// tractoredBy is the ship whose tractor last held this one, at
	// tractoredAt (TractoredBy).
	tractoredBy int32
	tractoredAt time.Time
	// collidedAt is when a collision last damaged the ship: the push
	// exempts its movement from the fair-play rules for a while.
	collidedAt  time.Time
	nebulaClock time.Duration // game time toward the next nebula damage step
}

// Tick advances every ship's simulation to now (one game tick), in object
// id order: repair, shields, the power system every second of game time,
// a host ship's movement, every ship's weapon systems and beams, and the
// removal of wrecks whose explosion is over; then the projectiles in
// flight. Each ship measures the time since its last step itself.
func (w *World) Tick(now time.Time) {
	dt := now.Sub(w.tickAt)
	w.now, w.tickAt = now, now
	for i := 0; i < len(w.fleet); i++ {
		o := w.fleet[i]
		st := &o.sim
		if st.dead {
			if now.Sub(st.diedAt) >= st.lifetime {
				w.remove(o) // takes o out of w.fleet
				i--
			}
			continue
		}
		step := now.Sub(st.lastTick)
		st.lastTick = now
		if step <= 0 {
			continue
		}
		secs := float32(step.Seconds())
		w.repairTick(o, secs)
		w.shieldTick(o, step)
		if w.nebulaTick(o, step) {
			continue
		}
		for now.Sub(st.lastPower) >= powerPeriod {
			st.lastPower = st.lastPower.Add(powerPeriod)
			powerTick(o.Model)
		}
		if o.host != nil {
			w.moveTick(o, secs)
		}
		w.armsTick(o, secs)
	}
	if dt > 0 {
		w.projectileTick(float32(dt.Seconds()))
	}
}

// armsTick runs a ship's weapon systems for dt seconds: charge and
// reload, the phaser systems' pass and beams, and a host ship's cannons
// and tubes.
func (w *World) armsTick(o *Object, dt float32) {
	for i := range o.sim.arms {
		s := &o.sim.arms[i]
		w.chargeBanks(o, s, dt)
		switch s.weapon {
		case ships.WeaponPhaser:
			w.phaserTick(o, s, dt)
		case ships.WeaponTractor:
			w.tractorTick(o, s, dt)
		case ships.WeaponPulse, ships.WeaponTorpedo:
			if o.host != nil && s.firing {
				w.hostLauncherTick(o, s)
			}
		}
	}
}

// chargeBanks recharges the weapons that are not beaming (simulation.md
// 5.5: RechargeRate × condition fraction, × the multiplayer multiplier for
// phaser banks, clamped to MaxCharge) and reloads the tubes.
func (w *World) chargeBanks(o *Object, s *weaponSystem, dt float32) {
	m := o.Model
	for k := range s.banks {
		b := &s.banks[k]
		d := bankData(o, b)
		switch {
		case s.weapon == ships.WeaponTorpedo:
			// A player's tubes are tracked only while the fair-play rules
			// judge them: they reload, like a host ship's, while the
			// magazine has torpedoes beyond those loaded.
			tracked := o.host != nil || w.fair != nil && len(s.ammo) > 0
			if b.loaded >= d.MaxReady && b.debt == 0 || tracked && s.ammoLeft() <= s.loadedTubes() {
				b.reload = d.ReloadDelay
				continue
			}
			b.reload -= dt * m.ConditionFraction(b.sub)
			if b.reload <= 0 {
				if b.debt > 0 {
					b.debt--
				} else {
					b.loaded++
				}
				b.reload = d.ReloadDelay
			}
		case b.state == bankIdle:
			// Only phaser banks take the multiplayer multiplier [code:
			// FUN_00572b80 has it, the energy-weapon base FUN_0056fd70
			// that pulse cannons use has none; Correction 44].
			k := float32(1)
			if s.weapon == ships.WeaponPhaser {
				k = rechargeMultiplier
			}
			b.charge = min(d.MaxCharge, b.charge+d.RechargeRate*m.ConditionFraction(b.sub)*dt*k)
		}
	}
}

// shieldTick regenerates the facings in the stock steps (simulation.md
// 5.5): every shieldStep of game time each facing regains shieldStepGain
// × its hardpoint rate, up to its maximum, the same at any power setting
// [measured §5.3 S5]. The generator is binary [measured §5.3 S6]: below its
// disabled percentage it holds every facing at 0; above, its condition
// does not scale the regeneration (no source says it does). One switched
// off, or a cloaked ship's, keeps its facings as they are and regains
// nothing.
func (w *World) shieldTick(o *Object, dt time.Duration) {
	c := o.Model.Class()
	if g := c.ShieldGenerator; g >= 0 && SubsystemDisabled(o.Model, g) {
		o.sim.shields = [6]float32{}
		o.sim.shieldClock = 0
		return
	}
	if !shieldsUp(o) {
		o.sim.shieldClock = 0
		return
	}
	o.sim.shieldClock += dt
	for o.sim.shieldClock >= shieldStep {
		o.sim.shieldClock -= shieldStep
		for i := range o.sim.shields {
			if i < len(c.ShieldHP) && i < len(c.ShieldRecharge) {
				o.sim.shields[i] = min(c.ShieldHP[i], o.sim.shields[i]+c.ShieldRecharge[i]*shieldStepGain*w.mod(o, recharge))
			}
		}
	}
}

// powerTick runs one second of the power system (simulation.md 10): the
// reactor charges the main battery, then the backup; consumers draw through
// the conduits and, when short, each gets the same fraction of its demand,
// which powerTick returns. The battery levels reach the wire (0x20 power
// entry).
func powerTick(s *ships.Ship) float32 {
	c := s.Class()
	if c.PowerEntry < 0 {
		return 1
	}
	p := &c.Power
	reactor := float32(1)
	if c.Reactor >= 0 {
		reactor = s.ConditionFraction(c.Reactor)
	}
	main, backup := s.Batteries()
	gen := p.PowerOutput * reactor
	room := p.MainBatteryLimit - main
	main += min(gen, room)
	backup += max(0, gen-room)
	var demand float32
	for e := range c.Entries {
		if c.Entries[e].Format != ships.FormatPowered {
			continue
		}
		if wanted, on := s.Power(e); on {
			demand += c.Entries[e].NormalPower * wanted
		}
	}
	fromMain := min(demand, main, p.MainConduitCapacity*reactor)
	main -= fromMain
	fromBackup := min(demand-fromMain, backup, p.BackupConduitCapacity)
	backup -= fromBackup
	s.SetBatteries(main, backup)
	if demand <= 0 {
		return 1
	}
	return (fromMain + fromBackup) / demand
}

// repairTick repairs the active queue entries (simulation.md 8) and
// announces completions.
func (w *World) repairTick(o *Object, dt float32) {
	st := &o.sim
	if len(st.repair) == 0 {
		return
	}
	m := o.Model
	c := m.Class()
	frac := float32(1)
	points, teams := c.MaxRepairPoints, c.NumRepairTeams
	if c.Repair >= 0 {
		frac = m.ConditionFraction(c.Repair)
		if d := c.Subsystems[c.Repair].Data; d != nil && d.MaxRepairPoints > 0 {
			points, teams = d.MaxRepairPoints, d.NumRepairTeams
		}
	}
	if teams <= 0 {
		teams = 1
	}
	pool := points * frac * dt * w.mod(o, repairRate)
	active := min(len(st.repair), teams)
	share := pool / float32(active)
	for k := 0; k < active && k < len(st.repair); {
		i := st.repair[k]
		sub := &c.Subsystems[i]
		if m.Condition(i) <= 0 {
			w.repairEvent(o, codec.EventRepairCannotBeCompleted, i)
			st.repair = append(st.repair[:k], st.repair[k+1:]...)
			continue
		}
		complexity := float32(1)
		if sub.Data != nil && sub.Data.RepairComplexity > 0 {
			complexity = sub.Data.RepairComplexity
		}
		setHP(m, i, hp(m, i)+share/complexity)
		if m.Condition(i) >= sub.MaxCondition {
			w.repairEvent(o, codec.EventRepairCompleted, i)
			st.repair = append(st.repair[:k], st.repair[k+1:]...)
			continue
		}
		k++
	}
}
