package codec

import (
	"bytes"
	"errors"
	"testing"
)

// akiraFromStart8 reads the Akira block of the stock worked example
// (simulation.md 4.3): start index, then Engineering (powered), Tractors
// (powered, 2 children), Bridge, Hull, Shield Generator (base) and Sensors
// (powered) until the message ends. Its has_power bits go through the
// shared Reader, as the stock client reads them.
func akiraFromStart8(r *Reader) error {
	if start := r.U8(); r.Err() == nil && start != 8 {
		return errors.New("unexpected start index")
	}
	powered := func(children int) {
		r.U8()
		for range children {
			r.U8()
		}
		if r.Bit() {
			r.U8()
		}
	}
	powered(0) // Engineering
	powered(2) // Tractors
	r.U8()     // Bridge
	r.U8()     // Hull
	r.U8()     // Shield Generator
	powered(0) // Sensors
	return nil
}

func TestStateUpdateClientVectors(t *testing.T) {
	all := gameVectors(t)
	want := StateUpdate{
		ObjectID: 0x3FFFFFFF, GameTime: 28.1875, Flags: 0x9D,
		Position: [3]float32{88, -66, -73}, HasHash: true, Hash: 0xFB37,
		Forward: Dir3{0x0B, 0x68, 0x46}, Up: Dir3{0x30, -0x45, 0x5E}, Speed: 0,
		Weapons: []byte{1, 0xCC, 2, 0xCC, 4, 0xCC},
	}
	for _, key := range []string{"session.json/stateupdate_client_0x9d", "simulation.json/stateupdate_owner_0x9D_with_hash"} {
		p := vec(t, all, key)
		m, err := DecodeStateUpdate(p, nil)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if m.ObjectID != want.ObjectID || m.GameTime != want.GameTime || m.Flags != want.Flags || m.Position != want.Position ||
			!m.HasHash || m.Hash != want.Hash || m.Forward != want.Forward || m.Up != want.Up || m.Speed != 0 ||
			m.Delta != (DirMag{}) || m.Subsystems != nil || m.Cloak || !bytes.Equal(m.Weapons, want.Weapons) {
			t.Errorf("%s: %+v", key, m)
		}
		fx, fy, fz := m.Forward.Vector()
		ux, uy, uz := m.Up.Vector()
		if !near(fx, 0.087, 0.001) || !near(fy, 0.819, 0.001) || !near(fz, 0.551, 0.001) ||
			!near(ux, 0.378, 0.001) || !near(uy, -0.543, 0.001) || !near(uz, 0.74, 0.001) || m.SpeedValue() != 0 {
			t.Errorf("%s: vectors %v %v %v / %v %v %v", key, fx, fy, fz, ux, uy, uz)
		}
		if m.NumWeapons() != 3 {
			t.Errorf("%s: %d weapons", key, m.NumWeapons())
		}
		for i, idx := range []uint8{1, 2, 4} {
			if gi, gv := m.Weapon(i); gi != idx || gv != 0xCC {
				t.Errorf("%s: weapon %d = %d, %#x", key, i, gi, gv)
			}
		}
		if got := want.AppendTo(nil); !bytes.Equal(got, p) {
			t.Errorf("%s: built %X", key, got)
		}
	}
}

func TestStateUpdateServerVectors(t *testing.T) {
	all := gameVectors(t)
	block := mustHex(t, "08FF60FFFFFFFFFFFFFF")
	for _, key := range []string{"session.json/stateupdate_server_0x20", "simulation.json/stateupdate_host_0x20_subsystems_to_owner"} {
		p := vec(t, all, key)
		m, err := DecodeStateUpdate(p, nil)
		if !errors.Is(err, ErrNeedSubsystems) || m.ObjectID != 0x3FFFFFFF || m.Flags != StateSubsystems || m.GameTime != 38.90625 {
			t.Errorf("%s without block reader: %+v, %v", key, m, err)
		}
		for _, rd := range []struct {
			name string
			fn   func(*Reader) error
		}{{"to end", SubsystemsToEnd}, {"akira list", akiraFromStart8}} {
			m, err := DecodeStateUpdate(p, rd.fn)
			if err != nil || !bytes.Equal(m.Subsystems, block) || len(p) != 20 {
				t.Errorf("%s (%s): %+v, %v", key, rd.name, m, err)
				continue
			}
			if got := m.AppendTo(nil); !bytes.Equal(got, p) {
				t.Errorf("%s (%s): re-encoded %X", key, rd.name, got)
			}
		}
	}
	// A block reader that stops early leaves trailing bytes.
	short := func(r *Reader) error { r.U8(); return nil }
	if _, err := DecodeStateUpdate(vec(t, all, "session.json/stateupdate_server_0x20"), short); !errors.Is(err, ErrMalformed) {
		t.Errorf("short block reader: %v", err)
	}
	// One that wanders off the payload is caught.
	reset := func(r *Reader) error { r.Reset([]byte{1}); r.U8(); return nil }
	if _, err := DecodeStateUpdate(vec(t, all, "session.json/stateupdate_server_0x20"), reset); !errors.Is(err, ErrMalformed) {
		t.Errorf("resetting block reader: %v", err)
	}
	// Its own error is wrapped.
	errBlock := errors.New("unknown species")
	failing := func(*Reader) error { return errBlock }
	if _, err := DecodeStateUpdate(vec(t, all, "session.json/stateupdate_server_0x20"), failing); !errors.Is(err, errBlock) {
		t.Errorf("failing block reader: %v", err)
	}
}

// Packed-bit placement: has_hash, has_power bits of the block and the cloak
// bit share one open byte, as the stock writer does (codec.md 2.1).
func TestStateUpdateBitSharing(t *testing.T) {
	// Client 0xDD: position+hash, forward, up, speed, cloak, weapons. The
	// cloak bit joins the has_hash byte: 0x43 (count 2, bits 1,1).
	c := StateUpdate{ObjectID: 0x4003FFFF, GameTime: 1, Flags: 0xDD, Position: [3]float32{1, 2, 3}, HasHash: true, Hash: 0x1234,
		Forward: Dir3{127, 0, 0}, Up: Dir3{0, 0, 127}, Speed: 0x471B, Cloak: true, Weapons: []byte{0, 0xCC}}
	p := c.AppendTo(nil)
	want := mustHex(t, "1C FFFF0340 0000803F DD 0000803F 00000040 00004040 43 3412 7F0000 00007F 1B47 00CC")
	if !bytes.Equal(p, want) {
		t.Fatalf("0xDD\n got %X\nwant %X", p, want)
	}
	m, err := DecodeStateUpdate(p, nil)
	if err != nil || !m.Cloak || !m.HasHash || m.Hash != 0x1234 || !near(m.SpeedValue(), 4.9978, 0.0001) {
		t.Fatalf("0xDD decode %+v %v", m, err)
	}

	// Host 0x3D rebuilt from that owner update: movement fields copied raw,
	// has_hash false, the Akira block written into the same Writer. The
	// three has_power bits join the has_hash byte: 0x20 becomes 0x80
	// (count 4, all false) and the block itself holds no bit byte.
	h := m
	h.Flags = m.Flags&StateMovement | StateSubsystems
	h.HasHash = false
	var w Writer
	h.WriteHead(&w)
	w.U8(8)
	w.U8(0xFF)
	w.Bit(false) // Engineering
	w.Raw([]byte{0xFF, 0xFF, 0xFF})
	w.Bit(false) // Tractors
	w.Raw([]byte{0xFF, 0xFF, 0xFF})
	w.U8(0xFF)
	w.Bit(false) // Sensors
	h.WriteTail(&w)
	want = mustHex(t, "1C FFFF0340 0000803F 3D 0000803F 00000040 00004040 80 7F0000 00007F 1B47 08 FF FFFFFF FFFFFF FF")
	if !bytes.Equal(w.Bytes(), want) {
		t.Fatalf("host 0x3D\n got %X\nwant %X", w.Bytes(), want)
	}
	back, err := DecodeStateUpdate(w.Bytes(), akiraFromStart8)
	if err != nil || back.HasHash || back.Forward != m.Forward || back.Speed != m.Speed || len(back.Subsystems) != 9 {
		t.Fatalf("host 0x3D decode %+v %v", back, err)
	}

	// A pre-encoded block without packed bits: AppendTo keeps the has_hash
	// byte open, so the cloak bit still joins it (stock output).
	r := StateUpdate{ObjectID: 1, Flags: StatePosition | StateSubsystems | StateCloak, Subsystems: []byte{0, 0xFF}, Cloak: true}
	want = mustHex(t, "1C 01000000 00000000 61 00000000 00000000 00000000 42 00FF")
	if got := r.AppendTo(nil); !bytes.Equal(got, want) {
		t.Errorf("raw block + cloak\n got %X\nwant %X", got, want)
	}
	if got, err := DecodeStateUpdate(want, SubsystemsToEnd); err != nil || !got.Cloak || !bytes.Equal(got.Subsystems, []byte{0, 0xFF}) {
		t.Errorf("raw block + cloak decode %+v %v", got, err)
	}
}

func TestStateUpdateEdges(t *testing.T) {
	// Header only: 10 bytes, a valid heartbeat (simulation.md 4.1).
	hb := StateUpdate{ObjectID: 0x3FFFFFFF, GameTime: 2}
	p := hb.AppendTo(nil)
	if len(p) != 10 {
		t.Fatalf("heartbeat %X", p)
	}
	if m, err := DecodeStateUpdate(p, nil); err != nil || m.Flags != 0 {
		t.Errorf("heartbeat decode %+v %v", m, err)
	}
	// Delta only.
	d := StateUpdate{ObjectID: 7, Flags: StateDelta, Delta: NewDirMag(0, 5, 0)}
	if got := d.AppendTo(nil); !bytes.Equal(got, mustHex(t, "1C 07000000 00000000 02 007F00 1B47")) {
		t.Errorf("delta %X", got)
	}
	tests := []struct {
		name string
		hex  string
		want error
	}{
		{"odd weapon bytes", "1C 07000000 00000000 80 01CC02", ErrMalformed},
		{"fields without flags", "1C 07000000 00000000 00 01", ErrMalformed},
		{"bad bit byte", "1C 07000000 00000000 01 00000000 00000000 00000000 00", ErrBadBits},
		{"missing hash", "1C 07000000 00000000 01 00000000 00000000 00000000 21 37", ErrShort},
		{"cloak past the end", "1C 07000000 00000000 40", ErrShort},
		{"empty block", "1C 07000000 00000000 20", ErrShort},
		{"wrong opcode", "1D 07000000 00000000 00", ErrMalformed},
	}
	for _, tt := range tests {
		if _, err := DecodeStateUpdate(mustHex(t, tt.hex), SubsystemsToEnd); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
		}
	}
	// The encoder writes whole weapon pairs only.
	odd := StateUpdate{Flags: StateWeapons, Weapons: []byte{1, 2, 3}}
	if got := odd.AppendTo(nil); len(got) != 12 {
		t.Errorf("odd weapons %X", got)
	}
}

func BenchmarkDecodeStateUpdate(b *testing.B) {
	p := suVector(b, "session.json/stateupdate_client_0x9d")
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if _, err := DecodeStateUpdate(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStateUpdateSubsystems(b *testing.B) {
	p := suVector(b, "session.json/stateupdate_server_0x20")
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if _, err := DecodeStateUpdate(p, SubsystemsToEnd); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeStateUpdate(b *testing.B) {
	m, err := DecodeStateUpdate(suVector(b, "session.json/stateupdate_client_0x9d"), nil)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		buf = m.AppendTo(buf[:0])
	}
}

func suVector(b *testing.B, key string) []byte { return vec(b, gameVectors(b), key) }
