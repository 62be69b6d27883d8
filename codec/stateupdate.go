package codec

import "fmt"

// StateUpdate 0x1C (opcodes.md 3.3, simulation.md 4).

// StateUpdate dirty flags, in wire order (simulation.md 4.1).
const (
	StatePosition   = 0x01 // 3 × f32, packed has_hash bit, [u16 hash]
	StateDelta      = 0x02 // Dir3+CF16 offset from the last absolute position
	StateForward    = 0x04 // Dir3
	StateUp         = 0x08 // Dir3
	StateSpeed      = 0x10 // CF16, negative = reversing
	StateSubsystems = 0x20 // subsystem round-robin block (host only)
	StateCloak      = 0x40 // one packed bit
	StateWeapons    = 0x80 // {u8 index, u8 value} pairs to the end (owners only)

	// StateMovement is the set of flags a host copies from the owner's
	// latest update into the updates it rebuilds per receiver.
	StateMovement = StatePosition | StateDelta | StateForward | StateUp | StateSpeed
)

// StateUpdate is opcode 0x1C. Owners send movement and weapon state
// (typically flags 0x9E, 0x96, 0x92, 0x9D); the host never relays those but
// builds its own per receiver: the owner's movement fields plus the 0x20
// subsystem block (simulation.md 4.1). Every compressed field is kept as its
// raw wire value so a rebuilt update carries the owner's bytes unchanged.
//
// Fields are on the wire only when their flag is set in Flags.
type StateUpdate struct {
	ObjectID int32
	GameTime float32 // sender's clock
	Flags    uint8

	Position [3]float32 // StatePosition
	HasHash  bool       // StatePosition: the integrity hash follows (clients only)
	Hash     uint16     // StatePosition with HasHash (simulation.md 4.4)
	Delta    DirMag     // StateDelta
	Forward  Dir3       // StateForward
	Up       Dir3       // StateUp
	Speed    uint16     // StateSpeed, raw CF16; see SpeedValue

	// Subsystems is the StateSubsystems block, starting with its u8 start
	// index, as raw bytes: the bytes the block reader consumed on decode;
	// pre-encoded on encode (see AppendTo).
	Subsystems []byte

	Cloak bool // StateCloak

	// Weapons holds the StateWeapons {u8 index, u8 value} pairs verbatim
	// (value/204 = 1.0 at 0xCC, simulation.md 4.5); see Weapon.
	Weapons []byte
}

// SpeedValue decodes Speed.
func (m StateUpdate) SpeedValue() float32 { return DecodeCF16(m.Speed) }

// NumWeapons returns the number of whole weapon pairs.
func (m StateUpdate) NumWeapons() int { return len(m.Weapons) / 2 }

// Weapon returns pair i (0 <= i < NumWeapons).
func (m StateUpdate) Weapon(i int) (index, value uint8) { return m.Weapons[2*i], m.Weapons[2*i+1] }

// AppendTo appends the encoded message to b, with Subsystems spliced in
// verbatim when StateSubsystems is set.
//
// Packed bits: the stock writer keeps one bit group open for the whole
// message (codec.md 2.1), so has_hash, every packed bit inside the 0x20
// block and the cloak bit share bytes. A pre-encoded block cannot take part
// in that: AppendTo continues the bit state as if the block held no packed
// bits, which is exactly the stock output for such a block and for any
// message without StatePosition and StateCloak together. A host building
// an update whose block has packed bits (has_power) together with
// StatePosition or StateCloak must write the block into the same Writer
// instead: WriteHead, the block, WriteTail.
func (m StateUpdate) AppendTo(b []byte) []byte {
	w := Writer{buf: b}
	m.WriteHead(&w)
	if m.Flags&StateSubsystems != 0 {
		w.Raw(m.Subsystems)
	}
	m.WriteTail(&w)
	return w.buf
}

// WriteHead appends the message up to the subsystem block: opcode, header
// and the StatePosition..StateSpeed fields. It starts a fresh bit group (one
// stream per message, codec.md 5). Follow it with the block (when
// StateSubsystems is set) and WriteTail on the same Writer.
func (m StateUpdate) WriteHead(w *Writer) {
	w.nbits = 0
	w.U8(OpStateUpdate)
	w.I32(m.ObjectID)
	w.F32(m.GameTime)
	w.U8(m.Flags)
	if m.Flags&StatePosition != 0 {
		for _, v := range m.Position {
			w.F32(v)
		}
		w.Bit(m.HasHash)
		if m.HasHash {
			w.U16(m.Hash)
		}
	}
	if m.Flags&StateDelta != 0 {
		w.dirMag(m.Delta)
	}
	if m.Flags&StateForward != 0 {
		w.dir3(m.Forward)
	}
	if m.Flags&StateUp != 0 {
		w.dir3(m.Up)
	}
	if m.Flags&StateSpeed != 0 {
		w.U16(m.Speed)
	}
}

// WriteTail appends the fields after the subsystem block: the cloak bit
// (into the open packed byte if one has room, as the stock writer does) and
// the weapon pairs (whole pairs only).
func (m StateUpdate) WriteTail(w *Writer) {
	if m.Flags&StateCloak != 0 {
		w.Bit(m.Cloak)
	}
	if m.Flags&StateWeapons != 0 {
		w.Raw(m.Weapons[:len(m.Weapons)&^1])
	}
}

// SubsystemsToEnd is a block reader for DecodeStateUpdate that takes every
// byte left as the subsystem block, as the stock receiver does: it reads
// entries until the message ends (simulation.md 4.3). It reads no packed
// bits, so a cloak bit after the block can only come from a packed byte
// opened before it, and weapon pairs after it are always empty. The block
// must hold at least its start index byte.
func SubsystemsToEnd(r *Reader) error {
	if r.Len() == 0 {
		r.U8() // records ErrShort for the start index
		return r.Err()
	}
	r.Raw(r.Len())
	return r.Err()
}

// DecodeStateUpdate parses an opcode-0x1C payload, reading the fields in
// flag order; Subsystems and Weapons are sub-slices of payload.
//
// The subsystem block (StateSubsystems) has no length and its layout
// depends on the ship (simulation.md 4.2), so the caller passes a block
// reader that consumes it from the shared Reader (packed bits inside the
// block share the message's bit state). With subsystems nil a message with
// StateSubsystems fails with ErrNeedSubsystems (the header fields and
// every field before the block are filled in). Decoding allocates nothing
// unless a block reader is called (the Reader it gets is one allocation).
func DecodeStateUpdate(payload []byte, subsystems func(r *Reader) error) (StateUpdate, error) {
	var m StateUpdate
	d := newDecoder(payload, "state update")
	d.opcode(OpStateUpdate)
	m.ObjectID = d.at("object id").I32()
	m.GameTime = d.at("game time").F32()
	m.Flags = d.at("flags").U8()
	if m.Flags&StatePosition != 0 {
		for i := range m.Position {
			m.Position[i] = d.at("position").F32()
		}
		m.HasHash = d.at("has_hash").Bit()
		if m.HasHash {
			m.Hash = d.at("hash").U16()
		}
	}
	if m.Flags&StateDelta != 0 {
		m.Delta = d.at("delta").dirMag()
	}
	if m.Flags&StateForward != 0 {
		m.Forward = d.at("forward").dir3()
	}
	if m.Flags&StateUp != 0 {
		m.Up = d.at("up").dir3()
	}
	if m.Flags&StateSpeed != 0 {
		m.Speed = d.at("speed").CF16Raw()
	}
	if m.Flags&StateSubsystems != 0 && d.err == nil {
		m.Subsystems = decodeSubsystemBlock(&d, payload, subsystems)
	}
	if m.Flags&StateCloak != 0 {
		m.Cloak = d.at("cloak").Bit()
	}
	if m.Flags&StateWeapons != 0 && d.err == nil {
		if d.Len()%2 != 0 {
			d.fail("weapons", "%d bytes left for {index, value} pairs", d.Len())
		} else {
			m.Weapons = d.Raw(d.Len())
		}
	}
	d.end()
	return m, d.result()
}

// decodeSubsystemBlock runs the caller's block reader on a copy of the
// decoder's Reader (so only this path makes the Reader escape to the heap)
// and returns the bytes it consumed.
func decodeSubsystemBlock(d *decoder, payload []byte, read func(r *Reader) error) []byte {
	d.field = "subsystems"
	if read == nil {
		d.err = fmt.Errorf("flags 0x%02X at offset 9: %w", payload[9], ErrNeedSubsystems)
		return nil
	}
	start := d.off
	sub := new(Reader)
	*sub = d.Reader
	err := read(sub)
	if err == nil {
		err = sub.err
	}
	switch {
	case err != nil:
		d.err = err
		return nil
	case len(sub.buf) != len(payload) || &sub.buf[0] != &payload[0] || sub.off < start:
		// The block reader may only read forward through the payload.
		d.fail("subsystems", "block reader moved the Reader off the payload")
		return nil
	}
	d.Reader = *sub
	return payload[start:d.off:d.off]
}
