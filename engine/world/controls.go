package world

import (
	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// The owner's controls: event-forward messages (opcodes.md 4.5) whose
// effect the host models. The engine relays them and has checked that
// their source is the owner's.

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
			if o.sim.arms[k].kind == ships.KindTorpedoSystem {
				o.sim.arms[k].ammoType = owner.torpedoType
			}
		}
	}
}
