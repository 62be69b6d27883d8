package codec

// Object creation (ObjCreate 0x02 / ObjCreateTeam 0x03) and object ids
// (opcodes.md 1 and 3.1, simulation.md 3).

// Object class ids at the start of an object stream (opcodes.md 3.1).
const (
	ClassShip    = 0x00008008 // ship or station: body parsed into ShipBody
	ClassTorpedo = 0x00008009 // torpedo: body kept opaque
)

// Object-id blocks (opcodes.md 1, simulation.md 3.2): player slot N owns
// [FirstPlayerObjectID + N*PlayerIDBlock, FirstPlayerObjectID + (N+1)*PlayerIDBlock).
const (
	FirstPlayerObjectID = 0x3FFFFFFF // slot 0's first id (its ship)
	PlayerIDBlock       = 0x40000    // ids per player slot (1 << 18)
	// MaxIDSlot is the highest slot whose block fits in an i32.
	MaxIDSlot = (0x7FFFFFFF - FirstPlayerObjectID) / PlayerIDBlock
)

// OwnerSlot returns the player slot whose id block holds id. Ids below
// FirstPlayerObjectID (engine-local server objects such as 0x1E or 0x64F,
// 0 = none, -1 = the "global" sentinel) belong to no player: ok is false.
func OwnerSlot(id int32) (slot int, ok bool) {
	if id < FirstPlayerObjectID {
		return 0, false
	}
	return int(id-FirstPlayerObjectID) >> 18, true
}

// FirstObjectID returns the first id of slot's block, which the slot's
// ship takes (its subsystems take the following ids, simulation.md 3.2).
// slot must be in [0, MaxIDSlot]; other values wrap.
func FirstObjectID(slot int) int32 {
	return int32(FirstPlayerObjectID + int64(slot)*PlayerIDBlock)
}

// ObjCreate is opcode 0x02 (ObjCreate) or 0x03 (ObjCreateTeam): the
// envelope and the object stream (opcodes.md 3.1). A relay forwards the
// received bytes; this type is for validation, the host's model and
// server-built replication.
type ObjCreate struct {
	Op        byte  // OpObjCreate or OpObjCreateTeam
	OwnerSlot uint8 // the creator's 0-based slot; ids come from its block
	// OwnerPlayer is byte 2, on the wire only when Op is OpObjCreateTeam:
	// the owner's network player id (wire peer id, 2, 3, ...), which the
	// receiver stores as the ship's net player id; not a team (opcodes.md
	// 3.1, 5).
	OwnerPlayer uint8
	ClassID     uint32
	ObjectID    int32
	// Ship is the parsed body when ClassID is ClassShip (the body is
	// opcode-independent, so 0x02 can carry a ship too).
	Ship ShipBody
	// Body is the raw class body of any other class (ClassTorpedo and
	// unknown ones), verbatim; nil for ships.
	Body []byte
}

// ShipBody is the class-0x8008 object body (simulation.md 3). Everything
// after the set name is the creator's subsystem state (the full-state
// writer of simulation.md 3.4); a relay keeps it as an opaque sub-slice and
// the host builds its own with ships.AppendTail.
type ShipBody struct {
	Species  uint8      // SpeciesToShip index (simulation.md 3.3)
	Position [3]float32 // x, y, z
	Rotation [4]float32 // quaternion w, x, y, z (W first on the wire)
	Velocity DirF32     // Dir3 + f32 magnitude; zero at spawn
	Name     []byte     // object name (the player's name for a player ship), u8-prefixed, no terminator
	Set      []byte     // star-system (set) name, e.g. "Multi1"
	Tail     []byte     // subsystem state, verbatim
}

// DirF32 is the 7-byte Dir3+F32 vector form: three direction bytes, then
// the f32 magnitude (codec.md 4, FUN_005a2060). Seven zero bytes are a
// vector at rest.
type DirF32 struct {
	Dir Dir3
	Mag float32
}

// Vector returns direction × magnitude.
func (v DirF32) Vector() (x, y, z float32) {
	x, y, z = v.Dir.Vector()
	return x * v.Mag, y * v.Mag, z * v.Mag
}

// NewDirF32 encodes a vector as the stock writer does (Writer.Dir3F32).
func NewDirF32(x, y, z float32) DirF32 {
	return DirF32{Dir: NewDir3(x, y, z), Mag: magnitude(x, y, z)}
}

// AppendTo appends the encoded message to b. The OwnerPlayer byte is written only
// for OpObjCreateTeam; Ship is written when ClassID is ClassShip and Body
// otherwise. Names longer than 255 bytes are cut (u8 prefix).
func (m ObjCreate) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	w.U8(m.Op)
	w.U8(m.OwnerSlot)
	if m.Op == OpObjCreateTeam {
		w.U8(m.OwnerPlayer)
	}
	w.U32(m.ClassID)
	w.I32(m.ObjectID)
	if m.ClassID != ClassShip {
		w.Raw(m.Body)
		return w.buf
	}
	s := &m.Ship
	w.U8(s.Species)
	for _, v := range s.Position {
		w.F32(v)
	}
	for _, v := range s.Rotation {
		w.F32(v)
	}
	w.dir3(s.Velocity.Dir)
	w.F32(s.Velocity.Mag)
	w.rawStr8(s.Name)
	w.rawStr8(s.Set)
	w.Raw(s.Tail)
	return w.buf
}

// DecodeObjCreate parses an opcode-0x02 or 0x03 payload. Names, Tail and
// Body are sub-slices of payload. The body of a non-ship class is
// open-ended; a ship body must at least hold its fixed prefix and both
// names. On error the returned value holds the fields read before the
// failure (the envelope of a truncated message, for instance).
func DecodeObjCreate(payload []byte) (ObjCreate, error) {
	var m ObjCreate
	d := newDecoder(payload, "obj create")
	decodeObjCreateHeader(&d, &m)
	if d.err != nil {
		return m, d.result()
	}
	if m.ClassID != ClassShip {
		m.Body = d.Raw(d.Len())
		return m, nil
	}
	s := &m.Ship
	s.Species = d.at("species").U8()
	for i := range s.Position {
		s.Position[i] = d.at("position").F32()
	}
	for i := range s.Rotation {
		s.Rotation[i] = d.at("rotation").F32()
	}
	s.Velocity.Dir = d.at("velocity").dir3()
	s.Velocity.Mag = d.at("velocity").F32()
	s.Name = d.at("object name").Str8()
	s.Set = d.at("set name").Str8()
	if d.err == nil {
		s.Tail = d.Raw(d.Len())
	}
	return m, d.result()
}

// DecodeObjCreateHeader parses only the envelope (opcode, owner slot, owner
// player id for 0x03, class id, object id): all a relay needs to check ownership
// (opcodes.md 3.1). Bytes after the object id are not examined, so a
// message cut after the envelope still decodes; ClassID selects nothing and
// Ship and Body stay empty.
func DecodeObjCreateHeader(payload []byte) (ObjCreate, error) {
	var m ObjCreate
	d := newDecoder(payload, "obj create header")
	decodeObjCreateHeader(&d, &m)
	return m, d.result()
}

func decodeObjCreateHeader(d *decoder, m *ObjCreate) {
	m.Op = d.at("opcode").U8()
	if d.err == nil && m.Op != OpObjCreate && m.Op != OpObjCreateTeam {
		d.fail("opcode", "opcode 0x%02X, want 0x02 or 0x03", m.Op)
		return
	}
	m.OwnerSlot = d.at("owner slot").U8()
	if m.Op == OpObjCreateTeam {
		m.OwnerPlayer = d.at("owner player id").U8()
	}
	m.ClassID = d.at("class id").U32()
	m.ObjectID = d.at("object id").I32()
}
