package world

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
	"github.com/bcserver/bcserver/engine/fairplay"
	"github.com/bcserver/bcserver/engine/ships"
)

// fairBattle is a battle judged with the default fair-play tolerances.
func fairBattle(t *testing.T, players int) *battle {
	b := newBattle(t, players, stockOptions())
	tol := fairplay.DefaultTolerances()
	b.w.SetFairPlay(&tol)
	return b
}

// pulseAt judges a bolt of cannon along dir from player i that arrived
// now (and could have at at), and fires it when plausible.
func (b *battle) pulseAt(i int, cannon, target int32, dir [3]float32, at time.Time) fairplay.Verdict {
	m := codec.PulseFire{CannonID: cannon, FiringPlayer: b.owners[i].ID, Dir: codec.NewDir3(dir[0], dir[1], dir[2]),
		Flags: codec.PulseArg | codec.PulseHasTarget, Target: target}
	v := b.w.JudgePulse(b.now, at, b.owners[i], &m)
	if v.OK() {
		b.w.PulseFiredAt(b.now, at, b.owners[i], &m)
	}
	return v
}

func (b *battle) torpedo(i int, tube, target int32) fairplay.Verdict {
	m := codec.TorpedoFire{TubeID: tube, FiringPlayer: b.owners[i].ID, Flags: codec.TorpedoArg, Dir: codec.Dir3{0, 127, 0}, Target: target}
	v := b.w.JudgeTorpedo(b.now, b.now, b.owners[i], &m)
	if v.OK() {
		b.w.TorpedoFiredAt(b.now, b.now, b.owners[i], &m)
	}
	return v
}

// The Warbird burst of issue 33: 12 bolts at once where a full charge pays
// 8. The lag allowance (0.09/s × 5 s) does not pay a 9th: the 4 extra are
// Charge violations, and none of them is fired.
func TestFairWarbirdBurst(t *testing.T) {
	b := fairBattle(t, 2)
	a := b.spawn(0, 8, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
	var bad int
	for k := range 12 {
		c := systemID(t, a, []string{"Port Cannon 1", "Port Cannon 2", "Star Cannon 1", "Star Cannon 2"}[k%4])
		if v := b.pulseAt(0, c, g.ID, [3]float32{0, 1, 0}, b.now); v.Rule == fairplay.Charge {
			bad++
		} else if !v.OK() {
			t.Fatalf("bolt %d: %+v", k, v)
		}
	}
	if bad != 4 || b.w.Stats().WeaponRejected.Load() != 0 {
		t.Fatalf("%d Charge violations (want 4), %d refused by the damage gate", bad, b.w.Stats().WeaponRejected.Load())
	}
}

// cannonRun has a client fire one cannon whenever its own copy of the
// charge covers a bolt (and, cheating, every period regardless), its
// bolts reaching the host in order after random delays of up to maxDelay
// — reliable messages, so a late one holds back the ones behind it. It
// returns the violations the host found and the seconds to the first.
func cannonRun(t *testing.T, species int, cannon string, secs float64, maxDelay time.Duration, cheatEvery time.Duration, seed uint64) (int, float64) {
	b := fairBattle(t, 2)
	a := b.spawn(0, species, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	id := systemID(t, a, cannon)
	i, _ := a.Model.SubsystemIndex(id)
	d := a.Model.Class().Subsystems[i].Data
	rng := rand.New(rand.NewPCG(seed, 7))
	charge := d.MaxCharge
	cost := d.DischargeRate
	var queue []time.Time // arrival times, in order
	lastArrival := t0
	start := b.now
	bad, first := 0, 0.0
	var lastCheat time.Time
	for b.now.Sub(start).Seconds() < secs {
		// The client's frame: recharge, then fire when it may (or, a
		// cheat, on its own period).
		charge = min(d.MaxCharge, charge+d.RechargeRate*0.1)
		fire := charge >= cost*1.001
		if cheatEvery > 0 {
			fire = b.now.Sub(lastCheat) >= cheatEvery
		}
		if fire {
			charge -= cost
			lastCheat = b.now
			at := b.now.Add(time.Duration(rng.Int64N(int64(maxDelay) + 1)))
			if at.Before(lastArrival) {
				at = lastArrival
			}
			lastArrival = at
			queue = append(queue, at)
		}
		b.advance(100 * time.Millisecond)
		for len(queue) > 0 && !queue[0].After(b.now) {
			queue = queue[1:]
			if v := b.pulseAt(0, id, g.ID, [3]float32{0, 1, 0}, b.now); !v.OK() {
				if bad == 0 {
					first = b.now.Sub(start).Seconds()
				}
				bad++
			}
		}
	}
	return bad, first
}

// An honest cannon, its bolts delayed up to 4 s each way (no
// DeliveredAt to help), is never a violation over 10 minutes; one that
// fires twice as often as its charge allows is caught within seconds.
func TestFairCannonRates(t *testing.T) {
	for _, tt := range []struct {
		species int
		cannon  string
	}{{8, "Port Cannon 1"}, {6, "Port Cannon"}} {
		for seed := range uint64(5) {
			if bad, at := cannonRun(t, tt.species, tt.cannon, 600, 4*time.Second, 0, seed); bad != 0 {
				t.Errorf("honest species %d seed %d: %d violations, the first at %.1f s", tt.species, seed, bad, at)
			}
		}
	}
	// Twice the sustained rate: a Bird of Prey cannon pays a bolt every
	// 2.5 s; one every 1.25 s spends the full charge (3.8) and the lag
	// allowance (2.0) in about 12 s.
	for seed := range uint64(10) {
		bad, at := cannonRun(t, 6, "Port Cannon", 60, 200*time.Millisecond, 1250*time.Millisecond, seed)
		if bad == 0 || at > 15 {
			t.Errorf("cheat seed %d: %d violations, the first at %.1f s", seed, bad, at)
		}
	}
}

// A tube fires when loaded and reloads in ReloadDelay (a Galaxy's 40 s);
// a torpedo sooner is a Reload violation, one of a type the magazine has
// none of an Ammo violation.
func TestFairTorpedoes(t *testing.T) {
	b := fairBattle(t, 2)
	a := b.spawn(0, 3, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	tube := systemID(t, a, "Forward Torpedo 1")
	if v := b.torpedo(0, tube, g.ID); !v.OK() {
		t.Fatalf("a loaded tube: %+v", v)
	}
	b.tick(time.Second)
	if v := b.torpedo(0, tube, g.ID); v.Rule != fairplay.Reload || v.Value < 30 {
		t.Fatalf("1 s into a 40-s reload: %+v", v)
	}
	// 36 s in, the reload ends within the 5 s lag: plausible, on credit.
	b.tick(35 * time.Second)
	if v := b.torpedo(0, tube, g.ID); !v.OK() {
		t.Fatalf("within FireLag of the reload: %+v", v)
	}
	// The next reload pays that one first.
	b.tick(5 * time.Second)
	if v := b.torpedo(0, tube, g.ID); v.Rule != fairplay.Reload {
		t.Fatalf("the credit is paid by the next reload: %+v", v)
	}
	b.tick(40 * time.Second)
	if v := b.torpedo(0, tube, g.ID); !v.OK() {
		t.Fatalf("reloaded: %+v", v)
	}
	// The magazine: two torpedoes left, then none.
	i, _ := a.Model.SubsystemIndex(tube)
	s, _ := a.bankOf(i)
	s.ammo[0] = 2
	for k, name := range []string{"Forward Torpedo 2", "Forward Torpedo 3", "Forward Torpedo 4"} {
		v := b.torpedo(0, systemID(t, a, name), g.ID)
		if want := k == 2; want != (v.Rule == fairplay.Ammo) {
			t.Fatalf("torpedo %d with 2 left: %+v", k+1, v)
		}
	}
	// A type the ship does not carry has no torpedoes.
	s.ammo[0] = 100
	b.w.TorpedoType(b.owners[0], &codec.Event{Tail: []byte{5}})
	if v := b.torpedo(0, systemID(t, a, "Aft Torpedo 1"), g.ID); v.Rule != fairplay.Ammo {
		t.Fatalf("type 5 of a one-type ship: %+v", v)
	}
}

// A bolt leaves inside its cannon's arc: straight ahead is plausible,
// backwards is an Arc violation while the host's orientation is fresh,
// and allowed once it is old enough for the ship to have turned.
func TestFairArc(t *testing.T) {
	b := fairBattle(t, 2)
	a := b.spawn(0, 8, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	c := systemID(t, a, "Port Cannon 1")
	if v := b.pulseAt(0, c, g.ID, [3]float32{0, 1, 0}, b.now); !v.OK() {
		t.Fatalf("ahead: %+v", v)
	}
	if v := b.pulseAt(0, c, g.ID, [3]float32{0, -1, 0}, b.now); v.Rule != fairplay.Arc {
		t.Fatalf("astern: %+v", v)
	}
	b.tick(12 * time.Second) // a Warbird turns 0.25 rad/s at most
	if v := b.pulseAt(0, c, g.ID, [3]float32{0, -1, 0}, b.now); !v.OK() {
		t.Fatalf("astern, orientation 12 s old: %+v", v)
	}
}

// Movement: an honest update passes; a jump is a teleport; a collision, a
// tractor and a warp exempt what they explain, and a ship whose warp
// engines are destroyed cannot warp.
func TestFairMove(t *testing.T) {
	b := fairBattle(t, 2)
	a := b.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 30, 0}, [3]float32{0, 1, 0})
	up := func(pos [3]float32) fairplay.Verdict {
		m := codec.StateUpdate{ObjectID: a.ID, Flags: codec.StatePosition | codec.StateForward | codec.StateUp,
			Position: pos, Forward: codec.Dir3{0, 127, 0}, Up: codec.Dir3{0, 0, 127}}
		v := b.w.JudgeMove(b.now, b.owners[0], &m)
		if v.OK() {
			b.w.StateUpdate(b.now, b.owners[0], &m)
		}
		return v
	}
	y := float32(0)
	for range 20 {
		b.advance(100 * time.Millisecond)
		y += 0.9 // 9 GU/s: a Sovereign at 120 %
		if v := up([3]float32{0, y, 0}); !v.OK() {
			t.Fatalf("honest at y %v: %+v", y, v)
		}
	}
	b.advance(100 * time.Millisecond)
	if v := up([3]float32{0, y + 300, 0}); v.Rule != fairplay.Teleport {
		t.Fatalf("300 units in 0.1 s: %+v", v)
	}
	// Rammed: the push exempts the next updates.
	if err := b.collide(1, collisionMsg(a.ID, g.ID, 700, codec.CollisionContact{Dir: codec.Dir3{0, -127, 0}, Dist: 200})); err != nil {
		t.Fatal(err)
	}
	b.advance(100 * time.Millisecond)
	y += 60
	if v := up([3]float32{0, y, 0}); !v.OK() {
		t.Fatalf("pushed by a ram: %+v", v)
	}
	b.advance(4 * time.Second)
	y += 100
	if v := up([3]float32{0, y, 0}); v.Rule == fairplay.RuleNone {
		t.Fatal("100 units in 4 s after the collision grace")
	}
	// Warp: 500 units a second for a ship that started a warp.
	b.advance(3 * time.Second) // re-anchored after the refusals
	if v := up([3]float32{0, y, 0}); !v.OK() {
		t.Fatalf("re-anchor: %+v", v)
	}
	b.w.NoteWarp(b.now, b.owners[0])
	b.advance(time.Second)
	y += 500
	if v := up([3]float32{0, y, 0}); !v.OK() {
		t.Fatalf("warping: %+v", v)
	}
	// Warp engines destroyed: no warp.
	c := a.Model.Class()
	for i := range c.Subsystems {
		if c.Subsystems[i].Type().String() == "warp_engine" {
			a.Model.SetCondition(i, 0)
		}
	}
	b.w.NoteWarp(b.now, b.owners[0])
	b.advance(time.Second)
	if v := up([3]float32{0, y + 500, 0}); v.OK() {
		t.Fatal("warped with destroyed warp engines")
	}
	// Towed: a tractor explains any speed.
	a.sim.tractoredBy, a.sim.tractoredAt = g.ID, b.now
	b.advance(3 * time.Second)
	if v := up([3]float32{0, y + 700, 0}); !v.OK() {
		t.Fatalf("tractored: %+v", v)
	}
	// A claimed speed beyond 125 % + 10 %: speeding.
	m := codec.StateUpdate{ObjectID: a.ID, Flags: codec.StateSpeed, Speed: codec.EncodeCF16(20)}
	b.advance(10 * time.Second)
	if v := b.w.JudgeMove(b.now, b.owners[0], &m); v.Rule != fairplay.Speed {
		t.Fatalf("claimed 20 GU/s: %+v", v)
	}
}

// FuzzJudge plays an arbitrary script of what an owner may send — any
// positions (NaN and infinities included), deltas, speeds, bolts and
// torpedoes with any ids and directions, arrival times before and after
// the game's, warps, collisions — through the fair-play judgements and,
// when plausible, the world. Nothing panics, a verdict names a rule and
// measures numbers, and a cannon's charge never falls below what the lag
// allowance lets it owe.
func FuzzJudge(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add([]byte("\x00\x00\x00\x00\xc0\x7f\x01\x02\x03\x04\x05\x06\x07"))
	f.Fuzz(func(t *testing.T, script []byte) {
		b := fairBattle(t, 2)
		a := b.spawn(0, 8, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
		g := b.spawn(1, 3, [3]float32{0, 40, 0}, [3]float32{0, 1, 0})
		f32 := func(i int) float32 {
			if i+4 > len(script) {
				return 0
			}
			return math.Float32frombits(binary.LittleEndian.Uint32(script[i:]))
		}
		check := func(v fairplay.Verdict) {
			if v.Rule > fairplay.Rate || !v.OK() && (math.IsNaN(v.Limit) || math.IsNaN(v.Value)) {
				t.Fatalf("verdict %+v", v)
			}
		}
		for i := 0; i+2 < len(script) && i < 4096; i += 3 {
			arg := script[i+2]
			id := a.ID + int32(arg%40)
			dir := codec.Dir3{int8(arg), int8(arg * 7), int8(arg * 13)}
			at := b.now.Add(time.Duration(int8(script[i+1])) * 100 * time.Millisecond)
			switch script[i] % 7 {
			case 0:
				m := codec.StateUpdate{ObjectID: a.ID, Flags: script[i+1] &^ codec.StateSubsystems, Position: [3]float32{f32(i), f32(i + 1), f32(i + 2)},
					Delta: codec.DirMag{Dir: dir, Mag: uint16(arg) << 8}, Forward: dir, Up: codec.Dir3{0, 0, 127}, Speed: uint16(arg) << 7}
				v := b.w.JudgeMove(b.now, b.owners[0], &m)
				check(v)
				if v.OK() {
					b.w.StateUpdate(b.now, b.owners[0], &m)
				}
			case 1:
				m := codec.PulseFire{CannonID: id, Dir: dir, Flags: codec.PulseHasTarget, Target: g.ID}
				v := b.w.JudgePulse(b.now, at, b.owners[0], &m)
				check(v)
				if v.OK() {
					b.w.PulseFiredAt(b.now, at, b.owners[0], &m)
				}
			case 2:
				m := codec.TorpedoFire{TubeID: id, Dir: dir, Target: g.ID}
				v := b.w.JudgeTorpedo(b.now, at, b.owners[0], &m)
				check(v)
				if v.OK() {
					b.w.TorpedoFiredAt(b.now, at, b.owners[0], &m)
				}
			case 3:
				b.w.NoteWarp(b.now, b.owners[0])
			case 4:
				b.w.TorpedoType(b.owners[0], &codec.Event{Tail: []byte{arg % 4}})
			case 5:
				_ = b.collide(1, collisionMsg(a.ID, g.ID, f32(i), codec.CollisionContact{Dir: dir, Dist: arg}))
			default:
				b.advance(time.Duration(arg) * 10 * time.Millisecond)
			}
		}
		for k := range a.sim.arms {
			s := &a.sim.arms[k]
			for j := range s.banks {
				bk := &s.banks[j]
				if d := bankData(a, bk); s.weapon == ships.WeaponPulse && !(bk.charge >= -d.RechargeRate*5-1e-3) {
					t.Fatalf("a cannon owes %v, more than the lag allowance", bk.charge)
				}
			}
		}
	})
}

// BenchmarkJudgeMove is the movement check of one StateUpdate: the
// judgement and taking the position into the track.
func BenchmarkJudgeMove(b *testing.B) {
	bt := fairBattle(&testing.T{}, 1)
	a := bt.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	m := codec.StateUpdate{ObjectID: a.ID, Flags: codec.StatePosition | codec.StateForward | codec.StateUp | codec.StateSpeed,
		Forward: codec.Dir3{0, 127, 0}, Up: codec.Dir3{0, 0, 127}, Speed: codec.EncodeCF16(5)}
	now := bt.now
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now = now.Add(100 * time.Millisecond)
		m.Position[1] = float32(i%1000) * 0.5
		if v := bt.w.JudgeMove(now, bt.owners[0], &m); v.OK() {
			bt.w.StateUpdate(now, bt.owners[0], &m)
		}
	}
}

// BenchmarkJudgePulse is the charge and arc check of one bolt.
func BenchmarkJudgePulse(b *testing.B) {
	bt := fairBattle(&testing.T{}, 2)
	a := bt.spawn(0, 8, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := bt.spawn(1, 3, [3]float32{0, 40, 0}, [3]float32{0, 1, 0})
	m := codec.PulseFire{CannonID: systemID(b, a, "Port Cannon 1"), Dir: codec.Dir3{0, 127, 0}, Flags: codec.PulseHasTarget, Target: g.ID}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if v := bt.w.JudgePulse(bt.now, bt.now, bt.owners[0], &m); !v.OK() {
			b.Fatal(v)
		}
	}
}

// BenchmarkJudgeTorpedo is the reload and magazine check of one torpedo.
func BenchmarkJudgeTorpedo(b *testing.B) {
	bt := fairBattle(&testing.T{}, 2)
	a := bt.spawn(0, 3, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := bt.spawn(1, 3, [3]float32{0, 40, 0}, [3]float32{0, 1, 0})
	m := codec.TorpedoFire{TubeID: systemID(b, a, "Forward Torpedo 1"), Dir: codec.Dir3{0, 127, 0}, Target: g.ID}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if v := bt.w.JudgeTorpedo(bt.now, bt.now, bt.owners[0], &m); !v.OK() {
			b.Fatal(v)
		}
	}
}

// A shot that was held back by losses counts from when it could have
// arrived (at): a tube that sat loaded meanwhile is credited the reload it
// could not do, and a ship can have turned since the bolt was sent, not
// only since its orientation was.
func TestFairLateShots(t *testing.T) {
	b := fairBattle(t, 2)
	a := b.spawn(0, 3, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	g := b.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	tube := systemID(t, a, "Forward Torpedo 1")
	m := codec.TorpedoFire{TubeID: tube, Flags: codec.TorpedoArg, Dir: codec.Dir3{0, 127, 0}, Target: g.ID}
	// Sent at 0, resent until it arrived at 8 s; the next from the same
	// tube, sent when the client's reload of 40 s ended, arrives on time.
	b.tick(8 * time.Second)
	sent := b.now.Add(-8 * time.Second)
	if v := b.w.JudgeTorpedo(b.now, sent, b.owners[0], &m); !v.OK() {
		t.Fatal(v)
	}
	b.w.TorpedoFiredAt(b.now, sent, b.owners[0], &m)
	b.tick(32*time.Second + 100*time.Millisecond)
	if v := b.w.JudgeTorpedo(b.now, b.now, b.owners[0], &m); !v.OK() {
		t.Fatalf("reloaded on the client's clock: %+v", v)
	}

	w := fairBattle(t, 2)
	bop := w.spawn(0, 6, [3]float32{0, 0, 0}, [3]float32{0, 1, 0})
	x := w.spawn(1, 3, [3]float32{0, 60, 0}, [3]float32{0, 1, 0})
	c := systemID(t, bop, "Port Cannon")
	// The bolt left 2.2 rad to starboard of where the nose now points: the
	// ship has turned since. Sent 6 s ago, it is plausible; sent now, not
	// (a Bird of Prey turns 0.625 rad/s at most: its arc of 0.44 widens to
	// 1.84 for the second of jitter either side).
	dir := [3]float32{float32(math.Sin(2.2)), float32(math.Cos(2.2)), 0}
	if v := w.pulseAt(0, c, x.ID, dir, w.now); v.Rule != fairplay.Arc {
		t.Fatalf("a fresh bolt 2.2 rad off: %+v", v)
	}
	if v := w.pulseAt(0, c, x.ID, dir, w.now.Add(-6*time.Second)); !v.OK() {
		t.Fatalf("a bolt sent 6 s ago: %+v", v)
	}
	// A long silence does not excuse a bolt astern: the orientations the
	// host kept show the ship facing ahead all along.
	for range 16 {
		w.advance(time.Second)
		w.move(0, bop.ID, [3]float32{0, 0, 0}, codec.Dir3{0, 127, 0}, codec.Dir3{0, 0, 127})
	}
	if v := w.pulseAt(0, c, x.ID, [3]float32{0, -1, 0}, w.now.Add(-15*time.Second)); v.Rule != fairplay.Arc {
		t.Fatalf("astern after 15 s of silence: %+v", v)
	}
}
