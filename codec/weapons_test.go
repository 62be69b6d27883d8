package codec

import (
	"bytes"
	"errors"
	"testing"
)

// The captured targeted TorpedoFire and PulseFire messages (opcodes.md
// 3.5-3.6, vectors/simulation.json) and built untargeted forms.
func TestTorpedoFire(t *testing.T) {
	all := gameVectors(t)
	dir := Dir3{-33, -121, 17} // DF 87 11
	tests := []struct {
		name string
		msg  TorpedoFire
		want []byte
	}{
		{"captured akira tube", TorpedoFire{TubeID: 0x4000000D, FiringPlayer: 2, Flags: 0x01, Dir: dir,
			Target: 0x4003FFFF, Point: ScaledPoint{Dir3{0, -120, -40}, 0x5C}},
			vec(t, all, "simulation.json/torpedo_fire_targeted_akira_tube")},
		{"captured b", TorpedoFire{TubeID: 0x4004009C, FiringPlayer: 3, Flags: 0x03, Dir: Dir3{-49, -46, 107},
			Target: 0x40000070, Point: ScaledPoint{Dir3{112, -57, -6}, 0x49}},
			vec(t, all, "simulation.json/torpedo_fire_targeted_b")},
		{"unguided", TorpedoFire{TubeID: 0x40000010, FiringPlayer: 2, Flags: 0x05, Dir: dir},
			mustHex(t, "19 10000040 02 05 DF8711")},
		{"no target, tube flag", TorpedoFire{TubeID: 0x40000010, FiringPlayer: 2, Flags: 0x07, Dir: dir},
			mustHex(t, "19 10000040 02 07 DF8711")},
	}
	for _, tt := range tests {
		if got := tt.msg.AppendTo(nil); !bytes.Equal(got, tt.want) {
			t.Errorf("%s: got %X want %X", tt.name, got, tt.want)
			continue
		}
		m, err := DecodeTorpedoFire(tt.want)
		if err != nil || m != tt.msg {
			t.Errorf("%s: decoded %+v, %v", tt.name, m, err)
		}
		if m.HasTarget() != (len(tt.want) == 18) {
			t.Errorf("%s: HasTarget %v for %d bytes", tt.name, m.HasTarget(), len(tt.want))
		}
	}
	// The captured tube 0x4000000D is the Akira's "Forward Torp 1" (ship
	// 0x3FFFFFFF + 14) and the target slot 1's ship.
	if slot, ok := OwnerSlot(0x4000000D); !ok || slot != 0 {
		t.Errorf("tube owner %d", slot)
	}
	x, y, z := dir.Vector()
	if !near(x, -0.260, 0.001) || !near(y, -0.953, 0.001) || !near(z, 0.134, 0.001) {
		t.Errorf("direction %v %v %v", x, y, z)
	}
	// The target point is scaled by the target's radius.
	p := tests[0].msg.Point.Vector(10)
	if !near(p[0], 0, 1e-6) || !near(p[1], -120.0/127*0x5C/255*10, 1e-4) || !near(p[2], -40.0/127*0x5C/255*10, 1e-4) {
		t.Errorf("target point %v", p)
	}
	// Re-encoding keeps the direction; the distance byte may round down
	// by one.
	if q := NewScaledPoint(p, 10); q.Dir != tests[0].msg.Point.Dir || q.Dist < 0x5B || q.Dist > 0x5C {
		t.Errorf("re-encoded point %+v", q)
	}
	// The old 19-byte reading and a targeted form cut short are refused,
	// with the tube id still filled in for the relay's ownership check.
	for _, bad := range []string{"19 10000040 02 03 DF8711 FFFF0340 007F00 1B47", "19 10000040 02 01 DF8711 FFFF0340 007F00", "19 10000040 02 05 DF8711 00"} {
		m, err := DecodeTorpedoFire(mustHex(t, bad))
		if err == nil || m.TubeID != 0x40000010 {
			t.Errorf("%s: %+v %v", bad, m, err)
		}
	}
}

func TestPulseFire(t *testing.T) {
	tests := []struct {
		name string
		msg  PulseFire
		want []byte
	}{
		{"captured", PulseFire{CannonID: 0x40000077, FiringPlayer: 2, Dir: Dir3{0x75, 0x0E, -46}, Flags: 0x03, Target: 0x40080068},
			vec(t, gameVectors(t), "simulation.json/beam_fire_targeted")},
		{"no target", PulseFire{CannonID: 0x40000008, FiringPlayer: 2, Dir: Dir3{127, 0, 0}, Flags: 0}, mustHex(t, "1A 08000040 02 7F0000 00")},
		// Bit 0 alone is a separate boolean, not a target marker.
		{"bit 0 only", PulseFire{CannonID: 0x40000008, FiringPlayer: 2, Flags: 0x01}, mustHex(t, "1A 08000040 02 000000 01")},
		{"target, bit 1", PulseFire{CannonID: 0x40000008, FiringPlayer: 2, Dir: Dir3{0, 0, -127}, Flags: 0x02, Target: 0x4003FFFF},
			mustHex(t, "1A 08000040 02 000081 02 FFFF0340")},
	}
	for _, tt := range tests {
		if got := tt.msg.AppendTo(nil); !bytes.Equal(got, tt.want) {
			t.Errorf("%s: got %X want %X", tt.name, got, tt.want)
			continue
		}
		if m, err := DecodePulseFire(tt.want); err != nil || m != tt.msg {
			t.Errorf("%s: decoded %+v, %v", tt.name, m, err)
		}
	}
	// The flag decides the length: a target after bit 0 alone, or none
	// (or part of one) after bit 1, is refused.
	for _, bad := range []struct {
		hex  string
		want error
	}{
		{"1A 08000040 02 000000 01 FFFF0340", ErrMalformed},
		{"1A 08000040 02 000000 02", ErrShort},
		{"1A 08000040 02 000000 02 FFFF03", ErrShort},
		{"1A 08000040 02 000000 02 FFFF034000", ErrMalformed},
	} {
		if _, err := DecodePulseFire(mustHex(t, bad.hex)); !errors.Is(err, bad.want) {
			t.Errorf("%s: %v, want %v", bad.hex, err, bad.want)
		}
	}
}

func TestExplosion(t *testing.T) {
	// Radius 5000 then damage 50 (radius-like 5997.8 and damage-like 50.0
	// are the values of simulation.md 9.3), at 5 units up.
	e := NewExplosion(0x3FFFFFFF, 0, 5, 0, 5000, 50)
	want := mustHex(t, "29 FFFFFF3F 007F00 1B47 1B77 1B57")
	if e.Radius != 0x771B || e.Damage != 0x571B {
		t.Fatalf("raw values %#04x %#04x", e.Radius, e.Damage)
	}
	got := e.AppendTo(nil)
	if !bytes.Equal(got, want) || len(got) != 14 {
		t.Fatalf("got %X want %X", got, want)
	}
	m, err := DecodeExplosion(got)
	if err != nil || m != e {
		t.Fatalf("decoded %+v %v", m, err)
	}
	if !near(m.RadiusValue(), 4997.80, 0.01) || !near(m.DamageValue(), 49.978, 0.001) {
		t.Errorf("values %v %v", m.RadiusValue(), m.DamageValue())
	}
	if x, y, z := m.Position.Vector(); x != 0 || !near(y, 4.9978, 0.0001) || z != 0 {
		t.Errorf("position %v %v %v", x, y, z)
	}
	// Raw CF16 values survive untouched, even ones no encoder produces.
	odd := mustHex(t, "29 01000000 818181 FFFF FF7F 0080")
	m, err = DecodeExplosion(odd)
	if err != nil || m.Radius != 0x7FFF || m.Damage != 0x8000 || !bytes.Equal(m.AppendTo(nil), odd) {
		t.Errorf("raw %+v %v", m, err)
	}
	if _, err := DecodeExplosion(append(odd, 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("trailing: %v", err)
	}
}

// Weapon messages built from fields, cut at every offset, fail cleanly.
func TestWeaponsTruncated(t *testing.T) {
	msgs := []appender{
		TorpedoFire{TubeID: 1, Flags: 0x03, Target: 2},
		TorpedoFire{TubeID: 1, Flags: 0x05},
		PulseFire{CannonID: 1, Flags: PulseHasTarget, Target: 2},
		PulseFire{CannonID: 1},
		NewExplosion(1, 1, 2, 3, 4, 5),
	}
	for _, msg := range msgs {
		p := msg.AppendTo(nil)
		for n := range len(p) {
			var err error
			switch p[0] {
			case OpTorpedoFire:
				_, err = DecodeTorpedoFire(p[:n])
			case OpPulseFire:
				_, err = DecodePulseFire(p[:n])
			default:
				_, err = DecodeExplosion(p[:n])
			}
			if err == nil || !knownErr(err) {
				t.Errorf("%T cut at %d: %v", msg, n, err)
			}
		}
	}
}
