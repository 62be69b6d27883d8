package world

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

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
	dead        bool
	diedAt      time.Time
	lifetime    time.Duration
	repair      []int // queued subsystem indices, active ones first
	lastPower   time.Time
	lastTick    time.Time
	radius      float32 // bounding radius estimate, model units
	hashChecked bool
	lastFire    map[int]time.Time // per weapon subsystem, for the weapon model's rate check
	// efficiency is the share of the consumers' demand the power system
	// met in its last second (1 = everything); shields recharge by it.
	efficiency float32
}

// initSim prepares a new ship's simulation state.
func (w *World) initSim(o *Object) {
	if o.Model == nil {
		return
	}
	c := o.Model.Class()
	for i := range o.sim.shields {
		if i < len(c.ShieldHP) {
			o.sim.shields[i] = c.ShieldHP[i]
		}
	}
	o.sim.radius = boundingRadius(c)
	o.sim.lastFire = make(map[int]time.Time)
	o.sim.efficiency = 1
	o.sim.lastPower = w.now
	o.sim.lastTick = w.now
}

// BoundingRadius estimates a class's bounding radius in world units from
// its subsystems: the data set has no bounding radius (data/README.md
// caveats), and every subsystem lies inside the hull.
func BoundingRadius(c *ships.Class) float32 { return boundingRadius(c) }

func boundingRadius(c *ships.Class) float32 {
	var r float32 = 1
	for i := range c.Subsystems {
		if d := c.Subsystems[i].Data; d != nil {
			r = max(r, norm(d.Position)+d.Radius)
		}
	}
	return r
}

func norm(v [3]float32) float32 {
	return float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
}

func sub3(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Tick advances every ship's simulation to now (one game tick): repair,
// shield recharge, the power system every second of game time, the host
// ships' movement and weapons, and the removal of wrecks whose explosion
// is over. Each ship measures the time since its last step itself.
func (w *World) Tick(now time.Time) {
	w.now = now
	for _, o := range w.objects { // removing the current entry while ranging is safe
		if o.Model == nil {
			continue
		}
		st := &o.sim
		if st.dead {
			if now.Sub(st.diedAt) >= st.lifetime {
				w.remove(o)
			}
			continue
		}
		dt := now.Sub(st.lastTick)
		st.lastTick = now
		if dt <= 0 {
			continue
		}
		w.repairTick(o, float32(dt.Seconds()))
		shieldTick(o, float32(dt.Seconds()))
		for now.Sub(st.lastPower) >= powerPeriod {
			st.lastPower = st.lastPower.Add(powerPeriod)
			st.efficiency = powerTick(o.Model)
		}
		if o.host != nil {
			w.moveTick(o, float32(dt.Seconds()))
			w.weaponTick(o, float32(dt.Seconds()))
		}
	}
}

// shieldTick recharges the facings at the class rate scaled by the shield
// generator's condition. A generator below its disabled percentage holds
// every facing at 0 (simulation.md 5.5): no shields at all until it is
// repaired.
func shieldTick(o *Object, dt float32) {
	c := o.Model.Class()
	gen := o.sim.efficiency
	if c.ShieldGenerator >= 0 {
		if SubsystemDisabled(o.Model, c.ShieldGenerator) {
			o.sim.shields = [6]float32{}
			return
		}
		gen *= o.Model.ConditionFraction(c.ShieldGenerator)
	}
	for i := range o.sim.shields {
		if i < len(c.ShieldHP) && i < len(c.ShieldRecharge) {
			o.sim.shields[i] = min(c.ShieldHP[i], o.sim.shields[i]+c.ShieldRecharge[i]*gen*dt)
		}
	}
}

// powerTick runs one second of the power system (simulation.md 10): the
// reactor charges the main battery, then the backup; consumers draw through
// the conduits and, when short, each gets the same fraction of its demand,
// which powerTick returns. The battery levels reach the wire (0x20 power
// entry); the fraction scales the shield recharge.
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
	pool := points * frac * dt
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

// repairEvent sends a repair notification (PythonEvent 0x06, factory 0x101)
// naming the subsystem and the ship's repair subsystem by object id.
func (w *World) repairEvent(o *Object, code uint32, i int) {
	m := o.Model
	var repairID int32
	if r := m.Class().Repair; r >= 0 {
		repairID = m.SubsystemID(r)
	}
	w.buf = codec.SubsystemEvent{Op: codec.OpPythonEvent, Code: code, Src: m.SubsystemID(i), Dst: repairID}.AppendTo(w.buf[:0])
	w.broadcast()
}

// subsystemHit queues a damaged subsystem for repair (SUBSYSTEM_HIT,
// simulation.md 5.3 step 6, 8): at the tail, no duplicates, never at 0.
func (w *World) subsystemHit(o *Object, i int) {
	st := &o.sim
	if o.Model.Condition(i) <= 0 {
		return
	}
	for _, q := range st.repair {
		if q == i {
			return
		}
	}
	st.repair = append(st.repair, i)
	w.repairEvent(o, codec.EventAddToRepairList, i)
}

// hp returns subsystem i's condition in the damage scale: subsystems.json's
// max_condition, which data/README.md says to use for damage and repair,
// while the model keeps serialization.json's for the wire byte.
func hp(m *ships.Ship, i int) float32 { return m.Condition(i) / hpScale(m, i) }

func setHP(m *ships.Ship, i int, hp float32) { m.SetCondition(i, hp*hpScale(m, i)) }

func hpScale(m *ships.Ship, i int) float32 {
	sub := &m.Class().Subsystems[i]
	if sub.Data != nil && sub.Data.MaxCondition > 0 {
		return sub.MaxCondition / sub.Data.MaxCondition
	}
	return 1
}
