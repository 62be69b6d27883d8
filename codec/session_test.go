package codec

import (
	"bytes"
	"errors"
	"testing"
)

func TestSettingsVectors(t *testing.T) {
	all := gameVectors(t)
	const mission1 = "Multiplayer.Episode.Mission1.Mission1"
	tests := []struct {
		key  string
		want Settings
	}{
		{"session.json/settings", Settings{GameTime: 33.25, CollisionDamage: true, Map: []byte(mission1)}},
		{"session.json/settings_first_player_battle", Settings{GameTime: 23.890625, CollisionDamage: true, Map: []byte(mission1)}},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		got, err := DecodeSettings(p)
		if err != nil {
			t.Fatalf("%s: %v", tt.key, err)
		}
		if got.GameTime != tt.want.GameTime || got.CollisionDamage != tt.want.CollisionDamage ||
			got.HostModem || got.Slot != 0 || string(got.Map) != mission1 || got.NameChanged || got.NewName != "" {
			t.Errorf("%s: decoded %+v", tt.key, got)
		}
		// Built from fields: one packed byte 0x61 for all three bits.
		if enc := tt.want.AppendTo(nil); !bytes.Equal(enc, p) || len(enc) != 46 || enc[5] != 0x61 {
			t.Errorf("%s: built %X\nwant %X", tt.key, enc, p)
		}
	}
	// The second stock example of handshake.md 2.5: time 38.81, slot 1.
	s := Settings{GameTime: 38.8125, CollisionDamage: true, Slot: 1, Map: []byte(mission1)}
	if got := s.AppendTo(nil); !bytes.HasPrefix(got, mustHex(t, "0000401B426101 2500")) {
		t.Errorf("slot 1 settings %X", got)
	}
}

// Settings bit 2 (handshake.md 2.5): a renamed joiner gets the bit and its
// new name as a TGString (u16 unit count, UTF-16LE).
func TestSettingsRename(t *testing.T) {
	s := Settings{GameTime: 1, HostModem: true, Slot: 3, Map: []byte("M"), NameChanged: true, NewName: "Kirk1"}
	p := s.AppendTo(nil)
	// Bits 0,1,1 in one byte (count 3): 0x66.
	want := mustHex(t, "00 0000803F 66 03 0100 4D 0500 4B00 6900 7200 6B00 3100")
	if !bytes.Equal(p, want) {
		t.Fatalf("got %X want %X", p, want)
	}
	got, err := DecodeSettings(p)
	if err != nil || got.NewName != "Kirk1" || !got.HostModem || got.CollisionDamage || !got.NameChanged {
		t.Fatalf("decoded %+v, %v", got, err)
	}
	// A count beyond the bytes left is refused before allocating.
	if _, err := DecodeSettings(mustHex(t, "00 0000803F 64 03 0100 4D FFFF 4B00")); !errors.Is(err, ErrShort) {
		t.Errorf("long TGString count: %v", err)
	}
	// Without the flag, extra bytes are an error.
	if _, err := DecodeSettings(append(vecSettings(t), 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("trailing byte: %v", err)
	}
}

func vecSettings(t *testing.T) []byte {
	return bytes.Clone(vec(t, gameVectors(t), "session.json/settings"))
}

func TestSessionBareMessages(t *testing.T) {
	all := gameVectors(t)
	if _, err := DecodeGameInit(vec(t, all, "session.json/game_init")); err != nil {
		t.Error(err)
	}
	if _, err := DecodeTransferDone(vec(t, all, "session.json/transfer_done_0x28")); err != nil {
		t.Error(err)
	}
	m, err := DecodeNewPlayerInGame(vec(t, all, "session.json/new_player_in_game"))
	if err != nil || m.Modem {
		t.Errorf("new player in game %+v, %v", m, err)
	}
	// 2A 21: a client on a dial-up modem (handshake.md 2.6).
	if got := (NewPlayerInGame{Modem: true}).AppendTo(nil); !bytes.Equal(got, []byte{0x2A, 0x21}) {
		t.Errorf("modem = %X", got)
	}
	for _, bad := range []string{"0100", "2800", "2A", "2A2000", "2A00", "01 20"} {
		p := mustHex(t, bad)
		var err error
		switch p[0] {
		case OpGameInit:
			_, err = DecodeGameInit(p)
		case OpTransferDone:
			_, err = DecodeTransferDone(p)
		default:
			_, err = DecodeNewPlayerInGame(p)
		}
		if err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestPlayerListEventVectors(t *testing.T) {
	all := gameVectors(t)
	tests := []struct {
		key  string
		want PlayerListEvent
	}{
		{"session.json/player_joined_event_0x17", PlayerListEvent{EventNewPlayerInGame, 0, 0x64F, 2}},
		{"session.json/player_joined_event_0x17_b", PlayerListEvent{EventNewPlayerInGame, 0, 0x791, 2}},
		{"simulation.json/delete_player_ui_join_a", PlayerListEvent{EventNewPlayerInGame, 0, 0x64F, 2}},
		{"simulation.json/delete_player_ui_join_b", PlayerListEvent{EventNewPlayerInGame, 0, 0x6A8, 2}},
	}
	for _, tt := range tests {
		p := vec(t, all, tt.key)
		got, err := DecodePlayerListEvent(p)
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v", tt.key, got, err)
		}
		if enc := tt.want.AppendTo(nil); !bytes.Equal(enc, p) || len(enc) != 18 {
			t.Errorf("%s: built %X", tt.key, enc)
		}
	}
	// The leave form of handshake.md 5.
	leave := PlayerListEvent{Code: EventPlayerLeft, Target: 0x64F, PeerID: 3}
	if got := leave.AppendTo(nil); !bytes.Equal(got, mustHex(t, "17 66080000 05000600 00000000 4F060000 03")) {
		t.Errorf("leave %X", got)
	}
	if _, err := DecodePlayerListEvent(mustHex(t, "17 67080000 05000600 00000000 4F060000 03")); !errors.Is(err, ErrMalformed) {
		t.Errorf("wrong factory: %v", err)
	}
}

func TestSessionSmallMessages(t *testing.T) {
	tests := []struct {
		name string
		msg  appender
		hex  string
		dec  func([]byte) (appender, error)
	}{
		{"DeletePlayerAnim", DeletePlayerAnim{Name: []byte("Cady2")}, "18 0500 4361647932",
			func(p []byte) (appender, error) { return DecodeDeletePlayerAnim(p) }},
		{"DestroyObject", DestroyObject{0x3FFFFFFF}, "14 FFFFFF3F",
			func(p []byte) (appender, error) { return DecodeDestroyObject(p) }},
		{"ObjNotFound", ObjectPrompt{0x4003FFFF}, "1D FFFF0340",
			func(p []byte) (appender, error) { return DecodeObjectPrompt(p) }},
		{"RequestObject", RequestObject{0x2A}, "1E 2A000000",
			func(p []byte) (appender, error) { return DecodeRequestObject(p) }},
		{"UICollisionSetting off", UICollisionSetting{false}, "16 20",
			func(p []byte) (appender, error) { return DecodeUICollisionSetting(p) }},
		{"UICollisionSetting on", UICollisionSetting{true}, "16 21",
			func(p []byte) (appender, error) { return DecodeUICollisionSetting(p) }},
		{"EnterSet", EnterSet{ObjectID: 0x3FFFFFFF, Data: []byte{1, 0, 0, 0, 0xAA}}, "1F FFFFFF3F 01000000AA",
			func(p []byte) (appender, error) { return DecodeEnterSet(p) }},
		{"HostMsg", HostMsg{}, "13",
			func(p []byte) (appender, error) { return DecodeHostMsg(p) }},
		{"HostMsg extra", HostMsg{Extra: []byte{0xFF}}, "13 FF",
			func(p []byte) (appender, error) { return DecodeHostMsg(p) }},
	}
	for _, tt := range tests {
		want := mustHex(t, tt.hex)
		if got := tt.msg.AppendTo(nil); !bytes.Equal(got, want) {
			t.Errorf("%s: got %X want %X", tt.name, got, want)
		}
		m, err := tt.dec(want)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := m.AppendTo(nil); !bytes.Equal(got, want) {
			t.Errorf("%s: round trip %X", tt.name, got)
		}
	}
	// The self-destruct vector: one byte.
	m, err := DecodeHostMsg(vec(t, gameVectors(t), "simulation.json/self_destruct_request"))
	if err != nil || len(m.Extra) != 0 {
		t.Errorf("self destruct %+v %v", m, err)
	}
	// A zero-length name still decodes (it is the sender's job not to send it).
	if m, err := DecodeDeletePlayerAnim([]byte{0x18, 0, 0}); err != nil || len(m.Name) != 0 {
		t.Errorf("empty name: %v", err)
	}
	if _, err := DecodeDeletePlayerAnim([]byte{0x18, 5, 0, 'a'}); !errors.Is(err, ErrShort) {
		t.Errorf("long name prefix: %v", err)
	}
}
