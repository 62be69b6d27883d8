package codec

import (
	"bytes"
	"errors"
	"testing"
)

// Every event vector through the generic decoder: header fields and tail.
func TestEventVectorsGeneric(t *testing.T) {
	all := gameVectors(t)
	tests := []struct {
		key     string
		op      byte
		factory uint32
		code    uint32
		src     int32
		dst     int32
		tailHex string
	}{
		{"session.json/pythonevent_add_to_repair_list", OpPythonEvent, FactorySubsystem, EventAddToRepairList, 0x2A, 0x1E, ""},
		{"session.json/pythonevent_weapon_fired", OpPythonEvent, FactoryObjPtr, EventWeaponFired, 0x3FFFFFFF, 0, "3E00C03F"},
		{"session.json/pythonevent_object_exploding", OpPythonEvent, FactoryObjectExploding, EventObjectExploding, 0x3FFFFFFF, -1, "020000000000803F"},
		{"simulation.json/object_exploding_collision_kill", OpPythonEvent, FactoryObjectExploding, EventObjectExploding, 0, 0x3FFFFFFF, "0000000066664E41"},
		{"simulation.json/object_exploding_self_destruct", OpPythonEvent, FactoryObjectExploding, EventObjectExploding, 0, 0x3FFFFFFF, "0000000000001841"},
		{"simulation.json/add_to_repair_list_stock_collision_death", OpPythonEvent, FactorySubsystem, EventAddToRepairList, 0x40000002, 0x40000018, ""},
		{"simulation.json/repair_completed_doc_example", OpPythonEvent, FactorySubsystem, EventRepairCompleted, 0x2A, 0x1E, ""},
		{"simulation.json/weapon_fired_objptr_event_b", OpPythonEvent, FactoryObjPtr, EventWeaponFired, 0x3FFFFFFF, 0x3FFFFFFF, "2A000000"},
		{"simulation.json/set_phaser_level_high_p0", OpSetPhaserLevel, FactoryChar, EventSetPhaserLevel, 0x3FFFFFFF, 0, "02"},
		{"simulation.json/set_phaser_level_low", OpSetPhaserLevel, FactoryChar, EventSetPhaserLevel, 0x4003FFFF, 0, "00"},
		{"simulation.json/collision_effect_P1_single_contact", OpCollisionEffect, FactoryCollision, EventObjectCollision, 0, 0x3FFFFFFF, "010D7E00D9BB20A044"},
		{"session.json/player_joined_event_0x17", OpPlayerListEvent, FactoryPlayerList, EventNewPlayerInGame, 0, 0x64F, "02"},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		m, err := DecodeEvent(p)
		if err != nil {
			t.Errorf("%s: %v", tt.key, err)
			continue
		}
		if m.Op != tt.op || m.Factory != tt.factory || m.Code != tt.code || m.Src != tt.src || m.Dst != tt.dst ||
			!bytes.Equal(m.Tail, mustHex(t, tt.tailHex)) {
			t.Errorf("%s: %+v", tt.key, m)
		}
		if got := m.AppendTo(nil); !bytes.Equal(got, p) {
			t.Errorf("%s: re-encoded %X", tt.key, got)
		}
	}
	for _, bad := range []string{"13 02000000", "05", "1C 02000000 00000000 00000000 00000000"} {
		if _, err := DecodeEvent(mustHex(t, bad)); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestTypedEventVectors(t *testing.T) {
	all := gameVectors(t)
	type check struct {
		key  string
		dec  func([]byte) (appender, error)
		want appender
	}
	subsystem := func(p []byte) (appender, error) { return DecodeSubsystemEvent(p) }
	char := func(p []byte) (appender, error) { return DecodeCharEvent(p) }
	objPtr := func(p []byte) (appender, error) { return DecodeObjPtrEvent(p) }
	exploding := func(p []byte) (appender, error) { return DecodeObjectExploding(p) }
	tests := []check{
		{"simulation.json/add_to_repair_list_stock_collision_death", subsystem,
			SubsystemEvent{OpPythonEvent, EventAddToRepairList, 0x40000002, 0x40000018}},
		{"simulation.json/add_to_repair_list_wrong_ids_counterexample", subsystem,
			SubsystemEvent{OpPythonEvent, EventAddToRepairList, 0x10, 0x1E}},
		{"simulation.json/add_to_repair_list_doc_example", subsystem,
			SubsystemEvent{OpPythonEvent, EventAddToRepairList, 0x2A, 0x1E}},
		{"simulation.json/repair_completed_doc_example", subsystem,
			SubsystemEvent{OpPythonEvent, EventRepairCompleted, 0x2A, 0x1E}},
		{"session.json/pythonevent_add_to_repair_list", subsystem,
			SubsystemEvent{OpPythonEvent, EventAddToRepairList, 0x2A, 0x1E}},
		{"simulation.json/set_phaser_level_high_p0", char,
			CharEvent{OpSetPhaserLevel, EventSetPhaserLevel, 0x3FFFFFFF, 0, 2}},
		{"simulation.json/set_phaser_level_low", char,
			CharEvent{OpSetPhaserLevel, EventSetPhaserLevel, 0x4003FFFF, 0, 0}},
		{"simulation.json/weapon_fired_objptr_event", objPtr,
			ObjPtrEvent{OpPythonEvent, EventWeaponFired, 0x3FFFFFFF, 0, 0x3FC0003E}},
		{"simulation.json/weapon_fired_objptr_event_b", objPtr,
			ObjPtrEvent{OpPythonEvent, EventWeaponFired, 0x3FFFFFFF, 0x3FFFFFFF, 0x2A}},
		{"session.json/pythonevent_weapon_fired", objPtr,
			ObjPtrEvent{OpPythonEvent, EventWeaponFired, 0x3FFFFFFF, 0, 0x3FC0003E}},
		{"simulation.json/object_exploding_collision_kill", exploding,
			ObjectExploding{OpPythonEvent, EventObjectExploding, 0, 0x3FFFFFFF, 0, 12.9}},
		{"simulation.json/object_exploding_self_destruct", exploding,
			ObjectExploding{OpPythonEvent, EventObjectExploding, 0, 0x3FFFFFFF, 0, 9.5}},
		{"simulation.json/object_exploding_legacy_doc_layout", exploding,
			ObjectExploding{OpPythonEvent, EventObjectExploding, 0x3FFFFFFF, ObjectRefGlobal, 2, 1.0}},
		{"session.json/pythonevent_object_exploding", exploding,
			ObjectExploding{OpPythonEvent, EventObjectExploding, 0x3FFFFFFF, ObjectRefGlobal, 2, 1.0}},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		got, err := tt.dec(p)
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v", tt.key, got, err)
			continue
		}
		// Built from fields, the message equals the captured bytes.
		if enc := tt.want.AppendTo(nil); !bytes.Equal(enc, p) {
			t.Errorf("%s: built %X", tt.key, enc)
		}
	}
	// Sizes of simulation.md 12: 17, 18, 21; and 25 for the exploding event.
	for _, tt := range []struct {
		m    appender
		size int
	}{{SubsystemEvent{}, 17}, {CharEvent{}, 18}, {ObjPtrEvent{}, 21}, {ObjectExploding{}, 25}, {StartFiring{}, 25}} {
		if n := len(tt.m.AppendTo(nil)); n != tt.size {
			t.Errorf("%T: %d bytes, want %d", tt.m, n, tt.size)
		}
	}
	// A typed decoder refuses another class and extra bytes.
	if _, err := DecodeCharEvent(vec(t, all, "simulation.json/weapon_fired_objptr_event")); !errors.Is(err, ErrMalformed) {
		t.Errorf("char decoder on objptr event: %v", err)
	}
	if _, err := DecodeSubsystemEvent(append(bytes.Clone(vec(t, all, "simulation.json/repair_completed_doc_example")), 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("trailing byte: %v", err)
	}
}

func TestStartFiringAndWarp(t *testing.T) {
	// opcodes.md 3.2: source 0 (the stock builder leaves it unset), the
	// weapon system as destination, then the target and the aim offset.
	sf := StartFiring{Op: OpStartFiring, Code: EventStartFiringNet, Dst: 0x40000005, Target: 0x4003FFFF,
		Offset: ScaledPoint{Dir: Dir3{0, 127, 0}, Dist: 128}}
	want := mustHex(t, "07 28810000 D8008000 00000000 05000040 FFFF0340 007F00 80")
	if got := sf.AppendTo(nil); !bytes.Equal(got, want) {
		t.Fatalf("start firing %X", got)
	}
	if got, err := DecodeStartFiring(want); err != nil || got != sf {
		t.Errorf("start firing decode %+v %v", got, err)
	}
	// Whatever the 8 tail bytes hold (the offset's form is inferred), a
	// decoded message re-encodes byte for byte.
	odd := mustHex(t, "07 28810000 D7008000 05000040 00000000 0102030405060708")
	if got, err := DecodeStartFiring(odd); err != nil || !bytes.Equal(got.AppendTo(nil), odd) || got.Target != 0x04030201 {
		t.Errorf("start firing round trip %+v %v", got, err)
	}
	if _, err := DecodeStartFiring(odd[:24]); !errors.Is(err, ErrShort) {
		t.Errorf("cut start firing: %v", err)
	}
	sw := StartWarp{Op: OpStartWarp, Code: EventStartWarp, Src: 0x3FFFFFFF, Set: []byte("Multi2"), Params: [4]float32{1, -2, 0.5, 0}}
	want = mustHex(t, "10 2A810000 ED008000 FFFFFF3F 00000000 06 4D756C746932 0000803F 000000C0 0000003F 00000000")
	if got := sw.AppendTo(nil); !bytes.Equal(got, want) {
		t.Fatalf("start warp %X", got)
	}
	got, err := DecodeStartWarp(want)
	if err != nil || string(got.Set) != "Multi2" || got.Params != sw.Params || got.Src != sw.Src || got.Code != sw.Code {
		t.Errorf("start warp decode %+v %v", got, err)
	}
	if _, err := DecodeStartWarp(want[:len(want)-1]); !errors.Is(err, ErrShort) {
		t.Errorf("cut warp: %v", err)
	}
}

func TestCollisionEffectVectors(t *testing.T) {
	all := gameVectors(t)
	tests := []struct {
		key    string
		target int32
		dir    Dir3
		dist   uint8
		force  float32
	}{
		{"simulation.json/collision_effect_P1_single_contact", 0x3FFFFFFF, Dir3{13, 126, 0}, 217, 1281.0228},
		{"simulation.json/collision_effect_P6_3player", 0x4003FFFF, Dir3{39, 119, 17}, 184, 661.119},
		{"simulation.json/collision_effect_collision_test", 0x3FFFFFFF, Dir3{-7, 126, 2}, 216, 1174.0748},
		{"simulation.json/collision_effect_stock_client_a", 0x3FFFFFFF, Dir3{-5, 126, 0}, 216, 1142.6969},
		{"simulation.json/collision_effect_stock_client_b", 0x3FFFFFFF, Dir3{20, 125, -2}, 218, 485.5354},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		m, err := DecodeCollisionEffect(p)
		if err != nil {
			t.Errorf("%s: %v", tt.key, err)
			continue
		}
		c := m.Contact(0)
		if m.Code != EventObjectCollision || m.Src != 0 || m.Target != tt.target || m.NumContacts() != 1 ||
			c.Dir != tt.dir || c.Dist != tt.dist || !near(m.Force, tt.force, 0.001) || len(p) != 26 {
			t.Errorf("%s: %+v contact %+v", tt.key, m, c)
		}
		built := CollisionEffect{Code: EventObjectCollision, Target: tt.target, Contacts: AppendContact(nil, c), Force: m.Force}
		if got := built.AppendTo(nil); !bytes.Equal(got, p) {
			t.Errorf("%s: built %X", tt.key, got)
		}
	}
	// Two contacts: 22 + 4n bytes.
	two := CollisionEffect{Code: EventObjectCollision, Src: 0x4003FFFF, Target: 0x3FFFFFFF, Force: 10}
	two.Contacts = AppendContact(AppendContact(nil, CollisionContact{Dir3{1, 2, 3}, 4}), CollisionContact{Dir3{-1, -2, -3}, 255})
	p := two.AppendTo(nil)
	if len(p) != 30 || p[17] != 2 {
		t.Fatalf("two contacts %X", p)
	}
	if got, err := DecodeCollisionEffect(p); err != nil || got.NumContacts() != 2 || got.Contact(1).Dir != (Dir3{-1, -2, -3}) {
		t.Errorf("two contacts decode %+v %v", got, err)
	}
	// A count larger than the bytes left is refused before slicing.
	hostile := bytes.Clone(p)
	hostile[17] = 255
	if _, err := DecodeCollisionEffect(hostile); !errors.Is(err, ErrShort) {
		t.Errorf("hostile count: %v", err)
	}
	// A partial contact is dropped by the encoder.
	odd := CollisionEffect{Code: EventObjectCollision, Contacts: []byte{1, 2, 3}}
	if got := odd.AppendTo(nil); len(got) != 22 || got[17] != 0 {
		t.Errorf("partial contact %X", got)
	}
}

// FuzzEventAs: reading the tail of a decoded Event as a class (the
// engine's decode-once routing) accepts and yields exactly what decoding
// the whole message as that class does.
func FuzzEventAs(f *testing.F) {
	for _, p := range sampleMessages() {
		f.Add(p)
	}
	for _, p := range gameVectors(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := DecodeEvent(data)
		if err != nil {
			return
		}
		sf, err1 := ev.AsStartFiring()
		want, err2 := DecodeStartFiring(data)
		if (err1 == nil) != (err2 == nil) || err1 == nil && sf != want {
			t.Fatalf("start firing: %+v %v, whole: %+v %v", sf, err1, want, err2)
		}
		op, err1 := ev.AsObjPtr()
		wantOp, err2 := DecodeObjPtrEvent(data)
		if (err1 == nil) != (err2 == nil) || err1 == nil && op != wantOp {
			t.Fatalf("object pointer: %+v %v, whole: %+v %v", op, err1, wantOp, err2)
		}
	})
}
