package world

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// FuzzCombat plays an arbitrary script of what owners may send — any
// positions and orientations (NaN and infinities included), StartFiring,
// StopFiring, SetPhaserLevel, PulseFire, TorpedoFire and collisions with
// any ids, directions and points — between game ticks. Nothing panics,
// and every condition, shield facing and the projectile count stay within
// their bounds. On every application of damage: the shields absorb
// between nothing and all of it; the hull loses exactly what passed (all
// of it up to what it had) unless the hit spares it (LOW beams), then
// nothing; a dead ship takes nothing. Between steps, a condition rises
// only by repair.
//
// The committed corpus (testdata/fuzz/FuzzCombat) has a seed per weapon
// kind: the Sovereign's beams at the Akira (1 0 26, then two seconds),
// the same at LOW (3 0 40 sets the ship's level first), the Warbird's
// first cannon (4 1 47), the Akira's first tube at the Sovereign (5 2 174).
func FuzzCombat(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\xf0\x7f\x02\x03\x04\x05"))
	f.Fuzz(func(t *testing.T, script []byte) { playCombat(t, script, nil) })
}

// playCombat runs one FuzzCombat script and checks its invariants; onHit,
// when set, sees every weapon hit. It returns the battle.
func playCombat(t *testing.T, script []byte, onHit func(*WeaponHit)) *battle {
	b := newBattle(t, 3, stockOptions())
	if onHit != nil {
		b.on(EvWeaponHit, func(e Event) { onHit(e.(*WeaponHit)) })
	}
	ships := []*Object{
		b.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0}),
		b.spawn(1, 8, [3]float32{0, 40, 0}, [3]float32{0, -1, 0}),
		b.spawn(2, 1, [3]float32{30, 20, 0}, [3]float32{-1, 0, 0}),
	}
	b.w.hitCheck = func(o *Object, h *hit, res hitResult, dead bool, before float32) {
		after := hp(o.Model, o.Model.Class().Hull)
		const eps = 0.01
		switch {
		case dead && (after != before || res != hitResult{}):
			t.Fatalf("a dead %s took %+v", o.Model.Class().Name, res)
		case !(res.absorbed >= 0 && res.absorbed <= h.damage+eps):
			t.Fatalf("absorbed %v of %v", res.absorbed, h.damage)
		case h.hull == hullSpared && after != before:
			t.Fatalf("a hit that spares the hull took %v off it", before-after)
		case h.hull == hullFull && !dead && math.Abs(float64(before-after-min(before, res.passed))) > eps*float64(max(1, res.passed)):
			t.Fatalf("hull lost %v of %v that passed (%v absorbed of %v)", before-after, res.passed, res.absorbed, h.damage)
		}
	}
	prev := make([][]float32, len(ships))
	queued := make([][]int, len(ships))
	for k, o := range ships {
		prev[k] = conditions(o)
	}
	rises := func() {
		for k, o := range ships {
			for i, v := range conditions(o) {
				if v > prev[k][i] && !slices.Contains(queued[k], i) && !slices.Contains(o.sim.repair, i) {
					t.Fatalf("%s %s rose %v -> %v, not under repair", o.Model.Class().Name, o.Model.Class().Subsystems[i].Name, prev[k][i], v)
				}
				prev[k][i] = v
			}
			queued[k] = append(queued[k][:0], o.sim.repair...)
		}
	}
	f32 := func(i int) float32 {
		if i+4 > len(script) {
			return 0
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(script[i:]))
	}
	for i := 0; i+2 < len(script) && i < 4096; i += 3 {
		who, arg := int(script[i+1])%3, script[i+2]
		me, other := ships[who], ships[int(arg)%3]
		id := me.ID + int32(arg%40) // a subsystem, or not
		dir := codec.Dir3{int8(arg), int8(arg * 7), int8(arg * 13)}
		switch script[i] % 9 {
		case 0:
			b.move(who, me.ID, [3]float32{f32(i), f32(i + 1), f32(i + 2)}, dir, codec.Dir3{0, 0, 127})
		case 1:
			b.fire(who, startFiring(id, other.ID))
		case 2:
			b.fire(who, codec.SubsystemEvent{Op: codec.OpStopFiring, Code: codec.EventStopFiringNet, Dst: id}.AppendTo(nil))
		case 3:
			b.fire(who, phaserLevel(id, arg%4))
		case 4:
			b.fire(who, codec.PulseFire{CannonID: id, Dir: dir, Flags: codec.PulseHasTarget, Target: other.ID}.AppendTo(nil))
		case 5:
			b.fire(who, codec.TorpedoFire{TubeID: id, Dir: dir, Target: other.ID,
				Point: codec.ScaledPoint{Dir: dir, Dist: arg}}.AppendTo(nil))
		case 6:
			ce := codec.CollisionEffect{Code: codec.EventObjectCollision, Src: other.ID, Target: me.ID,
				Contacts: codec.AppendContact(nil, codec.CollisionContact{Dir: dir, Dist: arg}), Force: f32(i)}
			_ = b.w.Collision(b.now, b.owners[who], &ce)
		case 7:
			b.w.OwnerStopFiringAt(b.now, b.owners[who], id, other.ID)
		default:
			b.advance(time.Duration(arg) * 10 * time.Millisecond)
		}
		rises()
	}
	b.tick(5 * time.Second)
	if len(b.w.projectiles) > maxProjectiles {
		t.Fatalf("%d projectiles", len(b.w.projectiles))
	}
	for _, o := range ships {
		c := o.Model.Class()
		for i := range c.Subsystems {
			if v := o.Model.Condition(i); !(v >= 0 && v <= c.Subsystems[i].MaxCondition) {
				t.Fatalf("%s %s condition %v", c.Name, c.Subsystems[i].Name, v)
			}
		}
		for k, s := range o.Shields() {
			if !(s >= 0 && s <= c.ShieldHP[k]) {
				t.Fatalf("%s facing %d at %v", c.Name, k, s)
			}
		}
	}
	return b
}

// Each committed seed reaches the code of its weapon kind: hits land (the
// torpedo homes on the Sovereign) or, for the Warbird's bolt, which flies
// off its fixed direction, the bolt is launched and paid for.
func TestCombatSeedsReachTheirWeapons(t *testing.T) {
	for _, tt := range []struct {
		file string
		kind WeaponKind
		hits bool
	}{
		{"beam_sovereign_at_akira", KindPhaser, true},
		{"beam_low_sovereign", KindPhaser, true},
		{"torpedo_akira_tube", KindTorpedo, true},
		{"pulse_warbird_cannon", KindPulse, false},
	} {
		t.Run(tt.file, func(t *testing.T) {
			script := corpusSeed(t, "FuzzCombat", tt.file)
			var kinds []WeaponKind
			b := playCombat(t, script, func(h *WeaponHit) { kinds = append(kinds, h.Kind) })
			switch {
			case tt.hits && !slices.Contains(kinds, tt.kind):
				t.Errorf("no %s hit: %v", tt.kind, kinds)
			case !tt.hits:
				c := b.w.objects[codec.FirstObjectID(1)]
				_, bank := c.bankOf(mustIndex(t, c.Model.Class(), "Port Cannon 1"))
				if d := bankData(c, bank); bank.charge >= d.MaxCharge {
					t.Errorf("the cannon did not pay for a bolt: charge %v", bank.charge)
				}
			}
		})
	}
}

// corpusSeed reads a committed seed of testdata/fuzz/<target>/<name>: the
// one []byte value of a "go test fuzz v1" file.
func corpusSeed(t *testing.T, target, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "fuzz", target, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
		t.Fatalf("%s: not a one-value fuzz file", name)
	}
	v, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return []byte(v)
}
