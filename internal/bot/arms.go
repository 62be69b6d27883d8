package bot

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bcserver/bcserver/engine/ships"
)

// Kinds is a set of weapon kinds a client fires.
type Kinds uint8

// The weapon kinds, each fired through its stock message: the phaser
// system through StartFiring 0x07, each torpedo tube through TorpedoFire
// 0x19, each pulse cannon through PulseFire 0x1A.
const (
	Phasers Kinds = 1 << iota
	Torpedoes
	Pulse

	AllWeapons = Phasers | Torpedoes | Pulse
)

// firedWeapons is the bots' one table of the ship data's weapons: the
// kind each is fired as, and the words besides its name (ships.Weapon's)
// ParseWeapons takes for it. A client fires no tractors.
var firedWeapons = [...]struct {
	weapon ships.Weapon
	kind   Kinds
	words  []string
}{
	{ships.WeaponPhaser, Phasers, []string{"phasers", "beam", "beams"}},
	{ships.WeaponTorpedo, Torpedoes, []string{"torpedoes", "torp", "torps"}},
	{ships.WeaponPulse, Pulse, []string{"pulses", "bolt", "bolts"}},
}

// ParseWeapons reads a comma-separated list of "phaser", "torpedo" and
// "pulse" (plurals and any case accepted; "all" for every kind).
func ParseWeapons(s string) (Kinds, error) {
	var w Kinds
	for _, f := range strings.Split(s, ",") {
		word := strings.ToLower(strings.TrimSpace(f))
		k := Kinds(0)
		for _, fw := range firedWeapons {
			if word == fw.weapon.String() || slices.Contains(fw.words, word) {
				k = fw.kind
			}
		}
		switch {
		case k != 0:
			w |= k
		case word == "all":
			w |= AllWeapons
		case word != "":
			return 0, fmt.Errorf("weapons %q: %q is not %s", s, strings.TrimSpace(f), weaponNames(" or "))
		}
	}
	if w == 0 {
		return 0, fmt.Errorf("weapons %q: name at least one of %s", s, weaponNames(", "))
	}
	return w, nil
}

// weaponNames lists the kinds' names, the last after last ("phaser,
// torpedo or pulse").
func weaponNames(last string) string {
	var b strings.Builder
	for i, f := range firedWeapons {
		switch {
		case i == len(firedWeapons)-1 && i > 0:
			b.WriteString(last)
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(f.weapon.String())
	}
	return b.String()
}

// String lists the kinds as ParseWeapons reads them.
func (w Kinds) String() string {
	var out []string
	for _, f := range firedWeapons {
		if w&f.kind != 0 {
			out = append(out, f.weapon.String())
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// Arms are the weapons of one ship class as a client fires them: the
// phaser system's id offset, and each torpedo tube and pulse cannon with
// the time its next shot is ready. A stock client fires a tube only when
// it has reloaded (the class's reload delay) and a cannon while it has
// charge, and the host checks both (README, "Fair play"), so Arms keeps a
// tube's reload and a cannon's charge itself: a play-tester fires no
// faster than a player could.
type Arms struct {
	Class   string
	Has     Kinds // the kinds the class carries
	phasers int   // id offset of the phaser system; valid when Has&Phasers
	tubes   []launcher
	cannons []launcher
}

type launcher struct {
	offset int
	at     [3]float32    // where it sits on the ship (ship frame: +X right, +Y forward, +Z up)
	reload time.Duration // 0: as often as the host takes it
	ready  time.Time
	// A cannon's charge at chargedAt, and its data (nil for a tube).
	d         *ships.SubsystemData
	charge    float32
	chargedAt time.Time
}

// cannonMargin keeps a cannon's own recharge a little behind the host's:
// Arms does not know the cannon's condition, which slows the host's.
const cannonMargin = 0.9

// charged brings a cannon's charge up to now and reports whether it pays
// a bolt; if it does, the bolt is paid.
func (l *launcher) charged(now time.Time) bool {
	if l.d == nil {
		return true
	}
	if !l.chargedAt.IsZero() {
		l.charge = min(l.d.MaxCharge, l.charge+l.d.RechargeRate*cannonMargin*float32(now.Sub(l.chargedAt).Seconds()))
	}
	l.chargedAt = now
	if l.charge < l.d.DischargeRate*1.001 {
		return false
	}
	l.charge -= l.d.DischargeRate
	return true
}

// ArmsOf returns the weapons of a species' class in reg.
func ArmsOf(reg *ships.Registry, species int) (*Arms, error) {
	c, ok := reg.Class(species)
	if !ok {
		return nil, fmt.Errorf("species %d: no ship class", species)
	}
	a := &Arms{Class: c.Name}
	for _, ws := range c.WeaponSystems {
		switch ws.Weapon {
		case ships.WeaponPhaser:
			if a.Has&Phasers == 0 {
				a.Has |= Phasers
				a.phasers = ws.IDOffset
			}
		case ships.WeaponTorpedo, ships.WeaponPulse:
			for _, m := range ws.Members {
				s := c.Subsystems[m]
				l := launcher{offset: s.IDOffset}
				if s.Data != nil {
					l.at = s.Data.Position
				}
				if ws.Weapon == ships.WeaponPulse {
					a.Has |= Pulse
					if s.Data != nil {
						l.d, l.charge = s.Data, s.Data.MaxCharge
					}
					a.cannons = append(a.cannons, l)
					continue
				}
				if d := s.Data; d != nil && d.ReloadDelay > 0 {
					l.reload = time.Duration(float64(d.ReloadDelay) / float64(max(d.MaxReady, 1)) * float64(time.Second))
				}
				a.Has |= Torpedoes
				a.tubes = append(a.tubes, l)
			}
		}
	}
	return a, nil
}

// Missing names the kinds of want the class does not carry ("" when it
// carries them all).
func (a *Arms) Missing(want Kinds) string {
	if m := want &^ a.Has; m != 0 {
		return m.String()
	}
	return ""
}

// Shot is one message of a volley.
type Shot struct {
	Kind     Kinds
	Payload  []byte
	Reliable bool
}

// Volley returns the messages that fire the kinds of want the class
// carries at target from ship (its object id) at from, facing the
// target's position to (world space, as Move turns it), at time now:
// StartFiring for the phaser system (its banks then beam by themselves),
// one TorpedoFire from every tube that has reloaded, one PulseFire from
// every cannon whose charge pays a bolt — each aimed from where it sits on the hull, as a stock
// client's weapon aims (a bolt flies straight: from a cannon on a wing,
// "straight ahead" passes beside a small target). player is the firing
// player's id.
func (a *Arms) Volley(want Kinds, ship, target int32, from, to [3]float32, player uint8, now time.Time) []Shot {
	var out []Shot
	if want&a.Has&Phasers != 0 {
		out = append(out, Shot{Kind: Phasers, Payload: StartFiring(ship+int32(a.phasers), target), Reliable: true})
	}
	f, up := frame([3]float32{to[0] - from[0], to[1] - from[1], to[2] - from[2]})
	right := [3]float32{f[1]*up[2] - f[2]*up[1], f[2]*up[0] - f[0]*up[2], f[0]*up[1] - f[1]*up[0]}
	aim := func(l *launcher) [3]float32 {
		var d [3]float32
		for i := range d {
			d[i] = to[i] - (from[i] + l.at[0]*right[i] + l.at[1]*f[i] + l.at[2]*up[i])
		}
		return d
	}
	if want&Torpedoes != 0 {
		for i := range a.tubes {
			t := &a.tubes[i]
			if now.Before(t.ready) {
				continue
			}
			t.ready = now.Add(t.reload)
			out = append(out, Shot{Kind: Torpedoes, Payload: TorpedoFire(ship+int32(t.offset), target, aim(t), player), Reliable: true})
		}
	}
	if want&Pulse != 0 {
		for i := range a.cannons {
			c := &a.cannons[i]
			if !c.charged(now) {
				continue
			}
			out = append(out, Shot{Kind: Pulse, Payload: PulseFire(ship+int32(c.offset), target, aim(c), player), Reliable: true})
		}
	}
	return out
}

// StopPhasers returns the StopFiring of the phaser system of ship, or nil
// when the class has none.
func (a *Arms) StopPhasers(ship int32) []byte {
	if a.Has&Phasers == 0 {
		return nil
	}
	return StopFiring(ship + int32(a.phasers))
}

// Reloaded makes every tube ready and every cannon charged at once: a new
// ship starts loaded.
func (a *Arms) Reloaded() {
	for i := range a.tubes {
		a.tubes[i].ready = time.Time{}
	}
	for i := range a.cannons {
		if c := &a.cannons[i]; c.d != nil {
			c.charge, c.chargedAt = c.d.MaxCharge, time.Time{}
		}
	}
}
