package codec

import (
	"bytes"
	"errors"
	"testing"
)

func TestObjCreateShipVectors(t *testing.T) {
	all := gameVectors(t)
	tests := []struct {
		key      string
		species  uint8
		pos      [3]float32
		rot      [4]float32 // w, x, y, z to 4 decimals as documented
		tailHex  string
		tailSize int
	}{
		{"simulation.json/objcreateteam_akira_spawn", 1, [3]float32{88, -66, -73},
			[4]float32{0.9347, 0.294, 0.1991, 0.0126},
			"FFFF64FFFFFFFFFFFFFF64FFFFFFFFFFFF64FFFFFFFFFFFFFFFFFF646001FFFFFF64FFFFFFFFFFFFFF6400FF64FFFFFF6401FF", 51},
		{"simulation.json/objcreateteam_sovereign_collision_test", 5, [3]float32{38, -49, -35},
			[4]float32{0.7718, -0.6359, 0, 0},
			"FFFF64FFFFFFFFFFFFFF64FFFFFFFFFFFF64FFFFFFFFFFFFFF646000FF64FFFFFFFFFFFFFFFFFF6401FFFFFFFFFF6401FFFFFF64FF", 53},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		m, err := DecodeObjCreate(p)
		if err != nil {
			t.Fatalf("%s: %v", tt.key, err)
		}
		s := m.Ship
		if m.Op != OpObjCreateTeam || m.OwnerSlot != 0 || m.OwnerPlayer != 2 || m.ClassID != ClassShip ||
			m.ObjectID != 0x3FFFFFFF || m.Body != nil {
			t.Errorf("%s: envelope %+v", tt.key, m)
		}
		if s.Species != tt.species || s.Position != tt.pos || s.Velocity != (DirF32{}) ||
			string(s.Name) != "Cady2" || string(s.Set) != "Multi1" {
			t.Errorf("%s: body %+v", tt.key, s)
		}
		for i, want := range tt.rot {
			if !near(s.Rotation[i], want, 0.0001) {
				t.Errorf("%s: rotation[%d] = %v, want %v", tt.key, i, s.Rotation[i], want)
			}
		}
		if !bytes.Equal(s.Tail, mustHex(t, tt.tailHex)) || len(s.Tail) != tt.tailSize {
			t.Errorf("%s: tail %X (%d bytes)", tt.key, s.Tail, len(s.Tail))
		}
		if got := m.AppendTo(nil); !bytes.Equal(got, p) {
			t.Errorf("%s: re-encoded %X", tt.key, got)
		}
		// The owner of the ship id is the owner slot.
		if slot, ok := OwnerSlot(m.ObjectID); !ok || slot != int(m.OwnerSlot) {
			t.Errorf("%s: owner slot %d %v", tt.key, slot, ok)
		}
	}
}

// The 24-byte capture prefix of opcodes.md 3.1: the envelope decodes; the
// full decoder reports the cut body but keeps what it read.
func TestObjCreatePrefix(t *testing.T) {
	p := vec(t, capturePrefixes(t), "session.json/objcreateteam_prefix")
	h, err := DecodeObjCreateHeader(p)
	if err != nil || h.Op != OpObjCreateTeam || h.OwnerSlot != 0 || h.OwnerPlayer != 2 || h.ClassID != ClassShip || h.ObjectID != 0x3FFFFFFF {
		t.Fatalf("header %+v, %v", h, err)
	}
	m, err := DecodeObjCreate(p)
	if !errors.Is(err, ErrShort) {
		t.Fatalf("prefix: err %v", err)
	}
	if m.ObjectID != 0x3FFFFFFF || m.Ship.Species != 1 || m.Ship.Position != [3]float32{88, -66, -73} {
		t.Errorf("partial decode %+v", m)
	}
	for n := range 11 {
		if _, err := DecodeObjCreateHeader(p[:n]); !errors.Is(err, ErrShort) {
			t.Errorf("header cut at %d: %v", n, err)
		}
	}
	if _, err := DecodeObjCreateHeader(mustHex(t, "04 00 08800000 FFFFFF3F")); !errors.Is(err, ErrMalformed) {
		t.Errorf("opcode 4: %v", err)
	}
}

func TestObjCreateOtherClasses(t *testing.T) {
	tests := []struct {
		name string
		msg  ObjCreate
		hex  string
	}{
		{"torpedo 0x02", ObjCreate{Op: OpObjCreate, OwnerSlot: 1, ClassID: ClassTorpedo, ObjectID: 0x40040010, Body: []byte{2, 0xAA}},
			"02 01 09800000 10000440 02AA"},
		{"torpedo 0x03 empty body", ObjCreate{Op: OpObjCreateTeam, OwnerSlot: 1, OwnerPlayer: 3, ClassID: ClassTorpedo, ObjectID: 5, Body: []byte{}},
			"03 01 03 09800000 05000000"},
		{"ship via 0x02", ObjCreate{Op: OpObjCreate, ClassID: ClassShip, ObjectID: 0x1E,
			Ship: ShipBody{Species: 30, Position: [3]float32{1, 2, 3}, Rotation: [4]float32{1, 0, 0, 0}, Name: []byte{}, Set: []byte("Multi1"), Tail: []byte{}}},
			"02 00 08800000 1E000000 1E 0000803F 00000040 00004040 0000803F 00000000 00000000 00000000 00000000 000000 00 064D756C746931"},
	}
	for _, tt := range tests {
		want := mustHex(t, tt.hex)
		got := tt.msg.AppendTo(nil)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got %X want %X", tt.name, got, want)
			continue
		}
		m, err := DecodeObjCreate(got)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if m.Op != tt.msg.Op || m.OwnerSlot != tt.msg.OwnerSlot || m.OwnerPlayer != tt.msg.OwnerPlayer || m.ClassID != tt.msg.ClassID ||
			m.ObjectID != tt.msg.ObjectID || !bytes.Equal(m.Body, tt.msg.Body) || string(m.Ship.Set) != string(tt.msg.Ship.Set) {
			t.Errorf("%s: decoded %+v", tt.name, m)
		}
	}
}

func TestObjectIDBlocks(t *testing.T) {
	tests := []struct {
		id   int32
		slot int
		ok   bool
	}{
		{0x3FFFFFFF, 0, true},
		{0x40000020, 0, true}, // Sovereign's last subsystem
		{0x40000021, 0, true}, // its respawned ship
		{0x400003FF, 0, true}, // still player 0 (simulation.md 14.5)
		{0x4003FFFE, 0, true}, // last id of slot 0
		{0x4003FFFF, 1, true}, // slot 1's ship
		{0x4007FFFF, 2, true}, // slot 2's ship
		{0x7FFFFFFF, MaxIDSlot, true},
		{0x3FFFFFFE, 0, false}, // engine-local
		{0x64F, 0, false},
		{0, 0, false},
		{-1, 0, false}, // global sentinel
	}
	for _, tt := range tests {
		slot, ok := OwnerSlot(tt.id)
		if slot != tt.slot || ok != tt.ok {
			t.Errorf("OwnerSlot(%#x) = %d, %v; want %d, %v", tt.id, slot, ok, tt.slot, tt.ok)
		}
	}
	for slot := range MaxIDSlot + 1 {
		id := FirstObjectID(slot)
		if got, ok := OwnerSlot(id); !ok || got != slot {
			t.Fatalf("slot %d: first id %#x owned by %d", slot, id, got)
		}
		if slot > 0 {
			if got, _ := OwnerSlot(id - 1); got != slot-1 {
				t.Fatalf("slot %d: id before the block owned by %d", slot, got)
			}
		}
	}
	if FirstObjectID(1) != 0x4003FFFF || FirstObjectID(2) != 0x4007FFFF {
		t.Error("FirstObjectID examples of opcodes.md 1")
	}
}
