package codec

import (
	"bytes"
	"testing"
)

// sampleMessages is encoder output for every message type, including the
// layouts no vector covers (targeted torpedoes, beams, explosions, ship
// creation from fields, settings with correction data): fuzz seeds.
func sampleMessages() [][]byte {
	ship := ObjCreate{Op: OpObjCreateTeam, OwnerPlayer: 3, ClassID: ClassShip, ObjectID: 0x4003FFFF,
		Ship: ShipBody{Species: 3, Position: [3]float32{1, 2, 3}, Rotation: [4]float32{1, 0, 0, 0},
			Name: []byte("Kirk"), Velocity: NewDirF32(0, 3, 4), Set: []byte("Multi3"), Tail: []byte{0xFF, 0x64, 0x60}}}
	msgs := []appender{
		Settings{GameTime: 5, HostModem: true, Slot: 2, Map: []byte("Multiplayer.Episode.Mission2.Mission2")},
		Settings{NameChanged: true, Map: []byte("M"), NewName: "Kirk (1)"},
		GameInit{}, TransferDone{}, NewPlayerInGame{Modem: true},
		PlayerListEvent{Code: EventPlayerLeft, Target: 0x64F, PeerID: 3},
		DeletePlayerAnim{Name: []byte("Cady2")},
		DestroyObject{0x3FFFFFFF}, ObjectPrompt{1}, RequestObject{2}, UICollisionSetting{true},
		EnterSet{ObjectID: 3, Data: []byte{1, 2, 3}}, HostMsg{},
		ship,
		ObjCreate{Op: OpObjCreate, ClassID: ClassTorpedo, ObjectID: 0x40000050, Body: []byte{2, 0, 0}},
		Event{Op: OpClientEvent, Factory: FactoryBase, Code: 1, Src: 2, Dst: 3},
		SubsystemEvent{OpPythonEvent, EventRepairCompleted, 0x40000002, 0x40000018},
		CharEvent{OpTorpedoTypeChange, EventTorpedoTypeChange, 0x3FFFFFFF, 0, 3},
		ObjPtrEvent{OpRepairListPriority, EventRepairListPriority, 0x3FFFFFFF, 0, 0x40000003},
		ObjectExploding{OpPythonEvent, EventObjectExploding, 0x4003FFFF, 0x3FFFFFFF, 3, 9.5},
		StartFiring{Op: OpStartFiring, Code: EventStartFiring, Src: 0x40000009},
		StartWarp{Op: OpStartWarp, Code: EventStartWarp, Set: []byte("Multi4"), Params: [4]float32{1, 2, 3, 4}},
		CollisionEffect{Code: EventObjectCollision, Target: 0x3FFFFFFF, Contacts: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Force: 100},
		TorpedoFire{TubeID: 0x40000010, FiringPlayer: 2, Flags: 0x03, Dir: Dir3{1, 2, 3}, Target: 5, Point: ScaledPoint{Dir3{0, 127, 0}, 200}},
		TorpedoFire{TubeID: 0x40000010, FiringPlayer: 2, Flags: 0x05},
		PulseFire{CannonID: 0x40000008, FiringPlayer: 2, Flags: 3, Target: 0x4003FFFF},
		PulseFire{CannonID: 0x40000008, FiringPlayer: 2},
		NewExplosion(0x3FFFFFFF, 3, 4, 0, 5000, 50),
		StateUpdate{ObjectID: 1, Flags: 0xFF, HasHash: true, Cloak: true, Subsystems: []byte{0, 0xFF}, Weapons: []byte{1, 2}},
		StateUpdate{ObjectID: 1, Flags: 0xDD, HasHash: true, Cloak: true, Weapons: []byte{1, 0xCC}},
		StateUpdate{ObjectID: 1, Flags: 0x3E, Subsystems: []byte{3, 0xFF, 0x21, 0x64}},
		Chat{Sender: 2, Text: []byte("hi")}, Chat{Team: true, Sender: 3},
		MissionInit{8, 2, 15, 900, 3}, MissionInit{8, 2, NoLimit, 0, NoLimit},
		ScoreChange{Killer: 3, KillerKills: 1, KillerScore: 10, Victim: 2, VictimDeaths: 1, Extras: AppendScoreEntry(nil, 4, 5)},
		Score{2, 1, 1, 1}, EndGame{EndTimeUp}, RestartGame{}, ScoreInit{2, 1, 1, 1, 1}, TeamScore{1, 2, -3}, Team{2, 1},
	}
	out := make([][]byte, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, m.AppendTo(nil))
	}
	return out
}

// seedFamily adds the vectors and samples whose opcode a codec of family
// handles ("" = all).
func seedFamily(f *testing.F, family string) {
	codecs := gameCodecs()
	add := func(p []byte) {
		if len(codecsFor(codecs, p[0], family)) > 0 {
			f.Add(p)
		}
	}
	for _, p := range gameVectors(f) {
		add(p)
	}
	for _, p := range capturePrefixes(f) {
		add(p)
	}
	for _, p := range sampleMessages() {
		add(p)
	}
}

// checkDecode runs every codec of family for data's opcode: no panic, only
// wrapped errors, and an accepted message re-encodes to bytes that decode
// again and re-encode identically (the canonical form is a fixed point).
// A closed layout that accepted data also reproduces it exactly unless its
// packed-bit bytes were non-canonical.
func checkDecode(t *testing.T, codecs []msgCodec, family string, data []byte) {
	if len(data) == 0 {
		for _, c := range codecs {
			if c.decode(data) == nil {
				t.Fatalf("%s accepted an empty payload", c.name)
			}
		}
		return
	}
	for _, c := range codecsFor(codecs, data[0], family) {
		enc, err := c.load(data)
		if err != nil {
			if !knownErr(err) {
				t.Fatalf("%s: unwrapped error %v", c.name, err)
			}
			continue
		}
		b1 := enc(nil)
		enc2, err := c.load(b1)
		if err != nil {
			t.Fatalf("%s: re-encoded %X does not decode: %v (input %X)", c.name, b1, err, data)
		}
		if b2 := enc2(nil); !bytes.Equal(b1, b2) {
			t.Fatalf("%s: not a fixed point\n in %X\n b1 %X\n b2 %X", c.name, data, b1, b2)
		}
		if len(b1) > len(data) {
			t.Fatalf("%s: re-encoding grew %X -> %X", c.name, data, b1)
		}
	}
}

func fuzzFamily(f *testing.F, family string) {
	seedFamily(f, family)
	codecs := gameCodecs()
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, codecs, family, data) })
}

// FuzzDecodeGame dispatches on byte 0 to every decoder of this package's
// game and script messages.
func FuzzDecodeGame(f *testing.F) { fuzzFamily(f, "") }

// FuzzSessionRoundTrip covers session.go.
func FuzzSessionRoundTrip(f *testing.F) { fuzzFamily(f, "session") }

// FuzzObjectRoundTrip covers object.go.
func FuzzObjectRoundTrip(f *testing.F) { fuzzFamily(f, "object") }

// FuzzEventRoundTrip covers event.go.
func FuzzEventRoundTrip(f *testing.F) { fuzzFamily(f, "event") }

// FuzzWeaponsRoundTrip covers weapons.go.
func FuzzWeaponsRoundTrip(f *testing.F) { fuzzFamily(f, "weapons") }

// FuzzStateUpdateRoundTrip covers stateupdate.go.
func FuzzStateUpdateRoundTrip(f *testing.F) { fuzzFamily(f, "stateupdate") }

// FuzzScriptRoundTrip covers script.go.
func FuzzScriptRoundTrip(f *testing.F) { fuzzFamily(f, "script") }

// The samples round-trip exactly and decode under exactly the codecs meant
// for them.
func TestSampleMessagesRoundTrip(t *testing.T) {
	codecs := gameCodecs()
	for _, p := range sampleMessages() {
		accepted := 0
		for _, c := range codecsFor(codecs, p[0], "") {
			enc, err := c.load(p)
			if err != nil {
				continue
			}
			accepted++
			if got := enc(nil); !bytes.Equal(got, p) {
				t.Errorf("%s: %X re-encodes to %X", c.name, p, got)
			}
		}
		if accepted == 0 {
			t.Errorf("sample %X (%s) decoded by nothing", p, OpcodeName(p[0]))
		}
	}
}
