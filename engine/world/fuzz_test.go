package world

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/bcserver/bcserver/codec"
)

// FuzzCombat plays an arbitrary script of what owners may send — any
// positions and orientations (NaN and infinities included), StartFiring,
// StopFiring, SetPhaserLevel, PulseFire, TorpedoFire and collisions with
// any ids, directions and points — between game ticks. Nothing panics,
// and every condition, shield facing and the projectile count stay within
// their bounds.
func FuzzCombat(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\xf0\x7f\x02\x03\x04\x05"))
	f.Fuzz(func(t *testing.T, script []byte) {
		b := newBattle(t, 3, stockOptions())
		ships := []*Object{
			b.spawn(0, 5, [3]float32{0, 0, 0}, [3]float32{0, 1, 0}),
			b.spawn(1, 8, [3]float32{0, 40, 0}, [3]float32{0, -1, 0}),
			b.spawn(2, 1, [3]float32{30, 20, 0}, [3]float32{-1, 0, 0}),
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
	})
}
