package world

import (
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The owner's controls: event-forward messages (opcodes.md 4.5) whose
// effect the host models, and the self-destruct (HostMsg 0x13). The engine
// relays them and has checked that their source is the owner's.

// repairEventsAfterSelfDestruct is when the second batch of repair events
// follows a self-destruct (simulation.md 7: ≈ +9.5 s).
const repairEventsAfterSelfDestruct = 9500 * time.Millisecond

// SubsystemStatus applies an owner's on/off toggle (0x0A, char event
// value) to the host model, which re-broadcasts it as the power byte's
// sign (simulation.md 10, 12).
func (w *World) SubsystemStatus(owner *Owner, ev *codec.Event) {
	w.sync()
	if len(ev.Tail) < 1 {
		return
	}
	o := w.ShipOf(owner)
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

// RepairPriority toggles a repair queue entry (0x11, simulation.md 8): an
// active entry goes to the tail, a waiting one to the head.
func (w *World) RepairPriority(owner *Owner, ev *codec.Event) {
	w.sync()
	if len(ev.Tail) < 4 {
		return
	}
	o := w.ShipOf(owner)
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

// TorpedoType applies the torpedo type an owner selected (0x1B, char
// event value) to its ship's torpedo systems, and remembers it for the
// owner's next ship.
func (w *World) TorpedoType(owner *Owner, ev *codec.Event) {
	w.sync()
	if len(ev.Tail) < 1 {
		return
	}
	owner.torpedoType = int(ev.Tail[0])
	if o := w.ShipOf(owner); o != nil && o.Model != nil {
		for k := range o.sim.arms {
			if o.sim.arms[k].weapon == ships.WeaponTorpedo {
				o.sim.arms[k].ammoType = owner.torpedoType
			}
		}
	}
}

// SelfDestruct executes the owner's HostMsg 0x13 (simulation.md 7): no
// countdown and no abort. The reactor takes damage equal to its max
// condition, a burst of StateUpdates shows the zeroed ship, then the death
// sequence runs with no killer and no Explosion; at most six repair events
// go out, four now and two after the explosion.
func (w *World) SelfDestruct(now time.Time, owner *Owner) {
	w.now = now
	o := w.ShipOf(owner)
	if o == nil || o.Model == nil || !o.Alive() {
		return
	}
	m := o.Model
	c := m.Class()
	if c.Reactor >= 0 {
		m.SetCondition(c.Reactor, 0)
	} else {
		m.SetHull(0)
	}
	gameTime := w.GameTime(now)
	w.viewers = w.env.Viewers(w.viewers[:0])
	for range 3 {
		for _, r := range w.viewers {
			if b := w.appendStateUpdate(w.buf[:0], o, r, gameTime); len(b) > 0 {
				w.buf = b
				w.env.Send(r, w.buf, false)
			}
		}
	}
	first, later := selfDestructRepairs(c)
	for _, i := range first {
		w.repairEvent(o, codec.EventAddToRepairList, i)
	}
	w.killShip(o, hitInfo{cause: CauseSelfDestruct, weapon: weaponRef{sub: -1, kind: KindSelfDestruct}})
	if len(later) > 0 {
		w.env.After(repairEventsAfterSelfDestruct, func(now time.Time) {
			w.now = now
			for _, i := range later {
				if w.objects[o.ID] == o {
					w.repairEvent(o, codec.EventAddToRepairList, i)
				}
			}
		})
	}
}

// selfDestructRepairs picks the stock repair events of a self-destruct: the
// reactor, shield generator, phaser and pulse systems at once, then the
// repair system later (EPS, the sixth, is not in the data set).
func selfDestructRepairs(c *ships.Class) (first, later []int) {
	if c.Reactor >= 0 {
		first = append(first, c.Reactor)
	}
	if c.ShieldGenerator >= 0 {
		first = append(first, c.ShieldGenerator)
	}
	for _, w := range []ships.Weapon{ships.WeaponPhaser, ships.WeaponPulse} {
		for _, e := range c.Entries {
			if e.Children > 0 && c.Subsystems[e.Subsystem+1].Type() == w.WeaponType() {
				first = append(first, e.Subsystem)
				break
			}
		}
	}
	if c.Repair >= 0 {
		later = append(later, c.Repair)
	}
	return first, later
}
