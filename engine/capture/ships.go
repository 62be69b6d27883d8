package capture

import "github.com/bcserver/bcserver/engine"

// The capture's ship records: a ship as it appears, its motion and its
// status (hull, shields, subsystems) when they change, and its end.

func (c *Capture) shipCreated(o *engine.Object) {
	if !c.open {
		return
	}
	s := &seenShip{o: o}
	c.ships[o.ID] = s
	c.object(s)
	c.motion(s, true)
	c.status(s, true)
}

func (c *Capture) object(s *seenShip) {
	o := s.o
	r := c.rec(KindObject)
	r.Object, r.Owner, r.Species, r.Team, r.Name = o.ID, byte(o.OwnerID()), int32(o.Species), int32(o.Team()), o.Name
	if o.HostOwned() {
		r.Flags |= ObjHost
	}
	if o.Model != nil {
		r.Class = o.Model.Class().Name
	}
	c.emit()
}

func (c *Capture) objectGone(ev engine.Event) {
	o := ev.(*engine.ObjectDestroyed).Object
	s := c.ships[o.ID]
	if s == nil || s.o != o {
		return
	}
	delete(c.ships, o.ID)
	if c.open {
		c.rec(KindObjectGone).Object = o.ID
		c.emit()
	}
}

// motion writes a ship's motion when it changed (always with force).
func (c *Capture) motion(s *seenShip, force bool) {
	o := s.o
	pos, ok := o.Position()
	if !ok {
		return
	}
	fwd, up, _ := o.Forward()
	speed := o.Speed()
	var q [10]int64
	for i := range 3 {
		q[i], q[3+i], q[6+i] = Quant(pos[i], PosScale), Quant(fwd[i], DirScale), Quant(up[i], DirScale)
	}
	q[9] = Quant(speed, SpeedScale)
	if !force && q == s.motion {
		return
	}
	s.motion = q
	r := c.rec(KindMotion)
	r.Object, r.Pos, r.Fwd, r.Up, r.Speed = o.ID, pos, fwd, up, speed
	c.emit()
}

// status writes hull and shields, and the subsystems that changed.
func (c *Capture) status(s *seenShip, force bool) {
	o := s.o
	if o.Model == nil {
		return
	}
	cl := o.Model.Class()
	var q [7]uint64
	hull, _ := o.HullFraction()
	q[0] = Frac(hull)
	sh := o.Shields()
	var shf [6]float32
	for i := range sh {
		if i < len(cl.ShieldHP) && cl.ShieldHP[i] > 0 {
			shf[i] = sh[i] / cl.ShieldHP[i]
		}
		q[1+i] = Frac(shf[i])
	}
	if force || q != s.status {
		s.status = q
		r := c.rec(KindStatus)
		r.Object, r.Hull, r.Shields = o.ID, hull, shf
		c.emit()
	}
	n := len(cl.Subsystems)
	if len(s.subs) != n {
		s.subs = make([]uint64, n)
		force = true
	}
	r := c.rec(KindSubsystems)
	r.Object = o.ID
	for i := range n {
		f := o.Model.ConditionFraction(i)
		v := Frac(f)
		if force || v != s.subs[i] {
			s.subs[i] = v
			r.Subs = append(r.Subs, Sub{Index: i, Cond: f})
		}
	}
	if len(r.Subs) > 0 {
		c.emit()
	}
}
