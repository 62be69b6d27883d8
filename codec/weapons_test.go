package codec

import (
	"bytes"
	"errors"
	"testing"
)

// No raw 0x19/0x1A/0x29 capture is in the shared vectors (checked:
// session.json, simulation.json, missions.json hold none); these bytes are
// built from the layouts of opcodes.md 3.5-3.7 with the captured direction
// DF 87 11 of codec.md 4.1 and the CF16 table of codec.md 3.3.
func TestTorpedoFire(t *testing.T) {
	dir := Dir3{-33, -121, 17} // DF 87 11
	tests := []struct {
		name string
		msg  TorpedoFire
		hex  string
	}{
		{"unguided", TorpedoFire{TubeID: 0x40000010, Info: 2, Flags: 0x05, Dir: dir},
			"19 10000040 02 05 DF8711"},
		{"target lock", TorpedoFire{TubeID: 0x40000010, Info: 2, Flags: 0x07, Dir: dir, Target: 0x4003FFFF,
			Point: DirMag{Dir3{0, 127, 0}, 0x471B}},
			"19 10000040 02 07 DF8711 FFFF0340 007F00 1B47"},
	}
	for _, tt := range tests {
		want := mustHex(t, tt.hex)
		if got := tt.msg.AppendTo(nil); !bytes.Equal(got, want) {
			t.Errorf("%s: got %X want %X", tt.name, got, want)
			continue
		}
		m, err := DecodeTorpedoFire(want)
		if err != nil || m != tt.msg {
			t.Errorf("%s: decoded %+v, %v", tt.name, m, err)
		}
		if slot, ok := OwnerSlot(m.TubeID); !ok || slot != 0 {
			t.Errorf("%s: tube owner %d", tt.name, slot)
		}
	}
	x, y, z := dir.Vector()
	if !near(x, -0.260, 0.001) || !near(y, -0.953, 0.001) || !near(z, 0.134, 0.001) {
		t.Errorf("direction %v %v %v", x, y, z)
	}
	m, _ := DecodeTorpedoFire(mustHex(t, tests[1].hex))
	if px, py, pz := m.Point.Vector(); px != 0 || !near(py, 4.9978, 0.0001) || pz != 0 || !m.HasTarget() {
		t.Errorf("target point %v %v %v", px, py, pz)
	}
	// The disputed 18-byte targeted form and extra bytes are refused, with
	// the tube id still filled in for the relay's ownership check.
	for _, bad := range []string{"19 10000040 02 07 DF8711 FFFF0340 007F00 1B", "19 10000040 02 05 DF8711 00"} {
		m, err := DecodeTorpedoFire(mustHex(t, bad))
		if err == nil || m.TubeID != 0x40000010 {
			t.Errorf("%s: %+v %v", bad, m, err)
		}
	}
}

func TestBeamFire(t *testing.T) {
	tests := []struct {
		name string
		msg  BeamFire
		hex  string
	}{
		{"no target", BeamFire{BeamID: 0x40000008, Info: 2, Dir: Dir3{127, 0, 0}, Flags: 0}, "1A 08000040 02 7F0000 00"},
		{"target, flag bit 1", BeamFire{BeamID: 0x40000008, Info: 2, Dir: Dir3{0, 0, -127}, Flags: 0x02, HasTarget: true, Target: 0x4003FFFF},
			"1A 08000040 02 000081 02 FFFF0340"},
		// The other reading (bit 0) decodes the same way: length decides.
		{"target, flag bit 0", BeamFire{BeamID: 0x40000008, Info: 2, Flags: 0x01, HasTarget: true, Target: 0x4003FFFF},
			"1A 08000040 02 000000 01 FFFF0340"},
	}
	for _, tt := range tests {
		want := mustHex(t, tt.hex)
		if got := tt.msg.AppendTo(nil); !bytes.Equal(got, want) {
			t.Errorf("%s: got %X want %X", tt.name, got, want)
			continue
		}
		if m, err := DecodeBeamFire(want); err != nil || m != tt.msg {
			t.Errorf("%s: decoded %+v, %v", tt.name, m, err)
		}
	}
	for _, bad := range []string{"1A 08000040 02 000000 02 FFFF03", "1A 08000040 02 000000 02 FFFF034000"} {
		if _, err := DecodeBeamFire(mustHex(t, bad)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", bad, err)
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
		TorpedoFire{TubeID: 1, Flags: 0x07, Target: 2},
		TorpedoFire{TubeID: 1, Flags: 0x05},
		BeamFire{BeamID: 1, HasTarget: true, Target: 2},
		BeamFire{BeamID: 1},
		NewExplosion(1, 1, 2, 3, 4, 5),
	}
	for _, msg := range msgs {
		p := msg.AppendTo(nil)
		for n := range len(p) {
			var err error
			switch p[0] {
			case OpTorpedoFire:
				_, err = DecodeTorpedoFire(p[:n])
			case OpBeamFire:
				_, err = DecodeBeamFire(p[:n])
			default:
				_, err = DecodeExplosion(p[:n])
			}
			if n == beamFireLen && p[0] == OpBeamFire {
				// A targeted beam cut after its flags is a whole untargeted
				// one: the length is the only target marker we trust.
				continue
			}
			if err == nil || !knownErr(err) {
				t.Errorf("%T cut at %d: %v", msg, n, err)
			}
		}
	}
}
