package codec

// Session messages: the join sequence, player-list changes and simple
// object-id messages (handshake.md 2.5-2.6 and 5, opcodes.md 2 and 3.8).

// Settings is opcode 0x00, sent once per joiner after the checksum rounds
// (handshake.md 2.5).
type Settings struct {
	GameTime        float32 // server clock in seconds; the client adopts it
	CollisionDamage bool    // bit 0: the host's collision-damage flag
	// HostModem is bit 1: the host is on a dial-up modem, which makes
	// clients pick slower StateUpdate rates; not friendly fire. A server on
	// a normal network sends false.
	HostModem bool
	Slot      uint8  // receiver's 0-based player slot
	Map       []byte // mission module, e.g. "Multiplayer.Episode.Mission1.Mission1"
	// NameChanged is bit 2. It shares the packed byte of the first two bits
	// even though the slot and map are written in between (codec.md 2.1),
	// so the stock payload has one bit byte 0x61. When set, NewName follows
	// as a TGString and the client adopts it (its name clashed with another
	// player's).
	NameChanged bool
	NewName     string
}

// AppendTo appends the encoded message to b. NewName is written only when
// NameChanged is set.
func (m Settings) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpSettings)
	w.F32(m.GameTime)
	w.Bit(m.CollisionDamage)
	w.Bit(m.HostModem)
	w.U8(m.Slot)
	w.rawStr16(m.Map)
	w.Bit(m.NameChanged)
	if m.NameChanged {
		w.TGString(m.NewName)
	}
	return w.buf
}

// DecodeSettings parses an opcode-0x00 payload. Map is a sub-slice of
// payload.
func DecodeSettings(payload []byte) (Settings, error) {
	var m Settings
	d := newDecoder(payload, "settings")
	d.opcode(OpSettings)
	m.GameTime = d.at("game time").F32()
	m.CollisionDamage = d.at("collision flag").Bit()
	m.HostModem = d.at("host modem flag").Bit()
	m.Slot = d.at("slot").U8()
	m.Map = d.at("map").Str16()
	m.NameChanged = d.at("name-changed flag").Bit()
	if m.NameChanged {
		m.NewName = d.at("new name").TGString()
	}
	d.end()
	return m, d.result()
}

// GameInit is opcode 0x01: one byte, no payload (handshake.md 2.5).
type GameInit struct{}

// AppendTo appends the encoded message to b.
func (GameInit) AppendTo(b []byte) []byte { return append(b, OpGameInit) }

// DecodeGameInit parses an opcode-0x01 payload.
func DecodeGameInit(payload []byte) (GameInit, error) {
	return GameInit{}, decodeBare(payload, OpGameInit, "game init")
}

// TransferDone is NetFile opcode 0x28, "no files to transfer", sent once
// after checksum round 0xFF and before Settings (handshake.md 2.5).
type TransferDone struct{}

// AppendTo appends the encoded message to b.
func (TransferDone) AppendTo(b []byte) []byte { return append(b, OpTransferDone) }

// DecodeTransferDone parses an opcode-0x28 payload.
func DecodeTransferDone(payload []byte) (TransferDone, error) {
	return TransferDone{}, decodeBare(payload, OpTransferDone, "transfer done")
}

func decodeBare(payload []byte, op byte, msg string) error {
	d := newDecoder(payload, msg)
	d.opcode(op)
	d.end()
	return d.result()
}

// NewPlayerInGame is opcode 0x2A, sent by the client once Settings and
// GameInit are processed (handshake.md 2.6): `2A 20` from a broadband
// client, `2A 21` from one on a dial-up modem.
type NewPlayerInGame struct {
	Modem bool // the client's "using modem" flag
}

// AppendTo appends the encoded message to b.
func (m NewPlayerInGame) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpNewPlayerInGame)
	w.Bit(m.Modem)
	return w.buf
}

// DecodeNewPlayerInGame parses an opcode-0x2A payload.
func DecodeNewPlayerInGame(payload []byte) (NewPlayerInGame, error) {
	var m NewPlayerInGame
	d := newDecoder(payload, "new player in game")
	d.opcode(OpNewPlayerInGame)
	m.Modem = d.at("modem flag").Bit()
	d.end()
	return m, d.result()
}

// Player-list event (opcode 0x17) constants (opcodes.md 3.8, handshake.md
// 2.6 and 5).
const (
	// FactoryPlayerList is the event class of every 0x17 message.
	FactoryPlayerList = 0x00000866
	// EventNewPlayerInGame announces a player (sent after MissionInit).
	EventNewPlayerInGame = 0x008000F1
	// EventPlayerLeft removes a player.
	EventPlayerLeft = 0x00060005
)

// PlayerListEvent is opcode 0x17 ("DeletePlayerUI"): a serialized event of
// class FactoryPlayerList with a one-byte tail, 18 bytes in all.
type PlayerListEvent struct {
	Code uint32 // EventNewPlayerInGame or EventPlayerLeft
	Src  int32  // 0 in captures
	// Target is a session-specific id (0x64F, 0x791 in captures), not a
	// network ship id; its meaning is open (handshake.md 7).
	Target int32
	PeerID uint8 // wire peer id of the player concerned
}

// AppendTo appends the encoded message to b.
func (m PlayerListEvent) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpPlayerListEvent)
	w.U32(FactoryPlayerList)
	w.U32(m.Code)
	w.I32(m.Src)
	w.I32(m.Target)
	w.U8(m.PeerID)
	return w.buf
}

// DecodePlayerListEvent parses an opcode-0x17 payload. A factory other
// than FactoryPlayerList is an error: the tail layout depends on it.
func DecodePlayerListEvent(payload []byte) (PlayerListEvent, error) {
	var m PlayerListEvent
	d := newDecoder(payload, "player-list event")
	d.opcode(OpPlayerListEvent)
	if f := d.at("factory").U32(); d.err == nil && f != FactoryPlayerList {
		d.fail("factory", "factory 0x%X, want 0x%X", f, FactoryPlayerList)
	}
	m.Code = d.at("event code").U32()
	m.Src = d.at("source").I32()
	m.Target = d.at("target").I32()
	m.PeerID = d.at("peer id").U8()
	d.end()
	return m, d.result()
}

// DeletePlayerAnim is opcode 0x18, the "X has left" text (handshake.md 5).
// Never send it with an empty name: stock clients without the TGL file
// crash on it.
type DeletePlayerAnim struct {
	Name []byte
}

// AppendTo appends the encoded message to b.
func (m DeletePlayerAnim) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpDeletePlayerAnim)
	w.rawStr16(m.Name)
	return w.buf
}

// DecodeDeletePlayerAnim parses an opcode-0x18 payload; Name is a
// sub-slice of payload.
func DecodeDeletePlayerAnim(payload []byte) (DeletePlayerAnim, error) {
	var m DeletePlayerAnim
	d := newDecoder(payload, "delete player anim")
	d.opcode(OpDeletePlayerAnim)
	m.Name = d.at("name").Str16()
	d.end()
	return m, d.result()
}

// DestroyObject is opcode 0x14: the server removes an object (disconnect
// cleanup, non-ship objects; never ship deaths, simulation.md 9.4).
type DestroyObject struct{ ObjectID int32 }

// AppendTo appends the encoded message to b.
func (m DestroyObject) AppendTo(b []byte) []byte {
	return appendObjectID(b, OpDestroyObject, m.ObjectID)
}

// DecodeDestroyObject parses an opcode-0x14 payload.
func DecodeDestroyObject(payload []byte) (DestroyObject, error) {
	id, err := decodeObjectID(payload, OpDestroyObject, "destroy object")
	return DestroyObject{id}, err
}

// ObjectPrompt is opcode 0x1D (stock name "ObjNotFound"): "here is an id
// you may be missing". A receiver that lacks the object requests it with
// RequestObject 0x1E; one that has it does nothing. It is never the answer
// to 0x1E: an unknown id gets no answer at all (opcodes.md 3.10).
type ObjectPrompt struct{ ObjectID int32 }

// AppendTo appends the encoded message to b.
func (m ObjectPrompt) AppendTo(b []byte) []byte { return appendObjectID(b, OpObjectPrompt, m.ObjectID) }

// DecodeObjectPrompt parses an opcode-0x1D payload.
func DecodeObjectPrompt(payload []byte) (ObjectPrompt, error) {
	id, err := decodeObjectID(payload, OpObjectPrompt, "object prompt")
	return ObjectPrompt{id}, err
}

// RequestObject is opcode 0x1E: a client asks for an object it does not
// know; the server answers with 0x02/0x03 or 0x1D.
type RequestObject struct{ ObjectID int32 }

// AppendTo appends the encoded message to b.
func (m RequestObject) AppendTo(b []byte) []byte {
	return appendObjectID(b, OpRequestObject, m.ObjectID)
}

// DecodeRequestObject parses an opcode-0x1E payload.
func DecodeRequestObject(payload []byte) (RequestObject, error) {
	id, err := decodeObjectID(payload, OpRequestObject, "request object")
	return RequestObject{id}, err
}

func appendObjectID(b []byte, op byte, id int32) []byte {
	w := Writer{buf: b}
	w.U8(op)
	w.I32(id)
	return w.buf
}

func decodeObjectID(payload []byte, op byte, msg string) (int32, error) {
	d := newDecoder(payload, msg)
	d.opcode(op)
	id := d.at("object id").I32()
	d.end()
	return id, d.result()
}

// UICollisionSetting is opcode 0x16, sent only when the host changes the
// collision-damage setting at runtime (not part of the join).
type UICollisionSetting struct{ CollisionDamage bool }

// AppendTo appends the encoded message to b.
func (m UICollisionSetting) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpUICollisionSetting)
	w.Bit(m.CollisionDamage)
	return w.buf
}

// DecodeUICollisionSetting parses an opcode-0x16 payload.
func DecodeUICollisionSetting(payload []byte) (UICollisionSetting, error) {
	var m UICollisionSetting
	d := newDecoder(payload, "ui collision setting")
	d.opcode(OpUICollisionSetting)
	m.CollisionDamage = d.at("collision flag").Bit()
	d.end()
	return m, d.result()
}

// EnterSet is opcode 0x1F: move an object into a set (scene). The set data
// after the object id (an i32 and raw set data, opcodes.md 2) has no
// documented grammar, so it is kept opaque.
type EnterSet struct {
	ObjectID int32
	Data     []byte // everything after the object id, verbatim
}

// AppendTo appends the encoded message to b.
func (m EnterSet) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(OpEnterSet)
	w.I32(m.ObjectID)
	w.Raw(m.Data)
	return w.buf
}

// DecodeEnterSet parses an opcode-0x1F payload; Data is a sub-slice of
// payload (open-ended, so no trailing-byte check).
func DecodeEnterSet(payload []byte) (EnterSet, error) {
	var m EnterSet
	d := newDecoder(payload, "enter set")
	d.opcode(OpEnterSet)
	m.ObjectID = d.at("object id").I32()
	if d.err == nil {
		m.Data = d.Raw(d.Len())
	}
	return m, d.result()
}

// HostMsg is opcode 0x13, the self-destruct request. On the wire it is the
// single byte 0x13; the sender is identified by its connection, not by the
// payload (simulation.md 7).
//
// The decoder tolerates trailing bytes and keeps them in Extra: the stock
// host reads nothing after the opcode, so a longer 0x13 still
// self-destructs the sender's ship there, and refusing it would only make
// us differ from stock. The message is consumed, never relayed, so the
// extra bytes cannot reach another client. Extra is for logs.
type HostMsg struct {
	Extra []byte // bytes after the opcode; empty from stock clients
}

// AppendTo appends the encoded message to b (the opcode, then Extra).
func (m HostMsg) AppendTo(b []byte) []byte {
	b = append(b, OpHostMsg)
	return append(b, m.Extra...)
}

// DecodeHostMsg parses an opcode-0x13 payload.
func DecodeHostMsg(payload []byte) (HostMsg, error) {
	var m HostMsg
	d := newDecoder(payload, "host msg")
	d.opcode(OpHostMsg)
	if d.err == nil && d.Len() > 0 {
		m.Extra = d.Raw(d.Len())
	}
	return m, d.result()
}
