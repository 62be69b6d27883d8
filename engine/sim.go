package engine

import (
	"math"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Simulation constants (simulation.md). Values the sources do not pin down
// are documented where they are chosen.
const (
	// lifetimeCollision and lifetimeDefault are the ObjectExploding
	// lifetimes: 12.9 s in the captured environment-collision kill, 9.5 s
	// for self-destruct and, per the notes, weapon kills (9.2).
	lifetimeCollision float32 = 12.9
	lifetimeDefault   float32 = 9.5
	// powerPeriod is the power system's game-time period (10).
	powerPeriod = time.Second
	// repairEventsAfterSelfDestruct is when the second batch of repair
	// events follows a self-destruct (7: ≈ +9.5 s).
	repairEventsAfterSelfDestruct = 9500 * time.Millisecond
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

// hitInfo says who and what caused damage, for kill credit.
type hitInfo struct {
	cause      DeathCause
	attacker   *Object // the other ship (collision) or the shooter's ship
	attackerID int     // the firing player's id, 0 for none
}

// initSim prepares a new ship's simulation state.
func (g *Game) initSim(o *Object) {
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
	o.sim.lastPower = g.now
	o.sim.lastTick = g.now
}

// boundingRadius estimates a class's bounding radius from its subsystems:
// the data set has no bounding radius (data/README.md caveats), and every
// subsystem lies inside the hull.
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

// simTick advances every ship's simulation by one game tick: repair,
// shield recharge, the power system every second of game time, and the
// removal of wrecks whose explosion is over.
func (g *Game) simTick() {
	for _, o := range g.objects { // removing the current entry while ranging is safe
		if o.Model == nil {
			continue
		}
		st := &o.sim
		if st.dead {
			if g.now.Sub(st.diedAt) >= st.lifetime {
				g.removeObject(o)
			}
			continue
		}
		dt := g.now.Sub(st.lastTick)
		st.lastTick = g.now
		if dt <= 0 {
			continue
		}
		g.repairTick(o, float32(dt.Seconds()))
		g.shieldTick(o, float32(dt.Seconds()))
		for g.now.Sub(st.lastPower) >= powerPeriod {
			st.lastPower = st.lastPower.Add(powerPeriod)
			st.efficiency = powerTick(o.Model)
		}
	}
}

// shieldTick recharges the facings at the class rate scaled by the shield
// generator's condition.
func (g *Game) shieldTick(o *Object, dt float32) {
	c := o.Model.Class()
	gen := o.sim.efficiency
	if c.ShieldGenerator >= 0 {
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
func (g *Game) repairTick(o *Object, dt float32) {
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
			g.repairEvent(o, codec.EventRepairCannotBeCompleted, i)
			st.repair = append(st.repair[:k], st.repair[k+1:]...)
			continue
		}
		complexity := float32(1)
		if sub.Data != nil && sub.Data.RepairComplexity > 0 {
			complexity = sub.Data.RepairComplexity
		}
		g.setHP(m, i, g.hp(m, i)+share/complexity)
		if m.Condition(i) >= sub.MaxCondition {
			g.repairEvent(o, codec.EventRepairCompleted, i)
			st.repair = append(st.repair[:k], st.repair[k+1:]...)
			continue
		}
		k++
	}
}

// repairEvent sends a repair notification (PythonEvent 0x06, factory 0x101)
// naming the subsystem and the ship's repair subsystem by object id.
func (g *Game) repairEvent(o *Object, code uint32, i int) {
	m := o.Model
	var repairID int32
	if r := m.Class().Repair; r >= 0 {
		repairID = m.SubsystemID(r)
	}
	g.buf = codec.SubsystemEvent{Op: codec.OpPythonEvent, Code: code, Src: m.SubsystemID(i), Dst: repairID}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
}

// subsystemHit queues a damaged subsystem for repair (SUBSYSTEM_HIT,
// simulation.md 5.3 step 6, 8): at the tail, no duplicates, never at 0.
func (g *Game) subsystemHit(o *Object, i int) {
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
	g.repairEvent(o, codec.EventAddToRepairList, i)
}

// hp returns subsystem i's condition in the damage scale: subsystems.json's
// max_condition, which data/README.md says to use for damage and repair,
// while the model keeps serialization.json's for the wire byte.
func (g *Game) hp(m *ships.Ship, i int) float32 { return m.Condition(i) / hpScale(m, i) }

func (g *Game) setHP(m *ships.Ship, i int, hp float32) { m.SetCondition(i, hp*hpScale(m, i)) }

func hpScale(m *ships.Ship, i int) float32 {
	sub := &m.Class().Subsystems[i]
	if sub.Data != nil && sub.Data.MaxCondition > 0 {
		return sub.MaxCondition / sub.Data.MaxCondition
	}
	return 1
}

// killShip runs the stock death sequence once (simulation.md 9): the
// ObjectExploding event to everyone, Explosion 0x29 for weapon kills only,
// then ship_destroyed for the mission's scoring. The wreck stays (and keeps
// its StateUpdates) for the explosion's lifetime; no DestroyObject, no
// respawn: the client sends a new ship itself.
func (g *Game) killShip(o *Object, hit hitInfo) {
	st := &o.sim
	if st.dead {
		return
	}
	st.dead = true
	st.diedAt = g.now
	lifetime := lifetimeDefault
	if hit.cause == CauseCollision || hit.cause == CauseEnvironment {
		lifetime = lifetimeCollision
	}
	st.lifetime = time.Duration(float64(lifetime) * float64(time.Second))
	st.repair = st.repair[:0]
	o.Create = nil // late joiners get no wreck
	var src int32
	if hit.attacker != nil && hit.attacker != o {
		src = hit.attacker.ID
	}
	g.buf = codec.ObjectExploding{Op: codec.OpPythonEvent, Code: codec.EventObjectExploding, Src: src, Dst: o.ID,
		FiringPlayer: int32(hit.attackerID), Lifetime: lifetime}.AppendTo(g.buf[:0])
	g.SendInGame(g.buf, nil)
	if hit.cause == CauseWeapon {
		p := o.state.pos
		g.buf = codec.NewExplosion(o.ID, p[0], p[1], p[2], g.cfg.ExplosionRadius, g.cfg.ExplosionDamage).AppendTo(g.buf[:0])
		g.SendInGame(g.buf, nil)
	}
	g.log.Info("ship destroyed", "ship", o.ID, "owner", o.OwnerID(), "cause", hit.cause, "killer", hit.attackerID)
	g.bus.emit(&ShipDestroyed{Victim: o, KillerID: hit.attackerID, Cause: hit.cause, Lifetime: lifetime})
}

// Alive reports whether a ship exists and has not been destroyed.
func (o *Object) Alive() bool { return o != nil && !o.sim.dead }

// Shields returns the ship's shield facing hit points (front, rear, top,
// bottom, left, right).
func (o *Object) Shields() [6]float32 { return o.sim.shields }

// applySubsystemStatus applies an owner's on/off toggle (0x0A, char event
// value) to the host model, which re-broadcasts it as the power byte's sign
// (simulation.md 10, 12).
func applySubsystemStatus(g *Game, p *Player, payload []byte, _ bool) {
	ev, err := codec.DecodeEvent(payload)
	if err != nil || len(ev.Tail) < 1 {
		return
	}
	o := g.ShipOf(p)
	if o == nil || o.Model == nil {
		return
	}
	i, ok := o.Model.SubsystemIndex(ev.Src)
	if !ok {
		return
	}
	e := o.Model.Class().Subsystems[i].Entry
	if o.Model.Class().Entries[e].Format != ships.FormatPowered {
		return
	}
	wanted, _ := o.Model.Power(e)
	o.Model.SetPower(e, wanted, ev.Tail[0] != 0)
}

// applyRepairPriority toggles a queue entry (0x11, simulation.md 8): an
// active entry goes to the tail, a waiting one to the head.
func applyRepairPriority(g *Game, p *Player, payload []byte, _ bool) {
	ev, err := codec.DecodeEvent(payload)
	if err != nil || len(ev.Tail) < 4 {
		return
	}
	o := g.ShipOf(p)
	if o == nil || o.Model == nil {
		return
	}
	id := int32(uint32(ev.Tail[0]) | uint32(ev.Tail[1])<<8 | uint32(ev.Tail[2])<<16 | uint32(ev.Tail[3])<<24)
	i, ok := o.Model.SubsystemIndex(id)
	if !ok {
		return
	}
	q := o.sim.repair
	for k, v := range q {
		if v != i {
			continue
		}
		teams := max(1, o.Model.Class().NumRepairTeams)
		q = append(q[:k], q[k+1:]...)
		if k < teams {
			q = append(q, i)
		} else {
			q = append([]int{i}, q...)
		}
		o.sim.repair = q
		return
	}
}

// applyTorpedoType remembers the torpedo type a player selected (0x1B,
// char event value) for the weapon model.
func applyTorpedoType(g *Game, p *Player, payload []byte, _ bool) {
	ev, err := codec.DecodeEvent(payload)
	if err != nil || len(ev.Tail) < 1 {
		return
	}
	p.torpedoType = int(ev.Tail[0])
}
