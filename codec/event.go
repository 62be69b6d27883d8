package codec

// Serialized events (opcodes.md 3.2-3.4 and 3.9, simulation.md 6, 8, 9.2
// and 12): PythonEvent 0x06/0x0D, the event-forward opcodes 0x07..0x12 and
// 0x1B, and CollisionEffect 0x15. Every one is
//
//	u8 op, i32 factory (event class), i32 event code, i32 source object,
//	i32 destination object, class-specific tail.
//
// Event decodes any of them with the tail opaque; the typed forms below
// decode the tail of one class exactly.

// Event classes (factory ids) with a known tail (opcodes.md 3.2).
const (
	FactoryBase             = 0x00000002 // no tail
	FactorySubsystem        = 0x00000101 // no tail (repair notifications, StopFiring)
	FactorySubsystemControl = 0x00000104 // + u8 value (SubsystemStatus)
	FactoryChar             = 0x00000105 // + u8 (SetPhaserLevel, TorpedoTypeChange)
	FactoryObjPtr           = 0x0000010C // + i32 object id
	FactoryCollision        = 0x00008124 // CollisionEffect tail
	FactoryStartFiring      = 0x00008128 // + i32 target, 4-byte aim offset
	FactoryObjectExploding  = 0x00008129 // + i32 firing player, f32 lifetime
	FactoryStartWarp        = 0x0000812A // + u8 len, set name, 4 × f32
)

// Event codes seen on the wire (opcodes.md 2, simulation.md 8, 9.2 and 12).
// The player-list codes are with PlayerListEvent.
const (
	EventSubsystemStatus         = 0x0080006C
	EventObjectExploding         = 0x0080004E
	EventObjectCollision         = 0x00800050 // client CollisionEffect
	EventTargetChanged           = 0x00800058 // 0x0D targeting ObjPtrEvent
	EventRepairCompleted         = 0x00800074
	EventRepairCannotBeCompleted = 0x00800075
	EventRepairListPriority      = 0x00800076
	EventWeaponFired             = 0x0080007C
	EventStartFiring             = 0x008000D7
	EventStopFiring              = 0x008000D9
	EventStopFiringAtTarget      = 0x008000DB
	// EventStartFiringNet, EventStopFiringNet and EventStopFiringAtTargetNet
	// are the codes the firing system posts and the MultiplayerGame handler
	// sends as 0x07/0x08/0x09; receivers post the codes above (opcodes.md
	// 3.2). Which of the two the message carries is not traced (the
	// handler bodies are not decompiled); the host sends these.
	EventStartFiringNet        = 0x008000D8
	EventStopFiringNet         = 0x008000DA
	EventStopFiringAtTargetNet = 0x008000DC
	EventAddToRepairList       = 0x008000DF
	EventSetPhaserLevel        = 0x008000E0
	EventStartCloaking         = 0x008000E3
	EventStopCloaking          = 0x008000E5
	EventStartWarp             = 0x008000ED
	EventHostObjectCollision   = 0x008000FC // host re-post of a CollisionEffect
	EventTorpedoTypeChange     = 0x008000FD
)

// ObjectRefGlobal is the "global" object reference 0xFFFFFFFF; 0 means "no
// object" (simulation.md 12).
const ObjectRefGlobal int32 = -1

const (
	collisionContactLen  = 4   // s8 dx, s8 dy, s8 dz, u8 dist
	maxCollisionContacts = 255 // the count is a u8
)

// IsEventOpcode reports whether op carries a serialized event: 0x06..0x12
// (0x13 is HostMsg), 0x15, 0x17 and 0x1B (opcodes.md 3.2).
func IsEventOpcode(op byte) bool {
	return op >= OpPythonEvent && op <= OpSetPhaserLevel ||
		op == OpCollisionEffect || op == OpPlayerListEvent || op == OpTorpedoTypeChange
}

// Event is any serialized event with its class tail kept opaque.
type Event struct {
	Op      byte
	Factory uint32
	Code    uint32
	Src     int32
	Dst     int32
	Tail    []byte // class-specific tail, verbatim
}

// AppendTo appends the encoded message to b.
func (m Event) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, m.Factory, m.Code, m.Src, m.Dst)
	w.Raw(m.Tail)
	return w.buf
}

// DecodeEvent parses the header of any event opcode (IsEventOpcode); Tail
// is a sub-slice of payload (open-ended, so no trailing-byte check).
func DecodeEvent(payload []byte) (Event, error) {
	var m Event
	d := newDecoder(payload, "event")
	m.Op, m.Factory, m.Code, m.Src, m.Dst = readEventHeader(&d, 0)
	if d.err == nil {
		m.Tail = d.Raw(d.Len())
	}
	return m, d.result()
}

func writeEventHeader(w *Writer, op byte, factory, code uint32, src, dst int32) {
	w.U8(op)
	w.U32(factory)
	w.U32(code)
	w.I32(src)
	w.I32(dst)
}

// readEventHeader reads the 17-byte header, failing on an opcode that is
// not an event opcode or, when factory is not 0, on another class.
func readEventHeader(d *decoder, factory uint32) (op byte, f, code uint32, src, dst int32) {
	op = d.at("opcode").U8()
	if d.err == nil && !IsEventOpcode(op) {
		d.fail("opcode", "opcode 0x%02X is not an event opcode", op)
	}
	f = d.at("factory").U32()
	if d.err == nil && factory != 0 && f != factory {
		d.fail("factory", "factory 0x%X, want 0x%X", f, factory)
	}
	code = d.at("event code").U32()
	src = d.at("source").I32()
	dst = d.at("destination").I32()
	return
}

// SubsystemEvent is an event of class FactorySubsystem (no tail, 17 bytes):
// the host's repair notifications (0x06 with EventAddToRepairList,
// EventRepairCompleted, EventRepairCannotBeCompleted: Src = damaged
// subsystem, Dst = repair subsystem, simulation.md 8) and StopFiring.
type SubsystemEvent struct {
	Op   byte
	Code uint32
	Src  int32
	Dst  int32
}

// AppendTo appends the encoded message to b.
func (m SubsystemEvent) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactorySubsystem, m.Code, m.Src, m.Dst)
	return w.buf
}

// DecodeSubsystemEvent parses a FactorySubsystem event.
func DecodeSubsystemEvent(payload []byte) (SubsystemEvent, error) {
	var m SubsystemEvent
	d := newDecoder(payload, "subsystem event")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactorySubsystem)
	d.end()
	return m, d.result()
}

// CharEvent is an event of class FactoryChar: one extra byte, 18 bytes in
// all. SetPhaserLevel 0x12 (EventSetPhaserLevel; 0 low, 1 medium, 2 high)
// and TorpedoTypeChange 0x1B use it.
type CharEvent struct {
	Op    byte
	Code  uint32
	Src   int32
	Dst   int32
	Value uint8
}

// AppendTo appends the encoded message to b.
func (m CharEvent) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactoryChar, m.Code, m.Src, m.Dst)
	w.U8(m.Value)
	return w.buf
}

// DecodeCharEvent parses a FactoryChar event.
func DecodeCharEvent(payload []byte) (CharEvent, error) {
	var m CharEvent
	d := newDecoder(payload, "char event")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactoryChar)
	m.Value = d.at("value").U8()
	d.end()
	return m, d.result()
}

// ObjPtrEvent is an event of class FactoryObjPtr: one extra object id, 21
// bytes in all. Weapon-fired notifications (0x06), RepairListPriority 0x11
// and the client's targeting changes (0x0D) use it.
type ObjPtrEvent struct {
	Op   byte
	Code uint32
	Src  int32
	Dst  int32
	Obj  int32 // 0 = none, ObjectRefGlobal = global, else an object id
}

// AppendTo appends the encoded message to b.
func (m ObjPtrEvent) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactoryObjPtr, m.Code, m.Src, m.Dst)
	w.I32(m.Obj)
	return w.buf
}

// DecodeObjPtrEvent parses a FactoryObjPtr event.
func DecodeObjPtrEvent(payload []byte) (ObjPtrEvent, error) {
	var m ObjPtrEvent
	d := newDecoder(payload, "object-pointer event")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactoryObjPtr)
	m.readTail(&d)
	return m, d.result()
}

// AsObjPtr reads e, decoded by DecodeEvent, as a FactoryObjPtr event: only
// its tail is parsed, so a message is read once however many of its
// classes a receiver tries. It fails where DecodeObjPtrEvent would.
func (e *Event) AsObjPtr() (ObjPtrEvent, error) {
	m := ObjPtrEvent{Op: e.Op, Code: e.Code, Src: e.Src, Dst: e.Dst}
	d := e.tailDecoder("object-pointer event", FactoryObjPtr)
	m.readTail(&d)
	return m, d.result()
}

func (m *ObjPtrEvent) readTail(d *decoder) {
	m.Obj = d.at("object").I32()
	d.end()
}

// tailDecoder reads e's class tail as an event of class factory.
func (e *Event) tailDecoder(msg string, factory uint32) decoder {
	d := newDecoder(e.Tail, msg)
	if e.Factory != factory {
		d.fail("factory", "factory 0x%X, want 0x%X", e.Factory, factory)
	}
	return d
}

// ObjectExploding is an event of class FactoryObjectExploding (25 bytes),
// sent by the host as PythonEvent 0x06 with EventObjectExploding when a
// ship dies (simulation.md 9.2): Src = attacker ship or 0, Dst = the dying
// ship. The older layout with the dying ship in Src and Dst = -1 is not
// stock (opcodes.md 3.4).
type ObjectExploding struct {
	Op           byte
	Code         uint32
	Src          int32
	Dst          int32
	FiringPlayer int32   // killer's player id, 0 if none
	Lifetime     float32 // explosion duration, seconds (9.5 self-destruct)
}

// AppendTo appends the encoded message to b.
func (m ObjectExploding) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactoryObjectExploding, m.Code, m.Src, m.Dst)
	w.I32(m.FiringPlayer)
	w.F32(m.Lifetime)
	return w.buf
}

// DecodeObjectExploding parses a FactoryObjectExploding event.
func DecodeObjectExploding(payload []byte) (ObjectExploding, error) {
	var m ObjectExploding
	d := newDecoder(payload, "object exploding")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactoryObjectExploding)
	m.FiringPlayer = d.at("firing player").I32()
	m.Lifetime = d.at("lifetime").F32()
	d.end()
	return m, d.result()
}

// StartFiring is an event of class FactoryStartFiring (25 bytes), the
// event-forward StartFiring 0x07 that carries phaser and tractor fire
// (opcodes.md 3.2, Corrections 22-23): the destination is the firing
// ship's weapon *system*, the source 0 when the stock builder leaves it
// unset. The 8-byte tail is the event's target (StartFiringEvent.GetTarget)
// and its aim offset; that the offset takes the 4-byte point form of
// TorpedoFire is inferred (the network writer is not decompiled), so a
// decoded message re-encodes byte for byte whatever the last 4 bytes hold.
type StartFiring struct {
	Op     byte
	Code   uint32
	Src    int32
	Dst    int32 // the weapon system
	Target int32 // the target object, 0 for none
	// Offset is the aim offset relative to the target, in the target's
	// frame and scaled by its radius [inferred]; all zero when the sender
	// gave none (the stock builder then aims at the target's power plant).
	Offset ScaledPoint
}

// AppendTo appends the encoded message to b.
func (m StartFiring) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactoryStartFiring, m.Code, m.Src, m.Dst)
	w.I32(m.Target)
	w.dir3(m.Offset.Dir)
	w.U8(m.Offset.Dist)
	return w.buf
}

// DecodeStartFiring parses a FactoryStartFiring event.
func DecodeStartFiring(payload []byte) (StartFiring, error) {
	var m StartFiring
	d := newDecoder(payload, "start firing")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactoryStartFiring)
	m.readTail(&d)
	return m, d.result()
}

// AsStartFiring reads e, decoded by DecodeEvent, as a FactoryStartFiring
// event, parsing only its tail. It fails where DecodeStartFiring would.
func (e *Event) AsStartFiring() (StartFiring, error) {
	m := StartFiring{Op: e.Op, Code: e.Code, Src: e.Src, Dst: e.Dst}
	d := e.tailDecoder("start firing", FactoryStartFiring)
	m.readTail(&d)
	return m, d.result()
}

func (m *StartFiring) readTail(d *decoder) {
	m.Target = d.at("target").I32()
	m.Offset.Dir = d.at("aim offset").dir3()
	m.Offset.Dist = d.at("aim offset").U8()
	d.end()
}

// StartWarp is an event of class FactoryStartWarp, the event-forward
// StartWarp 0x10: a u8-prefixed set name and four floats whose meaning is
// not documented (kept in wire order).
type StartWarp struct {
	Op     byte
	Code   uint32
	Src    int32
	Dst    int32
	Set    []byte // destination set name
	Params [4]float32
}

// AppendTo appends the encoded message to b (a set name longer than 255
// bytes is cut).
func (m StartWarp) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	writeEventHeader(&w, m.Op, FactoryStartWarp, m.Code, m.Src, m.Dst)
	w.rawStr8(m.Set)
	for _, v := range m.Params {
		w.F32(v)
	}
	return w.buf
}

// DecodeStartWarp parses a FactoryStartWarp event; Set is a sub-slice of
// payload.
func DecodeStartWarp(payload []byte) (StartWarp, error) {
	var m StartWarp
	d := newDecoder(payload, "start warp")
	m.Op, _, m.Code, m.Src, m.Dst = readEventHeader(&d, FactoryStartWarp)
	m.Set = d.at("set name").Str8()
	for i := range m.Params {
		m.Params[i] = d.at("params").F32()
	}
	d.end()
	return m, d.result()
}

// CollisionEffect is opcode 0x15, a client's collision report: an event of
// class FactoryCollision, 22 + 4n bytes (opcodes.md 3.9, simulation.md 6).
// The host consumes it and never relays it.
type CollisionEffect struct {
	Code   uint32 // EventObjectCollision from stock clients
	Src    int32  // other object, 0 = environment
	Target int32  // the reporting ship
	// Contacts holds n 4-byte contact points {s8 dx, s8 dy, s8 dz, u8 dist}
	// verbatim (a sub-slice on decode); see Contact and NumContacts.
	Contacts []byte
	Force    float32
}

// CollisionContact is one contact point of a CollisionEffect: a direction
// scaled by 127 in the sender's frame and a byte-scaled distance from the
// ship centre (codec.md 4.3), the same 4-byte form as a TorpedoFire target
// point.
type CollisionContact = ScaledPoint

// NumContacts returns the number of whole contacts in Contacts.
func (m CollisionEffect) NumContacts() int { return len(m.Contacts) / collisionContactLen }

// Contact returns contact i (0 <= i < NumContacts).
func (m CollisionEffect) Contact(i int) CollisionContact {
	c := m.Contacts[i*collisionContactLen : i*collisionContactLen+collisionContactLen]
	return CollisionContact{Dir: Dir3{int8(c[0]), int8(c[1]), int8(c[2])}, Dist: c[3]}
}

// AppendContact appends c in wire form to contacts (for building a
// CollisionEffect).
func AppendContact(contacts []byte, c CollisionContact) []byte {
	return append(contacts, byte(c.Dir[0]), byte(c.Dir[1]), byte(c.Dir[2]), c.Dist)
}

// AppendTo appends the encoded message to b. At most 255 whole contacts
// are written (the count is a u8); a partial contact is dropped.
func (m CollisionEffect) AppendTo(b []byte) []byte {
	n := min(m.NumContacts(), maxCollisionContacts)
	w := Writer{buf: b}
	writeEventHeader(&w, OpCollisionEffect, FactoryCollision, m.Code, m.Src, m.Target)
	w.U8(uint8(n))
	w.Raw(m.Contacts[:n*collisionContactLen])
	w.F32(m.Force)
	return w.buf
}

// DecodeCollisionEffect parses an opcode-0x15 payload. The contact count is
// checked against the bytes left before the contacts are sliced.
func DecodeCollisionEffect(payload []byte) (CollisionEffect, error) {
	var m CollisionEffect
	d := newDecoder(payload, "collision effect")
	d.opcode(OpCollisionEffect)
	if f := d.at("factory").U32(); d.err == nil && f != FactoryCollision {
		d.fail("factory", "factory 0x%X, want 0x%X", f, FactoryCollision)
	}
	m.Code = d.at("event code").U32()
	m.Src = d.at("source").I32()
	m.Target = d.at("target").I32()
	n := int(d.at("contact count").U8())
	if d.err == nil && n*collisionContactLen+4 > d.Len() {
		d.at("contacts").Raw(n*collisionContactLen + 4) // records ErrShort with the sizes
	}
	m.Contacts = d.at("contacts").Raw(n * collisionContactLen)
	m.Force = d.at("force").F32()
	d.end()
	return m, d.result()
}
