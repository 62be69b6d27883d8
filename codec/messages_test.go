package codec

import (
	"bytes"
	"errors"
	"sort"
	"testing"

	"github.com/bcserver/bcserver/internal/vectors"
)

// gameVector is one entry of session.json, simulation.json or missions.json.
type gameVector struct {
	Name       string `json:"name"`
	Layer      string `json:"layer"`
	PayloadHex string `json:"payload_hex"`
	Decoded    struct {
		Truncated bool `json:"truncated"` // a capture prefix, not a whole message
		// TailLen marks a subsystem tail, the end of an ObjCreate ship
		// body and not a message (tested in engine/ships).
		TailLen int `json:"tail_len"`
	} `json:"decoded"`
}

// gameVectors returns the whole game payloads of the three vector files
// that belong to this file's messages (datagrams, transport messages,
// GameSpy text and the checksum opcodes are tested elsewhere; truncated
// capture prefixes are left out, see capturePrefix), keyed by "file/name".
func gameVectors(t testing.TB) map[string][]byte { return loadGameVectors(t, false) }

// capturePrefixes returns the vectors marked truncated: the first bytes of
// a longer captured message.
func capturePrefixes(t testing.TB) map[string][]byte { return loadGameVectors(t, true) }

func loadGameVectors(t testing.TB, truncated bool) map[string][]byte {
	out := map[string][]byte{}
	for _, file := range []string{"session.json", "simulation.json", "missions.json"} {
		var vs []gameVector
		vectors.MustLoad(t, file, &vs)
		for _, v := range vs {
			if v.Layer != "" && v.Layer != "game payload" || v.Decoded.Truncated != truncated || v.Decoded.TailLen > 0 {
				continue
			}
			p := vectors.MustHex(t, v.PayloadHex)
			if len(p) == 0 || p[0] >= OpChecksumRequest && p[0] <= OpChecksumFailVer {
				continue
			}
			out[file+"/"+v.Name] = p
		}
	}
	return out
}

// vec returns one vector by "file/name" and fails the test if it is gone.
func vec(t testing.TB, all map[string][]byte, key string) []byte {
	t.Helper()
	p, ok := all[key]
	if !ok {
		t.Fatalf("vector %s not found", key)
	}
	return p
}

type appender interface{ AppendTo(b []byte) []byte }

// msgCodec is one decoder of the table below, made uniform for table tests
// and fuzzing.
type msgCodec struct {
	name, family string
	ops          []byte
	// open: the layout ends in an open tail, so a cut message may still
	// decode (to a message that re-encodes to exactly the cut bytes).
	open bool
	// maxAllocs is what a successful decode may allocate.
	maxAllocs float64
	decode    func(p []byte) error
	// load decodes p and returns the decoded value's AppendTo.
	load func(p []byte) (func([]byte) []byte, error)
}

func entry[T appender](name, family string, ops []byte, open bool, dec func([]byte) (T, error)) msgCodec {
	return msgCodec{
		name: name, family: family, ops: ops, open: open,
		decode: func(p []byte) error { _, err := dec(p); return err },
		load: func(p []byte) (func([]byte) []byte, error) {
			m, err := dec(p)
			if err != nil {
				return nil, err
			}
			return m.AppendTo, nil
		},
	}
}

func eventOps() []byte {
	var ops []byte
	for op := 0; op < 256; op++ {
		if IsEventOpcode(byte(op)) && op != OpCollisionEffect && op != OpPlayerListEvent {
			ops = append(ops, byte(op))
		}
	}
	return ops
}

func gameCodecs() []msgCodec {
	stateUpdate := entry("StateUpdate", "stateupdate", []byte{OpStateUpdate}, true,
		func(p []byte) (StateUpdate, error) { return DecodeStateUpdate(p, SubsystemsToEnd) })
	stateUpdate.maxAllocs = 1 // the Reader handed to the block reader
	return []msgCodec{
		entry("Settings", "session", []byte{OpSettings}, false, DecodeSettings),
		entry("GameInit", "session", []byte{OpGameInit}, false, DecodeGameInit),
		entry("TransferDone", "session", []byte{OpTransferDone}, false, DecodeTransferDone),
		entry("NewPlayerInGame", "session", []byte{OpNewPlayerInGame}, false, DecodeNewPlayerInGame),
		entry("PlayerListEvent", "session", []byte{OpPlayerListEvent}, false, DecodePlayerListEvent),
		entry("DeletePlayerAnim", "session", []byte{OpDeletePlayerAnim}, false, DecodeDeletePlayerAnim),
		entry("DestroyObject", "session", []byte{OpDestroyObject}, false, DecodeDestroyObject),
		entry("ObjNotFound", "session", []byte{OpObjectPrompt}, false, DecodeObjectPrompt),
		entry("RequestObject", "session", []byte{OpRequestObject}, false, DecodeRequestObject),
		entry("UICollisionSetting", "session", []byte{OpUICollisionSetting}, false, DecodeUICollisionSetting),
		entry("EnterSet", "session", []byte{OpEnterSet}, true, DecodeEnterSet),
		entry("HostMsg", "session", []byte{OpHostMsg}, true, DecodeHostMsg),

		entry("ObjCreate", "object", []byte{OpObjCreate, OpObjCreateTeam}, true, DecodeObjCreate),

		entry("Event", "event", append(eventOps(), OpCollisionEffect, OpPlayerListEvent), true, DecodeEvent),
		entry("SubsystemEvent", "event", eventOps(), false, DecodeSubsystemEvent),
		entry("CharEvent", "event", eventOps(), false, DecodeCharEvent),
		entry("ObjPtrEvent", "event", eventOps(), false, DecodeObjPtrEvent),
		entry("ObjectExploding", "event", eventOps(), false, DecodeObjectExploding),
		entry("StartFiring", "event", eventOps(), false, DecodeStartFiring),
		entry("StartWarp", "event", eventOps(), false, DecodeStartWarp),
		entry("CollisionEffect", "event", []byte{OpCollisionEffect}, false, DecodeCollisionEffect),

		entry("TorpedoFire", "weapons", []byte{OpTorpedoFire}, false, DecodeTorpedoFire),
		entry("PulseFire", "weapons", []byte{OpPulseFire}, false, DecodePulseFire),
		entry("Explosion", "weapons", []byte{OpExplosion}, false, DecodeExplosion),

		stateUpdate,

		entry("Chat", "script", []byte{OpChat, OpTeamChat}, false, DecodeChat),
		entry("MissionInit", "script", []byte{OpMissionInit}, false, DecodeMissionInit),
		entry("ScoreChange", "script", []byte{OpScoreChange}, false, DecodeScoreChange),
		entry("Score", "script", []byte{OpScore}, false, DecodeScore),
		entry("EndGame", "script", []byte{OpEndGame}, false, DecodeEndGame),
		entry("RestartGame", "script", []byte{OpRestartGame}, false, DecodeRestartGame),
		entry("ScoreInit", "script", []byte{OpScoreInit}, false, DecodeScoreInit),
		entry("TeamScore", "script", []byte{OpTeamScore}, false, DecodeTeamScore),
		entry("Team", "script", []byte{OpTeam}, false, DecodeTeam),
	}
}

// codecsFor returns the codecs that handle op (all families when family
// is empty).
func codecsFor(all []msgCodec, op byte, family string) []msgCodec {
	var out []msgCodec
	for _, c := range all {
		if family != "" && c.family != family {
			continue
		}
		if bytes.IndexByte(c.ops, op) >= 0 {
			out = append(out, c)
		}
	}
	return out
}

// knownErr reports whether err wraps one of the package's decode sentinels.
func knownErr(err error) bool {
	return errors.Is(err, ErrShort) || errors.Is(err, ErrMalformed) ||
		errors.Is(err, ErrBadBits) || errors.Is(err, ErrNeedSubsystems)
}

// Every game vector is decoded by at least one codec, and every codec that
// accepts it re-encodes it byte for byte.
func TestGameVectorsRoundTrip(t *testing.T) {
	all := gameVectors(t)
	codecs := gameCodecs()
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		p := all[name]
		accepted := 0
		for _, c := range codecsFor(codecs, p[0], "") {
			enc, err := c.load(p)
			if err != nil {
				if !knownErr(err) {
					t.Errorf("%s via %s: unwrapped error %v", name, c.name, err)
				}
				continue
			}
			accepted++
			if got := enc(nil); !bytes.Equal(got, p) {
				t.Errorf("%s via %s:\n got %X\nwant %X", name, c.name, got, p)
			}
			// With spare capacity the encoder appends in place.
			buf := make([]byte, 3, 3+len(p)+8)
			if got := enc(buf); !bytes.Equal(got[3:], p) || &got[0] != &buf[0] {
				t.Errorf("%s via %s: append into capacity failed", name, c.name)
			}
		}
		if accepted == 0 {
			t.Errorf("%s (opcode 0x%02X %s): no decoder accepts it", name, p[0], OpcodeName(p[0]))
		}
	}
}

// Cutting a vector anywhere fails cleanly, except inside an open tail,
// where the result must re-encode to exactly the cut bytes.
func TestGameVectorsTruncated(t *testing.T) {
	codecs := gameCodecs()
	for name, p := range gameVectors(t) {
		for _, c := range codecsFor(codecs, p[0], "") {
			if c.decode(p) != nil {
				continue
			}
			for n := 0; n < len(p); n++ {
				cut := p[:n:n]
				enc, err := c.load(cut)
				if err != nil {
					if !knownErr(err) {
						t.Errorf("%s via %s cut at %d: unwrapped error %v", name, c.name, n, err)
					}
					continue
				}
				if !c.open {
					t.Errorf("%s via %s cut at %d: accepted", name, c.name, n)
				} else if got := enc(nil); !bytes.Equal(got, cut) {
					t.Errorf("%s via %s cut at %d: re-encodes to %X", name, c.name, n, got)
				}
			}
		}
	}
}

// Decoding the vectors allocates nothing (names and tails are sub-slices),
// and encoding into a buffer with capacity allocates nothing.
func TestGameVectorsAllocs(t *testing.T) {
	codecs := gameCodecs()
	buf := make([]byte, 0, 512)
	for name, p := range gameVectors(t) {
		for _, c := range codecsFor(codecs, p[0], "") {
			enc, err := c.load(p)
			if err != nil {
				continue
			}
			if a := testing.AllocsPerRun(20, func() { _ = c.decode(p) }); a > c.maxAllocs {
				t.Errorf("%s via %s: decode allocates %v", name, c.name, a)
			}
			if a := testing.AllocsPerRun(20, func() { buf = enc(buf[:0]) }); a != 0 {
				t.Errorf("%s via %s: encode allocates %v", name, c.name, a)
			}
		}
	}
}

// Errors name the message and the field.
func TestDecodeErrorsNameField(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{func() error { _, err := DecodeChat(mustHex(t, "2C020000000500686568")); return err }(), "chat: text:"},
		{func() error { _, err := DecodeScore(mustHex(t, "3702000000")); return err }(), "score: kills:"},
		{func() error { _, err := DecodeEndGame(mustHex(t, "39")); return err }(), "end game: opcode:"},
		{func() error { _, err := DecodeTeam(mustHex(t, "41030000000100")); return err }(), "team: end:"},
		{func() error {
			_, err := DecodeStateUpdate(mustHex(t, "1CFFFFFF3F00A01B422008FF"), nil)
			return err
		}(), "state update: subsystems:"},
	}
	for _, tt := range tests {
		if tt.err == nil || !bytes.HasPrefix([]byte(tt.err.Error()), []byte(tt.want)) {
			t.Errorf("error %v, want prefix %q", tt.err, tt.want)
		}
	}
}

func TestOpcodeNames(t *testing.T) {
	tests := []struct {
		op   byte
		want string
	}{
		{OpSettings, "Settings"}, {0x04, "Unused"}, {OpStateUpdate, "StateUpdate"},
		{OpChecksumResponse, "ChecksumResponse"}, {0x24, "Unused"}, {OpNewPlayerInGame, "NewPlayerInGame"},
		{MaxMessageTypes, "ScriptMessage"}, {OpChat, "Chat"}, {OpTeam, "Team"}, {0xCD, "ScriptMessage"},
	}
	for _, tt := range tests {
		if got := OpcodeName(tt.op); got != tt.want {
			t.Errorf("OpcodeName(0x%02X) = %q, want %q", tt.op, got, tt.want)
		}
	}
	// Every engine opcode that has a codec has a real name.
	for _, c := range gameCodecs() {
		for _, op := range c.ops {
			if n := OpcodeName(op); n == "Unused" || n == "ScriptMessage" {
				t.Errorf("0x%02X (%s) named %q", op, c.name, n)
			}
		}
	}
	if IsScriptOpcode(0x2A) || !IsScriptOpcode(0x2B) || !IsScriptOpcode(0xFF) {
		t.Error("IsScriptOpcode boundary")
	}
}
