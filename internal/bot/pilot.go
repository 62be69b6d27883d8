package bot

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/ships"
)

// Pilot flies one ship the way a stock client's physics and fire control
// would (README, "Fair play"): it turns no faster than its class's
// max_angular_velocity, accelerates at most max_accel up to max_speed (the
// throttle may ask up to 125 %, the impulse overdrive), fires a cannon
// only when its charge covers the bolt and the target is in the cannon's
// arc, and a tube only when loaded, ImmediateDelay after its last shot and
// while the magazine lasts. Its cannons recharge and its tubes reload at
// the condition the host reports in its StateUpdates' health block, as a
// stock client's copy does. A Pilot with a Cheat set plays one modified
// client instead. A Pilot is not safe for concurrent use.
type Pilot struct {
	class *ships.Class
	ship  *ships.Ship // the host's view of the ship's condition
	id    int32
	// Pos, Fwd and Speed are the ship's position, nose and speed along it.
	Pos, Fwd [3]float32
	Speed    float32
	Cheat    Cheat

	phasers  int32 // the phaser system's id, 0 for none
	firingAt int32 // the target of the last StartFiring
	cannons  []cannon
	tubes    []tube
	ammo     []int
	ammoType int
	jumpAt   time.Time // CheatTeleport: the last jump
	chose    bool      // CheatAmmo: the empty type is selected
	age      float32   // seconds flown
}

type cannon struct {
	id     int32
	sub    int
	d      *ships.SubsystemData
	charge float32
}

type tube struct {
	id     int32
	sub    int
	d      *ships.SubsystemData
	loaded int
	reload float32
	last   time.Time
}

// Cheat is what a modified client does that no stock client can.
type Cheat uint8

// The cheats (bcbot -cheat), each caught by the fair-play rule named.
const (
	CheatNone     Cheat = iota
	CheatSpeed          // flies at three times its class's max_speed, claiming an honest speed: speed
	CheatTeleport       // jumps 300 units ahead every 3 s: teleport
	CheatFireRate       // fires every cannon every step (along the nose) and tubes without reloading: charge, reload
	CheatAmmo           // fires torpedoes of a type its magazine has none of: ammo
	CheatArc            // fires its bolts astern, out of every cannon's arc, once its orientation is known: arc
)

var cheatNames = []string{"none", "speed", "teleport", "firerate", "ammo", "arc"}

func (c Cheat) String() string {
	if int(c) < len(cheatNames) {
		return cheatNames[c]
	}
	return "unknown"
}

// ParseCheat reads a cheat's name.
func ParseCheat(s string) (Cheat, error) {
	for i, n := range cheatNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Cheat(i), nil
		}
	}
	return CheatNone, fmt.Errorf("cheat %q: want %s", s, strings.Join(cheatNames[1:], ", "))
}

// NewPilot returns the pilot of a new ship of species with object id at
// pos, nose along +Y, weapons charged and loaded.
func NewPilot(reg *ships.Registry, species int, id int32, pos [3]float32) (*Pilot, error) {
	c, ok := reg.Class(species)
	if !ok {
		return nil, fmt.Errorf("species %d: no ship class", species)
	}
	p := &Pilot{class: c, ship: ships.NewShip(c, id), id: id, Pos: pos, Fwd: [3]float32{0, 1, 0}}
	for _, ws := range c.WeaponSystems {
		switch ws.Weapon {
		case ships.WeaponPhaser:
			if p.phasers == 0 {
				p.phasers = id + int32(ws.IDOffset)
			}
		case ships.WeaponPulse, ships.WeaponTorpedo:
			for _, m := range ws.Members {
				s := c.Subsystems[m]
				if s.Data == nil {
					continue
				}
				if ws.Weapon == ships.WeaponPulse {
					p.cannons = append(p.cannons, cannon{id: id + int32(s.IDOffset), sub: m, d: s.Data, charge: s.Data.MaxCharge})
				} else {
					p.tubes = append(p.tubes, tube{id: id + int32(s.IDOffset), sub: m, d: s.Data, loaded: s.Data.MaxReady, reload: s.Data.ReloadDelay})
				}
			}
		}
	}
	for _, a := range c.TorpedoAmmo {
		p.ammo = append(p.ammo, a.MaxTorpedoes)
	}
	return p, nil
}

// ID is the ship's object id.
func (p *Pilot) ID() int32 { return p.id }

// Class is the ship's class.
func (p *Pilot) Class() *ships.Class { return p.class }

// Step flies dt seconds toward goal at throttle × max_speed (throttle at
// most 1.25): the nose turns toward the goal at up to 95 % of the class's
// angular velocity, the speed changes at up to its acceleration. A
// CheatSpeed pilot flies three times as fast; a CheatTeleport one jumps.
func (p *Pilot) Step(dt float32, goal [3]float32, throttle float32, now time.Time) {
	c := p.class
	p.age += dt
	want := unit(sub(goal, p.Pos), p.Fwd)
	p.Fwd = turn(p.Fwd, want, 0.95*c.MaxAngularVelocity*dt)
	target := min(throttle, 1.25) * c.MaxSpeed
	step := c.MaxAccel * dt
	switch {
	case p.Speed < target:
		p.Speed = min(target, p.Speed+step)
	case p.Speed > target:
		p.Speed = max(target, p.Speed-step)
	}
	v := p.Speed
	if p.Cheat == CheatSpeed {
		v = 3 * c.MaxSpeed
	}
	for i := range p.Pos {
		p.Pos[i] += p.Fwd[i] * v * dt
	}
	if p.Cheat == CheatTeleport && now.Sub(p.jumpAt) >= 3*time.Second {
		if !p.jumpAt.IsZero() {
			for i := range p.Pos {
				p.Pos[i] += p.Fwd[i] * 300
			}
		}
		p.jumpAt = now
	}
}

// turn rotates from toward to by at most angle radians.
func turn(from, to [3]float32, angle float32) [3]float32 {
	cos := float64(dot(from, to))
	a := math.Acos(math.Max(-1, math.Min(1, cos)))
	if a <= float64(angle) || a < 1e-6 {
		return to
	}
	// The part of to perpendicular to from, then from rotated toward it.
	perp := unit(sub(to, scale(from, float32(cos))), [3]float32{0, 0, 1})
	s, co := math.Sincos(float64(angle))
	return unit([3]float32{
		from[0]*float32(co) + perp[0]*float32(s),
		from[1]*float32(co) + perp[1]*float32(s),
		from[2]*float32(co) + perp[2]*float32(s),
	}, from)
}

// State returns the StateUpdate a stock client sends for its ship: the
// absolute position, the orientation and the speed.
func (p *Pilot) State(gameTime float32) []byte {
	f, up := frame(p.Fwd)
	// A speed cheat reports the speed it pretends to fly at; the host
	// sees through it by the positions.
	speed := p.Speed
	return codec.StateUpdate{ObjectID: p.id, GameTime: gameTime,
		Flags:    codec.StatePosition | codec.StateForward | codec.StateUp | codec.StateSpeed,
		Position: p.Pos, Forward: codec.NewDir3(f[0], f[1], f[2]), Up: codec.NewDir3(up[0], up[1], up[2]),
		Speed: codec.EncodeCF16(speed)}.AppendTo(nil)
}

// Recharge runs dt seconds of the weapons: cannons recharge at their
// RechargeRate × the condition the host reported, tubes reload one at a
// time while the magazine has more than they hold.
func (p *Pilot) Recharge(dt float32) {
	for i := range p.cannons {
		c := &p.cannons[i]
		c.charge = min(c.d.MaxCharge, c.charge+c.d.RechargeRate*p.cond(c.sub)*dt)
	}
	loaded := 0
	for i := range p.tubes {
		loaded += p.tubes[i].loaded
	}
	for i := range p.tubes {
		t := &p.tubes[i]
		if t.loaded >= t.d.MaxReady || p.ammoLeft() <= loaded {
			t.reload = t.d.ReloadDelay
			continue
		}
		if t.reload -= dt * p.cond(t.sub); t.reload <= 0 {
			t.loaded++
			loaded++
			t.reload = t.d.ReloadDelay
		}
	}
}

// cond is a subsystem's condition as the host last reported it, a little
// low: the byte is truncated.
func (p *Pilot) cond(i int) float32 { return float32(p.ship.ConditionByte(i)) / 255 }

func (p *Pilot) ammoLeft() int {
	if p.ammoType < 0 || p.ammoType >= len(p.ammo) {
		return 0
	}
	return p.ammo[p.ammoType]
}

// Observe takes one message from the host: a StateUpdate for the pilot's
// ship carries the health block the pilot's weapons recharge by.
func (p *Pilot) Observe(m []byte) {
	if len(m) < 5 || m[0] != codec.OpStateUpdate || int32(uint32(m[1])|uint32(m[2])<<8|uint32(m[3])<<16|uint32(m[4])<<24) != p.id {
		return
	}
	_, _ = codec.DecodeStateUpdate(m, func(r *codec.Reader) error {
		_, err := ships.ReadSubsystemsInto(r, p.ship)
		return err
	})
}

// Fire returns the messages that fire the kinds of want the pilot may
// fire at target, whose position is at, at now: StartFiring for the
// phaser system when the target is new (the banks then beam by
// themselves on every peer), a bolt from every cannon whose charge covers
// it and whose arc holds the target, a torpedo from every tube that is
// loaded. player is the pilot's player id.
func (p *Pilot) Fire(want Kinds, target int32, at [3]float32, player uint8, now time.Time) []Shot {
	var out []Shot
	if want&Phasers != 0 && p.phasers != 0 && target != p.firingAt {
		p.firingAt = target
		m := StartFiring(p.phasers, target)
		out = append(out, Shot{Kind: Phasers, Payload: m, Reliable: true}, Shot{Kind: Phasers, Payload: m, Reliable: true})
	}
	if want&Pulse != 0 {
		for i := range p.cannons {
			c := &p.cannons[i]
			from := p.worldPoint(c.d.Position)
			dir := sub(at, from)
			ok := c.charge >= c.d.DischargeRate*1.001 && p.inArc(c.d, dir)
			switch p.Cheat {
			case CheatFireRate:
				// Along the nose, inside every arc: only the charge
				// is wrong.
				ok, dir = true, p.Fwd
			case CheatArc:
				// After a second of flight, when the host has the ship's
				// orientation to judge an arc by.
				ok, dir = p.age >= 1 && c.charge >= c.d.DischargeRate*1.001, scale(p.Fwd, -1)
			}
			if !ok {
				continue
			}
			c.charge -= c.d.DischargeRate
			out = append(out, Shot{Kind: Pulse, Payload: PulseFire(c.id, target, dir, player), Reliable: true})
		}
	}
	if want&Torpedoes != 0 && len(p.tubes) > 0 {
		if p.Cheat == CheatAmmo && !p.chose {
			// A type the magazine has none of: the first empty one, or
			// one past the list.
			p.chose, p.ammoType = true, len(p.ammo)
			for k, n := range p.ammo {
				if n == 0 {
					p.ammoType = k
					break
				}
			}
			out = append(out, Shot{Kind: Torpedoes, Reliable: true, Payload: codec.CharEvent{Op: codec.OpTorpedoTypeChange,
				Code: codec.EventTorpedoTypeChange, Src: p.id, Value: uint8(p.ammoType)}.AppendTo(nil)})
		}
		for i := range p.tubes {
			t := &p.tubes[i]
			ready := t.loaded > 0 && now.Sub(t.last).Seconds() >= float64(t.d.ImmediateDelay)
			switch p.Cheat {
			case CheatFireRate:
				ready = now.Sub(t.last) >= time.Second
			case CheatAmmo:
			default:
				ready = ready && p.ammoLeft() > 0
			}
			if !ready {
				continue
			}
			t.loaded = max(0, t.loaded-1)
			t.last = now
			if p.ammoType >= 0 && p.ammoType < len(p.ammo) && p.ammo[p.ammoType] > 0 {
				p.ammo[p.ammoType]--
			}
			out = append(out, Shot{Kind: Torpedoes, Payload: TorpedoFire(t.id, target, sub(at, p.worldPoint(t.d.Position)), player), Reliable: true})
		}
	}
	return out
}

// StopFiring returns the StopFiring of the phaser system when it is
// firing, else nil.
func (p *Pilot) StopFiring() []byte {
	if p.phasers == 0 || p.firingAt == 0 {
		return nil
	}
	p.firingAt = 0
	return StopFiring(p.phasers)
}

// worldPoint is a point of the ship's model frame (+X right, +Y forward,
// +Z up) in the world.
func (p *Pilot) worldPoint(m [3]float32) [3]float32 {
	f, up := frame(p.Fwd)
	r := cross(f, up)
	var w [3]float32
	for i := range w {
		w[i] = p.Pos[i] + m[0]*r[i] + m[1]*f[i] + m[2]*up[i]
	}
	return w
}

// inArc reports whether a world direction lies inside a weapon's arc:
// azimuth in its plane from its forward within ArcWidth, elevation within
// ArcHeight, without the slack the host allows.
func (p *Pilot) inArc(d *ships.SubsystemData, dir [3]float32) bool {
	if d.ArcWidth == [2]float32{} {
		return true
	}
	f, up := frame(p.Fwd)
	r := cross(f, up)
	local := [3]float32{dot(dir, r), dot(dir, f), dot(dir, up)}
	wf := unit(d.Forward, [3]float32{0, 1, 0})
	wu := unit(d.Up, [3]float32{0, 0, 1})
	wr := cross(wf, wu)
	x, y, z := float64(dot(local, wr)), float64(dot(local, wf)), float64(dot(local, wu))
	az, el := math.Atan2(x, y), math.Atan2(z, math.Hypot(x, y))
	in := func(a float64, lim [2]float32) bool {
		lo, hi := float64(min(lim[0], lim[1])), float64(max(lim[0], lim[1]))
		return a >= lo && a <= hi
	}
	return in(az, d.ArcWidth) && in(el, d.ArcHeight)
}

func sub(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot(a, b [3]float32) float32    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func scale(a [3]float32, k float32) [3]float32 {
	return [3]float32{a[0] * k, a[1] * k, a[2] * k}
}
func cross(a, b [3]float32) [3]float32 {
	return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
